-- Schema version 2: the authority's history chain (dev.feedstore.core.HistoryChain) at each
-- position it hands out, and the chain a replica recorded at its cursor. Rows of version 1 have
-- none (NULL: unknown), which disables the check that needs them.
ALTER TABLE blocks ADD COLUMN chain INTEGER
;
ALTER TABLE sync_state ADD COLUMN cursor_chain INTEGER
