-- Schema version 9: a space's floor, what retention removed from it (every block at or below
-- floor_position is gone), stored in the space's row so that every process using the file sees it,
-- with the key and history chain of the block that was at the floor (a cursor there is still checked).
ALTER TABLE spaces ADD COLUMN floor_position INTEGER NOT NULL DEFAULT 0
;
ALTER TABLE spaces ADD COLUMN floor_feed_id TEXT
;
ALTER TABLE spaces ADD COLUMN floor_actor_id TEXT
;
ALTER TABLE spaces ADD COLUMN floor_sequence INTEGER
;
ALTER TABLE spaces ADD COLUMN floor_chain INTEGER
;
-- The space's own retention, set by an administrator (NULL: the server's default; 0: keep all).
ALTER TABLE spaces ADD COLUMN retain_blocks INTEGER
;
ALTER TABLE spaces ADD COLUMN retain_age_ms INTEGER
;
ALTER TABLE spaces ADD COLUMN retain_bytes INTEGER
