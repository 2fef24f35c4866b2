-- Schema version 8: Durable Streams. A stream's blocks are an ordinary feed of the server's
-- streams space; these tables hold what only the authority keeps about a stream: its name and
-- configuration, its closure, the last Stream-Seq, its lifecycle, and its idempotent producers.
-- A name deleted and created again gets a new row with the next generation (and a feed of its own).
CREATE TABLE streams (
  stream_private_id INTEGER PRIMARY KEY,
  space_id          TEXT    NOT NULL,
  name              TEXT    NOT NULL,
  generation        INTEGER NOT NULL,
  feed_id           TEXT    NOT NULL,
  content_type      TEXT    NOT NULL,
  created_at        INTEGER NOT NULL,
  -- The sliding time-to-live in seconds, renewed by reads and writes (touched_at), and the
  -- absolute expiry in Unix milliseconds; a stream is checked for expiry when it is used.
  ttl_seconds       INTEGER,
  expires_at        INTEGER,
  touched_at        INTEGER NOT NULL,
  -- A fork holds its source's content up to base_position and its own feed's blocks above it.
  fork_of           INTEGER REFERENCES streams (stream_private_id),
  base_position     INTEGER NOT NULL DEFAULT 0,
  fork_sub_offset   INTEGER NOT NULL DEFAULT 0,
  closed_position   INTEGER,
  closed_by_producer TEXT,
  closed_by_epoch   INTEGER,
  closed_by_seq     INTEGER,
  stream_seq        TEXT,
  state             TEXT    NOT NULL,
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
  stream_private_id INTEGER NOT NULL REFERENCES streams (stream_private_id),
  producer_id       TEXT    NOT NULL,
  epoch             INTEGER NOT NULL,
  last_seq          INTEGER NOT NULL,
  PRIMARY KEY (stream_private_id, producer_id)
)
