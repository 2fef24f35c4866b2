-- Schema version 13: feedstore_append (version 11, with version 12's channel per space) restated
-- whole, with the call of one feed, the common one, looking its feed up and counting its blocks by
-- key. PostgreSQL keeps one plan for each statement of a function once it has run a few times, made
-- without the arrays' lengths; for the statements that join the feeds to an array of feed ids, that
-- plan read every feed of the space (the lookup) or of the table (the count's update) while the
-- tables were small, so an append's cost grew with the feeds stored, and a feed appended to many
-- times a second made the table's scan walk its row's many dead versions (some 100 us of one
-- block's append). An equality on the feed's key is an index lookup in any plan. Several feeds still
-- go through the arrays, where planning for the call's own lengths pays.
CREATE OR REPLACE FUNCTION feedstore_append(p_spaces text[], p_now bigint[], p_channel text, p_senders text[],
    p_feed_counts integer[], p_feed_ids text[], p_feed_namespaces text[], p_block_counts integer[],
    p_block_feeds integer[], p_sequences bigint[], p_actors text[], p_prev_sequences bigint[],
    p_prev_actors text[], p_timestamps bigint[], p_data bytea[], p_heads bytea[], p_checksums integer[],
    p_feeds_limit bigint)
  RETURNS TABLE (o_before bigint, o_received_at bigint, o_feeds_before bigint, o_namespaces text[],
    o_created boolean[], o_chains bigint[], o_held integer)
  LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
  v_space integer;
  v_feed_from integer := 0;
  v_block_from integer := 0;
  v_feeds integer;
  v_count integer;
  v_id bigint;
  v_highest bigint;
  v_before bigint;
  v_stamp bigint;
  v_feed_count bigint;
  v_made text[];
  v_made_count integer;
  v_ids bigint[];
  v_chain bigint;
  v_known boolean;
  v_chains bigint[];
  v_stored integer;
  v_i integer;
BEGIN
  FOR v_space IN 1 .. coalesce(array_length(p_spaces, 1), 0) LOOP
    v_feeds := p_feed_counts[v_space];
    v_count := p_block_counts[v_space];

    UPDATE spaces SET max_position = max_position + v_count,
        last_received_at = greatest(last_received_at, p_now[v_space])
      WHERE space_id = p_spaces[v_space]
      RETURNING space_private_id, max_position, last_received_at, feed_count
      INTO v_id, v_highest, v_stamp, v_feed_count;
    IF NOT FOUND THEN
      -- Another process may store the space first: then the update finds its row.
      INSERT INTO spaces (space_id) VALUES (p_spaces[v_space]) ON CONFLICT DO NOTHING;
      UPDATE spaces SET max_position = max_position + v_count,
          last_received_at = greatest(last_received_at, p_now[v_space])
        WHERE space_id = p_spaces[v_space]
        RETURNING space_private_id, max_position, last_received_at, feed_count
        INTO STRICT v_id, v_highest, v_stamp, v_feed_count;
    END IF;
    v_before := v_highest - v_count;
    IF v_count > 0 THEN
      PERFORM pg_notify(p_channel || md5(p_spaces[v_space]), p_senders[v_space] || v_highest::text);
    END IF;

    -- The feeds as stored; created only when some are missing, so that the common call runs no insert.
    -- One feed (the common call) is looked up by its key: a plan kept for the statement that joins
    -- the array may read every feed of the space, or of the table, where the table is small.
    IF v_feeds = 1 THEN
      SELECT ARRAY[f.feed_private_id], ARRAY[f.feed_namespace], ARRAY[false]
        INTO v_ids, o_namespaces, o_created
        FROM feeds f WHERE f.space_private_id = v_id AND f.feed_id = p_feed_ids[v_feed_from + 1];
    ELSE
      SELECT array_agg(f.feed_private_id ORDER BY t.i), array_agg(f.feed_namespace ORDER BY t.i),
          array_agg(false ORDER BY t.i)
        INTO v_ids, o_namespaces, o_created
        FROM unnest(p_feed_ids[v_feed_from + 1 : v_feed_from + v_feeds]) WITH ORDINALITY AS t(feed_id, i)
        JOIN feeds f ON f.space_private_id = v_id AND f.feed_id = t.feed_id;
    END IF;
    v_made_count := 0;
    IF coalesce(array_length(v_ids, 1), 0) <> v_feeds THEN
      WITH made AS (
        INSERT INTO feeds (space_private_id, feed_id, feed_namespace)
          SELECT v_id, t.feed_id, t.feed_namespace
          FROM unnest(p_feed_ids[v_feed_from + 1 : v_feed_from + v_feeds],
              p_feed_namespaces[v_feed_from + 1 : v_feed_from + v_feeds]) WITH ORDINALITY AS t(feed_id, feed_namespace, i)
          WHERE NOT EXISTS (SELECT 1 FROM feeds f WHERE f.space_private_id = v_id AND f.feed_id = t.feed_id)
          ORDER BY t.i
          ON CONFLICT DO NOTHING
          RETURNING feeds.feed_id)
      SELECT array_agg(made.feed_id) INTO v_made FROM made;
      v_made_count := coalesce(array_length(v_made, 1), 0);
      IF v_made_count > 0 THEN
        IF p_feeds_limit IS NOT NULL AND v_feed_count + v_made_count > p_feeds_limit THEN
          RAISE EXCEPTION 'feedstore_not_all_new' USING ERRCODE = 'FS001';
        END IF;
        UPDATE spaces SET feed_count = feed_count + v_made_count WHERE space_private_id = v_id;
      END IF;
      SELECT array_agg(f.feed_private_id ORDER BY t.i), array_agg(f.feed_namespace ORDER BY t.i),
          array_agg(coalesce(f.feed_id = ANY (v_made), false) ORDER BY t.i)
        INTO v_ids, o_namespaces, o_created
        FROM unnest(p_feed_ids[v_feed_from + 1 : v_feed_from + v_feeds]) WITH ORDINALITY AS t(feed_id, i)
        JOIN feeds f ON f.space_private_id = v_id AND f.feed_id = t.feed_id;
      IF coalesce(array_length(v_ids, 1), 0) <> v_feeds THEN
        RAISE EXCEPTION 'feeds of space % were neither stored nor found', p_spaces[v_space];
      END IF;
    END IF;

    IF v_before = 0 THEN
      v_chain := 0;
      v_known := true;
    ELSE
      SELECT b.chain INTO v_chain FROM blocks b WHERE b.space_private_id = v_id AND b.position = v_before;
      IF FOUND THEN
        v_known := v_chain IS NOT NULL;
      ELSE
        -- Retention removed the block there; its link is kept with the floor.
        SELECT s.floor_chain INTO v_chain FROM spaces s WHERE s.space_private_id = v_id AND s.floor_position = v_before;
        v_known := FOUND AND v_chain IS NOT NULL;
      END IF;
    END IF;
    v_chains := NULL;
    IF v_known THEN
      v_chains := array_fill(0::bigint, ARRAY[v_count]);
      FOR v_i IN 1 .. v_count LOOP
        v_chain := ('x' || encode(substr(sha256(int8send(v_chain) || p_heads[v_block_from + v_i]
            || '\x01'::bytea || int8send(v_stamp) || p_data[v_block_from + v_i]), 1, 8), 'hex'))::bit(64)::bigint;
        v_chains[v_i] := v_chain;
      END LOOP;
    END IF;

    WITH stored AS (
      INSERT INTO blocks (space_private_id, position, feed_private_id, sequence, actor_id, prev_sequence,
          prev_actor_id, timestamp, data, chain, checksum, received_at)
        SELECT v_id, v_before + t.i, v_ids[t.feed], t.sequence, t.actor_id, t.prev_sequence, t.prev_actor_id,
            t.ts, t.data, v_chains[t.i], t.checksum, v_stamp
        FROM unnest(p_block_feeds[v_block_from + 1 : v_block_from + v_count],
            p_sequences[v_block_from + 1 : v_block_from + v_count],
            p_actors[v_block_from + 1 : v_block_from + v_count],
            p_prev_sequences[v_block_from + 1 : v_block_from + v_count],
            p_prev_actors[v_block_from + 1 : v_block_from + v_count],
            p_timestamps[v_block_from + 1 : v_block_from + v_count],
            p_data[v_block_from + 1 : v_block_from + v_count],
            p_checksums[v_block_from + 1 : v_block_from + v_count])
          WITH ORDINALITY AS t(feed, sequence, actor_id, prev_sequence, prev_actor_id, ts, data, checksum, i)
        ON CONFLICT DO NOTHING
        RETURNING blocks.position)
    SELECT count(*) INTO v_stored FROM stored;

    o_held := -1;
    IF v_stored < v_count AND p_feeds_limit IS NOT NULL THEN
      RAISE EXCEPTION 'feedstore_not_all_new' USING ERRCODE = 'FS001';
    ELSIF v_stored < v_count THEN
      -- The first block whose position does not hold it now: its key, or its position, was held.
      SELECT min(t.i) - 1 INTO o_held
        FROM unnest(p_block_feeds[v_block_from + 1 : v_block_from + v_count],
            p_sequences[v_block_from + 1 : v_block_from + v_count],
            p_actors[v_block_from + 1 : v_block_from + v_count]) WITH ORDINALITY AS t(feed, sequence, actor_id, i)
        WHERE NOT EXISTS (SELECT 1 FROM blocks b WHERE b.space_private_id = v_id AND b.position = v_before + t.i
            AND b.feed_private_id = v_ids[t.feed] AND b.sequence = t.sequence AND b.actor_id = t.actor_id);
    ELSIF v_feeds = 1 THEN
      UPDATE feeds SET block_count = block_count + v_count WHERE feed_private_id = v_ids[1];
    ELSE
      UPDATE feeds SET block_count = block_count + c.added
        FROM (SELECT v_ids[t.feed] AS feed_private_id, count(*) AS added
            FROM unnest(p_block_feeds[v_block_from + 1 : v_block_from + v_count]) AS t(feed) GROUP BY 1) c
        WHERE feeds.feed_private_id = c.feed_private_id;
    END IF;

    o_before := v_before;
    o_received_at := v_stamp;
    o_feeds_before := CASE WHEN v_made_count > 0 THEN v_feed_count ELSE NULL END;
    o_chains := v_chains;
    RETURN NEXT;
    v_feed_from := v_feed_from + v_feeds;
    v_block_from := v_block_from + v_count;
  END LOOP;
END
$$
