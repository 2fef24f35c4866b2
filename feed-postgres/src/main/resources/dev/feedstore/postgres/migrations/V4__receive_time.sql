-- Schema version 4: the authority's receive time of each block (received_at, Unix milliseconds of
-- the authority's clock when it gave the block its position), non-decreasing with the position in a
-- space, and the last one handed out in each space (last_received_at), which the next append stamps
-- at or above whichever process makes it.
ALTER TABLE blocks ADD COLUMN received_at bigint
;
-- Blocks stored before this version get their author's timestamp, raised to the highest timestamp
-- before them in the space (so the order stays non-decreasing) and never later than the time of
-- this migration (so that one author's clock far in the future cannot hold every later stamp of the
-- space at its value).
UPDATE blocks SET received_at = stamped.received_at
FROM (
  SELECT space_private_id, position, least(
      max(timestamp) OVER (PARTITION BY space_private_id ORDER BY position ROWS UNBOUNDED PRECEDING),
      (extract(epoch FROM clock_timestamp()) * 1000)::bigint) AS received_at
  FROM blocks
) AS stamped
WHERE blocks.space_private_id = stamped.space_private_id AND blocks.position = stamped.position
;
ALTER TABLE spaces ADD COLUMN last_received_at bigint NOT NULL DEFAULT 0
;
UPDATE spaces SET last_received_at = coalesce(
  (SELECT max(received_at) FROM blocks WHERE blocks.space_private_id = spaces.space_private_id), 0)
;
-- A time resolved to a position, and the age of retention: by space, then receive time.
CREATE INDEX blocks_space_received ON blocks (space_private_id, received_at, position)
