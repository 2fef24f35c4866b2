-- Schema version 2: a space's floor, what retention removed from it (every block at or below
-- floor_position is gone), in the space's row so that every process sees it, with the key and
-- history chain of the block that was at the floor (a cursor there is still checked).
ALTER TABLE spaces ADD COLUMN floor_position bigint NOT NULL DEFAULT 0
;
ALTER TABLE spaces ADD COLUMN floor_feed_id text COLLATE "C"
;
ALTER TABLE spaces ADD COLUMN floor_actor_id text COLLATE "C"
;
ALTER TABLE spaces ADD COLUMN floor_sequence bigint
;
ALTER TABLE spaces ADD COLUMN floor_chain bigint
;
-- The space's own retention, set by an administrator (NULL: the server's default; 0: keep all).
ALTER TABLE spaces ADD COLUMN retain_blocks bigint
;
ALTER TABLE spaces ADD COLUMN retain_age_ms bigint
;
ALTER TABLE spaces ADD COLUMN retain_bytes bigint
