-- Schema version 11: feedstore_append_all_new, feedstore_append (version 10) for an append group that
-- commits in the same round trip as its call (the statement alone, in auto-commit): the same
-- arguments and rows, and then, for each space, whether the group may commit without the caller's
-- look at the rows. It raises feedstore_not_all_new (SQLSTATE FS001), which rolls the whole call
-- back, when a space held a key already (o_held is not -1) or when the feeds the call created
-- take a space beyond p_feeds_limit; the caller then runs the group in a transaction of its own,
-- which tells each append's failure apart.
CREATE FUNCTION feedstore_append_all_new(p_spaces text[], p_now bigint[], p_channel text, p_senders text[],
    p_feed_counts integer[], p_feed_ids text[], p_feed_namespaces text[], p_block_counts integer[],
    p_block_feeds integer[], p_sequences bigint[], p_actors text[], p_prev_sequences bigint[],
    p_prev_actors text[], p_timestamps bigint[], p_data bytea[], p_heads bytea[], p_checksums integer[],
    p_feeds_limit bigint)
  RETURNS TABLE (o_before bigint, o_received_at bigint, o_feeds_before bigint, o_namespaces text[],
    o_created boolean[], o_chains bigint[], o_held integer)
  LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
  v_row record;
BEGIN
  FOR v_row IN SELECT * FROM feedstore_append(p_spaces, p_now, p_channel, p_senders, p_feed_counts, p_feed_ids,
      p_feed_namespaces, p_block_counts, p_block_feeds, p_sequences, p_actors, p_prev_sequences, p_prev_actors,
      p_timestamps, p_data, p_heads, p_checksums) LOOP
    IF v_row.o_held IS DISTINCT FROM -1 OR (v_row.o_feeds_before IS NOT NULL AND v_row.o_feeds_before
        + (SELECT count(*) FROM unnest(v_row.o_created) AS made WHERE made) > p_feeds_limit) THEN
      RAISE EXCEPTION 'feedstore_not_all_new' USING ERRCODE = 'FS001';
    END IF;
    o_before := v_row.o_before;
    o_received_at := v_row.o_received_at;
    o_feeds_before := v_row.o_feeds_before;
    o_namespaces := v_row.o_namespaces;
    o_created := v_row.o_created;
    o_chains := v_row.o_chains;
    o_held := v_row.o_held;
    RETURN NEXT;
  END LOOP;
END
$$
