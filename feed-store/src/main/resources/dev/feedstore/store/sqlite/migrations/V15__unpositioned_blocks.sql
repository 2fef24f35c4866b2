-- Schema version 15: an index of each feed's blocks that have no position yet, in key order, so that
-- a replica finds the last block it wrote to a feed, and lists what it has not pushed, without
-- sorting every block still waiting to be pushed. Blocks with a position (all of an authority's)
-- are not in it.
CREATE INDEX blocks_feed_unpositioned ON blocks (feed_private_id, sequence, actor_id) WHERE position IS NULL
