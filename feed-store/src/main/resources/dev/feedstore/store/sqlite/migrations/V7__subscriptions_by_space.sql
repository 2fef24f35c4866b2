-- Schema version 7: a space's unexpired subscriptions are counted when one more is stored (the
-- subscriptions-per-space limit), which this index answers without reading other spaces' rows.
CREATE INDEX subscriptions_space_expiry ON subscriptions (space_id, expires_at)
