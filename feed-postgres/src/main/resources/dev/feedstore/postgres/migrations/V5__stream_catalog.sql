-- Schema version 5: Durable Streams, as the SQLite store keeps them (its version 8). A stream's
-- blocks are an ordinary feed of the server's streams space; these tables hold what only the
-- authority keeps about a stream: its name and configuration, its closure, the last Stream-Seq,
-- its lifecycle, and its idempotent producers. A name deleted and created again gets a new row
-- with the next generation (and a feed of its own). Spaces are named by id, as subscriptions
-- name them, so that creating a stream stores no space before its first block does.
CREATE TABLE streams (
  stream_private_id  bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  space_id           text    COLLATE "C" NOT NULL,
  name               text    COLLATE "C" NOT NULL,
  generation         bigint  NOT NULL,
  feed_id            text    COLLATE "C" NOT NULL,
  content_type       text    NOT NULL,
  created_at         bigint  NOT NULL,
  -- The sliding time-to-live in seconds, renewed by reads and writes (touched_at), and the
  -- absolute expiry in Unix milliseconds; a stream is checked for expiry when it is used.
  ttl_seconds        bigint,
  expires_at         bigint,
  touched_at         bigint  NOT NULL,
  -- A fork holds its source's content up to base_position and its own feed's blocks above it.
  fork_of            bigint  REFERENCES streams (stream_private_id),
  base_position      bigint  NOT NULL DEFAULT 0,
  fork_sub_offset    bigint  NOT NULL DEFAULT 0,
  closed_position    bigint,
  closed_by_producer text    COLLATE "C",
  closed_by_epoch    bigint,
  closed_by_seq      bigint,
  stream_seq         text    COLLATE "C",
  state              text    NOT NULL,
  CONSTRAINT streams_state CHECK (state IN ('live', 'deleted', 'gone')),
  CONSTRAINT streams_generation_unique UNIQUE (space_id, name, generation)
)
;
-- One stream of a name at a time is not gone.
CREATE UNIQUE INDEX streams_name_unique ON streams (space_id, name) WHERE state <> 'gone'
;
CREATE INDEX streams_forks ON streams (fork_of) WHERE fork_of IS NOT NULL
;
CREATE TABLE stream_producers (
  stream_private_id  bigint  NOT NULL REFERENCES streams (stream_private_id),
  producer_id        text    COLLATE "C" NOT NULL,
  epoch              bigint  NOT NULL,
  last_seq           bigint  NOT NULL,
  CONSTRAINT stream_producers_key PRIMARY KEY (stream_private_id, producer_id)
)
