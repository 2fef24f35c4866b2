-- Schema version 1 of the position authority's store on PostgreSQL: what an authority serves
-- (spaces with their token and position counter, feeds, positioned blocks, subscriptions), not a
-- replica's state. Statements are separated by lines that hold only ';'. Identifiers compare
-- byte by byte (COLLATE "C"), as Java and SQLite order them.

-- The version of this schema, and the mark that the database holds a feed store.
CREATE TABLE feedstore_schema (
  schema_id        integer PRIMARY KEY CHECK (schema_id = 1),
  version          integer NOT NULL
)
;
INSERT INTO feedstore_schema (schema_id, version) VALUES (1, 0)
;
-- A secret of this database, from which the server token of each space is derived
-- (dev.feedstore.core.ServerToken.derive): a dump of the database keeps it, and with it every token;
-- a new database makes another. 244 random bits from two version-4 UUIDs, which PostgreSQL draws
-- from its cryptographically strong source.
CREATE TABLE store_secret (
  secret_id        integer PRIMARY KEY CHECK (secret_id = 1),
  token_key        bytea   NOT NULL CHECK (length(token_key) = 32)
)
;
INSERT INTO store_secret (secret_id, token_key)
  VALUES (1, uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()))
;
-- A space: its token once an append stored it, how many feeds it has, and its position counter,
-- which the append that hands positions out advances in its own transaction (the row lock
-- serializes appends of one space across every process).
CREATE TABLE spaces (
  space_private_id bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  space_id         text    COLLATE "C" NOT NULL,
  server_token     text,
  feed_count       bigint  NOT NULL DEFAULT 0,
  max_position     bigint  NOT NULL DEFAULT 0,
  CONSTRAINT spaces_space_id_unique UNIQUE (space_id)
)
;
CREATE TABLE feeds (
  feed_private_id  bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  space_private_id bigint  NOT NULL REFERENCES spaces (space_private_id),
  feed_id          text    COLLATE "C" NOT NULL,
  feed_namespace   text    COLLATE "C",
  block_count      bigint  NOT NULL DEFAULT 0,
  CONSTRAINT feeds_space_feed_unique UNIQUE (space_private_id, feed_id)
)
;
CREATE INDEX feeds_namespace ON feeds (space_private_id, feed_namespace)
;
-- Every block of an authority has a position, unique in its space (the primary key, which also
-- serves reading a space in position order).
CREATE TABLE blocks (
  space_private_id bigint  NOT NULL,
  position         bigint  NOT NULL,
  feed_private_id  bigint  NOT NULL REFERENCES feeds (feed_private_id),
  sequence         bigint  NOT NULL,
  actor_id         text    COLLATE "C" NOT NULL,
  prev_sequence    bigint,
  prev_actor_id    text    COLLATE "C",
  timestamp        bigint  NOT NULL,
  data             bytea   NOT NULL,
  chain            bigint,
  checksum         integer NOT NULL,
  CONSTRAINT blocks_space_position_unique PRIMARY KEY (space_private_id, position),
  CONSTRAINT blocks_key_unique UNIQUE (feed_private_id, sequence, actor_id),
  CONSTRAINT blocks_position_positive CHECK (position > 0),
  CONSTRAINT blocks_sequence_not_negative CHECK (sequence >= 0),
  CONSTRAINT blocks_predecessor_whole CHECK ((prev_sequence IS NULL) = (prev_actor_id IS NULL))
)
;
-- A feed in position order: its last position (ListFeeds) and its blocks.
CREATE INDEX blocks_feed_position ON blocks (feed_private_id, position)
;
-- Stored scopes, naming their space and feeds by id, so that subscribing stores no space.
CREATE TABLE subscriptions (
  subscription_id  text    COLLATE "C" PRIMARY KEY,
  space_id         text    COLLATE "C" NOT NULL,
  ttl_ms           bigint  NOT NULL,
  expires_at       bigint  NOT NULL,
  feed_ids         text[]  NOT NULL,
  namespaces       text[]  NOT NULL
)
;
CREATE INDEX subscriptions_expiry ON subscriptions (expires_at)
;
-- The unexpired subscriptions of a space are counted when one more is stored (subscriptions-per-space).
CREATE INDEX subscriptions_space_expiry ON subscriptions (space_id, expires_at)
