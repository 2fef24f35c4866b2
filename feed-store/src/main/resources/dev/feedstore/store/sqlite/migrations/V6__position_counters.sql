-- Schema version 6: each space's position counter lives in its row, advanced by the append that
-- hands the positions out, in the same transaction (BlockLog.claimPositions), so that whatever
-- writes to the file takes its positions from the file, never from a process's memory. A space
-- starts from the highest position its blocks hold now; spaces a replica wrote get a counter too,
-- which only an authority moves.
ALTER TABLE spaces ADD COLUMN max_position INTEGER NOT NULL DEFAULT 0
;
UPDATE spaces SET max_position = coalesce(
  (SELECT max(position) FROM blocks WHERE blocks.space_private_id = spaces.space_private_id), 0)
