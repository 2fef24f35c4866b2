-- Schema version 5: a replica's policy for a whole space: every feed of it, including feeds created
-- later ('from' with from_position, or 'latest' until resolved), as feed_replication is per feed.
CREATE TABLE space_replication (
  space_private_id INTEGER PRIMARY KEY REFERENCES spaces (space_private_id),
  mode             TEXT    NOT NULL,
  from_position    INTEGER NOT NULL,
  CONSTRAINT space_replication_mode CHECK (mode IN ('from', 'latest'))
)
