-- Schema version 13: streams by their feed, so that an append to the streams' space finds at once
-- whether the feeds it writes are the feeds of streams that are over (closed, deleted or expired),
-- which take no new blocks.
CREATE INDEX streams_feed ON streams (space_id, feed_id)
