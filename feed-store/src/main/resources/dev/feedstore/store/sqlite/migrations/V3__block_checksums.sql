-- Schema version 3: a checksum of each block's key and content (CRC32C, see BlockChecksum), written
-- with the block and verified whenever it is read, so that bytes changed on the disk are reported
-- instead of served. Blocks of older versions get theirs here, computed from what they hold now.
ALTER TABLE blocks ADD COLUMN checksum INTEGER
;
UPDATE blocks SET checksum = feedstore_block_checksum(
  (SELECT f.feed_id FROM feeds f WHERE f.feed_private_id = blocks.feed_private_id),
  actor_id, sequence, prev_actor_id, prev_sequence, timestamp, data)
;
-- Blocks found corrupt and moved out of the log (BlockLog.setAside), kept as they were found. No
-- constraints: the values are the corrupt ones.
CREATE TABLE set_aside_blocks (
  set_aside_id     INTEGER PRIMARY KEY,
  space_private_id INTEGER,
  feed_private_id  INTEGER,
  position         INTEGER,
  sequence         INTEGER,
  actor_id         TEXT,
  prev_sequence    INTEGER,
  prev_actor_id    TEXT,
  timestamp        INTEGER,
  data             BLOB,
  published        INTEGER,
  chain            INTEGER,
  checksum         INTEGER
)
