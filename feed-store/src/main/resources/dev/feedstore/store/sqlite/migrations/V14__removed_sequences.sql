-- Schema version 14: the highest sequence retention removed from each feed (NULL when it removed
-- none), so that the sequences the authority gives a feed's next blocks (a Durable Stream's appends)
-- never go back to the key of a removed block, which replicas may still hold.
ALTER TABLE feeds ADD COLUMN removed_max_sequence INTEGER
;
-- Compactions before this version did not record the sequences they removed. Where a feed's authors
-- followed its sequence rule (one more than the highest block they held, which the authority's own
-- appends always do), each block's sequence is below its position, so one less than the highest
-- position the feed lost bounds them.
UPDATE feeds SET removed_max_sequence = removed_up_to - 1 WHERE removed_up_to > 0
