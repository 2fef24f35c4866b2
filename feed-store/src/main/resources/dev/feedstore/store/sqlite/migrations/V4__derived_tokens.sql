-- Schema version 4: reading a space writes nothing, and each space counts its feeds.
--
-- A secret of this file, made with it (or with this migration), from which the authority derives
-- the server token of a space that has none stored yet (dev.feedstore.core.ServerToken.derive), so
-- that a read reports the token the space keeps once its first block is stored. A copy of the
-- file keeps the secret, and with it every token; a new file has another. Tokens stored before
-- this version keep their values.
CREATE TABLE store_secret (
  secret_id        INTEGER PRIMARY KEY CHECK (secret_id = 1),
  token_key        BLOB    NOT NULL CHECK (length(token_key) = 32)
)
;
INSERT INTO store_secret (secret_id, token_key) VALUES (1, randomblob(32))
;
-- Subscriptions name their space by id, so that subscribing to a space stores no space row.
CREATE TABLE subscriptions_by_space_id (
  subscription_id  TEXT    PRIMARY KEY,
  space_id         TEXT    NOT NULL,
  ttl_ms           INTEGER NOT NULL,
  expires_at       INTEGER NOT NULL,
  feed_ids         TEXT    NOT NULL,
  namespaces       TEXT    NOT NULL
)
;
INSERT INTO subscriptions_by_space_id (subscription_id, space_id, ttl_ms, expires_at, feed_ids, namespaces)
  SELECT s.subscription_id, p.space_id, s.ttl_ms, s.expires_at, s.feed_ids, s.namespaces
  FROM subscriptions s JOIN spaces p ON p.space_private_id = s.space_private_id
;
DROP TABLE subscriptions
;
ALTER TABLE subscriptions_by_space_id RENAME TO subscriptions
;
CREATE INDEX subscriptions_expiry ON subscriptions (expires_at)

;
-- How many feeds each space has, kept by the transactions that create feeds, so that a limit on
-- feeds per space is checked without counting rows.
ALTER TABLE spaces ADD COLUMN feed_count INTEGER NOT NULL DEFAULT 0
;
UPDATE spaces SET feed_count = (SELECT count(*) FROM feeds WHERE feeds.space_private_id = spaces.space_private_id)
