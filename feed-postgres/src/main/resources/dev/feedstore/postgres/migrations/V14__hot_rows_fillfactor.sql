-- Schema version 14: room on the pages of the rows every append updates. A space's row (its
-- counter of positions) and a feed's row (its count of blocks) are updated by each append to them,
-- each update leaving the row's last version dead on its page. PostgreSQL prunes a page of dead
-- versions only when its free space falls below what its fill factor leaves (a tenth of a page at
-- the default of 100), so on a full page the chain of versions each update and each lookup of a busy
-- row walks grows long before it is pruned. Filled to half, a page is pruned while it still has half
-- its room, and its busy rows' chains stay short. New pages are filled to half; pages already full
-- are pruned at half as well.
ALTER TABLE spaces SET (fillfactor = 50);
ALTER TABLE feeds SET (fillfactor = 50);
