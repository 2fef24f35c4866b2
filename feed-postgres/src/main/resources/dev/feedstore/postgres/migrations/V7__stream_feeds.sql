-- Schema version 7: streams by their feed, as the SQLite store keeps them (its version 13), so that
-- an append to the streams' space finds at once whether the feeds it writes are the feeds of streams
-- that are over (closed, deleted or expired), which take no new blocks.
CREATE INDEX streams_feed ON streams (space_id, feed_id)
