-- Schema version 10: durable subscriptions. A durable one keeps its acknowledged position (every
-- block at or below it is processed) and may have a name chosen by its client, unique in its
-- space. Its expires_at moves only when it is acknowledged (ttl_ms holds its ack_within_ms).
-- Existing subscriptions are not durable.
ALTER TABLE subscriptions ADD COLUMN durable INTEGER NOT NULL DEFAULT 0
;
ALTER TABLE subscriptions ADD COLUMN acked INTEGER NOT NULL DEFAULT 0
;
ALTER TABLE subscriptions ADD COLUMN name TEXT
;
CREATE UNIQUE INDEX subscriptions_name ON subscriptions (space_id, name) WHERE name IS NOT NULL
;
-- The hold of a space's live durable subscriptions (their lowest acknowledged position).
CREATE INDEX subscriptions_durable ON subscriptions (space_id, acked) WHERE durable = 1
