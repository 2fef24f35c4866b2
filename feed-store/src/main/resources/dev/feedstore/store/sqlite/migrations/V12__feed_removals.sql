-- Schema version 12: the highest position retention removed from each feed (removed_up_to, 0 when
-- none), so that a read of a Durable Stream from an offset knows whether any of the stream's content
-- after it is gone, and a reader that missed nothing of its stream is not turned away when the space's
-- floor passes its offset.
ALTER TABLE feeds ADD COLUMN removed_up_to INTEGER NOT NULL DEFAULT 0
;
-- Compactions before this version did not say which feeds they took blocks from: every feed of a
-- compacted space may have lost blocks up to its floor.
UPDATE feeds SET removed_up_to = (SELECT s.floor_position FROM spaces s
  WHERE s.space_private_id = feeds.space_private_id)
