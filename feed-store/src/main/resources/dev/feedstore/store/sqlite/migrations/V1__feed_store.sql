-- Schema version 1 of the feed store. One schema serves the position authority and the replica.
-- Statements are separated by lines that hold only ';'.

-- A space and what the authority keeps about it. Spaces are named once here so that blocks and
-- feeds carry a small integer instead of the space's text.
CREATE TABLE spaces (
  space_private_id INTEGER PRIMARY KEY,
  space_id         TEXT    NOT NULL,
  server_token     TEXT,
  CONSTRAINT spaces_space_id_unique UNIQUE (space_id)
)
;
CREATE TABLE feeds (
  feed_private_id  INTEGER PRIMARY KEY,
  space_private_id INTEGER NOT NULL REFERENCES spaces (space_private_id),
  feed_id          TEXT    NOT NULL,
  feed_namespace   TEXT,
  block_count      INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT feeds_space_feed_unique UNIQUE (space_private_id, feed_id)
)
;
CREATE INDEX feeds_namespace ON feeds (space_private_id, feed_namespace)
;
CREATE TABLE blocks (
  block_private_id INTEGER PRIMARY KEY,
  space_private_id INTEGER NOT NULL,
  feed_private_id  INTEGER NOT NULL REFERENCES feeds (feed_private_id),
  position         INTEGER,
  sequence         INTEGER NOT NULL,
  actor_id         TEXT    NOT NULL,
  prev_sequence    INTEGER,
  prev_actor_id    TEXT,
  timestamp        INTEGER NOT NULL,
  data             BLOB    NOT NULL,
  -- 1 when another store may hold this block's content (it came from the authority, or it was
  -- sent there): its content, predecessor link included, must never change again.
  published        INTEGER NOT NULL DEFAULT 1,
  CONSTRAINT blocks_position_positive CHECK (position IS NULL OR position > 0),
  CONSTRAINT blocks_sequence_not_negative CHECK (sequence >= 0),
  CONSTRAINT blocks_predecessor_whole CHECK ((prev_sequence IS NULL) = (prev_actor_id IS NULL))
)
;
-- The key of a block.
CREATE UNIQUE INDEX blocks_key_unique ON blocks (feed_private_id, sequence, actor_id)
;
-- A feed in position order.
CREATE UNIQUE INDEX blocks_feed_position_unique ON blocks (feed_private_id, position)
;
-- Positions are unique per space; the authority reads a space by position, and a replica finds the
-- block it holds at a position. Unpositioned blocks (NULL) sort first, which serves the push.
CREATE UNIQUE INDEX blocks_space_position_unique ON blocks (space_private_id, position)
;
-- The authority's stored scopes. Feeds are named by id, not by private id, so that a subscription
-- may name a feed that its author has not pushed yet.
CREATE TABLE subscriptions (
  subscription_id  TEXT    PRIMARY KEY,
  space_private_id INTEGER NOT NULL REFERENCES spaces (space_private_id),
  ttl_ms           INTEGER NOT NULL,
  expires_at       INTEGER NOT NULL,
  feed_ids         TEXT    NOT NULL,
  namespaces       TEXT    NOT NULL
)
;
CREATE INDEX subscriptions_expiry ON subscriptions (expires_at)
;
-- A replica's progress per space.
CREATE TABLE sync_state (
  space_private_id INTEGER PRIMARY KEY REFERENCES spaces (space_private_id),
  cursor           INTEGER NOT NULL,
  cursor_feed_id   TEXT,
  cursor_actor_id  TEXT,
  cursor_sequence  INTEGER,
  server_token     TEXT,
  replay_until     INTEGER NOT NULL
)
;
-- A replica's policy per feed ('from' with from_position, or 'latest' until resolved).
CREATE TABLE feed_replication (
  feed_private_id  INTEGER PRIMARY KEY REFERENCES feeds (feed_private_id),
  mode             TEXT    NOT NULL,
  from_position    INTEGER NOT NULL,
  CONSTRAINT feed_replication_mode CHECK (mode IN ('from', 'latest'))
)
;
CREATE TABLE namespace_replication (
  space_private_id INTEGER NOT NULL REFERENCES spaces (space_private_id),
  namespace        TEXT    NOT NULL,
  PRIMARY KEY (space_private_id, namespace)
)
