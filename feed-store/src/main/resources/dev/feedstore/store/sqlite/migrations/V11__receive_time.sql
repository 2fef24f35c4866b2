-- Schema version 11: the authority's receive time of each block (received_at, Unix milliseconds of
-- the authority's clock when it gave the block its position), non-decreasing with the position in a
-- space, and the last one handed out in each space (last_received_at), which the next append stamps
-- at or above. A replica stores the receive times the authority sends with the blocks it pulls.
ALTER TABLE blocks ADD COLUMN received_at INTEGER
;
-- Blocks positioned before this version get their author's timestamp, raised to the highest
-- timestamp before them in the space (so the order stays non-decreasing) and never later than the
-- time of this migration (so that one author's clock far in the future cannot hold every later
-- stamp of the space at its value). Unpositioned blocks have no receive time.
UPDATE blocks SET received_at = stamped.received_at
FROM (
  SELECT block_private_id, min(
      max(timestamp) OVER (PARTITION BY space_private_id ORDER BY position ROWS UNBOUNDED PRECEDING),
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) AS received_at
  FROM blocks WHERE position IS NOT NULL
) AS stamped
WHERE blocks.block_private_id = stamped.block_private_id
;
ALTER TABLE spaces ADD COLUMN last_received_at INTEGER NOT NULL DEFAULT 0
;
UPDATE spaces SET last_received_at = coalesce(
  (SELECT max(received_at) FROM blocks WHERE blocks.space_private_id = spaces.space_private_id), 0)
;
-- A time resolved to a position, and the age of retention: by space, then receive time.
CREATE INDEX blocks_space_received ON blocks (space_private_id, received_at, position)
;
-- A replica's policies may start at a time ('since', with since_millis) until the authority
-- resolves it to a position ('from').
CREATE TABLE feed_replication_v11 (
  feed_private_id  INTEGER PRIMARY KEY REFERENCES feeds (feed_private_id),
  mode             TEXT    NOT NULL,
  from_position    INTEGER NOT NULL,
  since_millis     INTEGER,
  CONSTRAINT feed_replication_mode CHECK (mode IN ('from', 'latest', 'since'))
)
;
INSERT INTO feed_replication_v11 (feed_private_id, mode, from_position)
  SELECT feed_private_id, mode, from_position FROM feed_replication
;
DROP TABLE feed_replication
;
ALTER TABLE feed_replication_v11 RENAME TO feed_replication
;
CREATE TABLE space_replication_v11 (
  space_private_id INTEGER PRIMARY KEY REFERENCES spaces (space_private_id),
  mode             TEXT    NOT NULL,
  from_position    INTEGER NOT NULL,
  since_millis     INTEGER,
  CONSTRAINT space_replication_mode CHECK (mode IN ('from', 'latest', 'since'))
)
;
INSERT INTO space_replication_v11 (space_private_id, mode, from_position)
  SELECT space_private_id, mode, from_position FROM space_replication
;
DROP TABLE space_replication
;
ALTER TABLE space_replication_v11 RENAME TO space_replication
