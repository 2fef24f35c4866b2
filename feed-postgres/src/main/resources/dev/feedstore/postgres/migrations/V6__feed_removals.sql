-- Schema version 6: the highest position retention removed from each feed (removed_up_to, 0 when
-- none), as the SQLite store keeps it (its version 12), so that a read of a Durable Stream from an
-- offset knows whether any of the stream's content after it is gone.
ALTER TABLE feeds ADD COLUMN removed_up_to bigint NOT NULL DEFAULT 0
;
-- Compactions before this version did not say which feeds they took blocks from: every feed of a
-- compacted space may have lost blocks up to its floor.
UPDATE feeds f SET removed_up_to = s.floor_position FROM spaces s
  WHERE s.space_private_id = f.space_private_id AND s.floor_position > 0
