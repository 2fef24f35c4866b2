-- Schema version 12: each space's commit notices go to a channel of its own, p_channel followed by
-- the md5 of the space id (an id is ASCII: feedstore_ and 32 hex digits; CommitChannel#channelOf
-- makes the same name in Java), where they all went to one channel before, so that a process
-- listens only to the spaces it holds and is not woken by commits in the others. p_channel is now
-- that prefix. The function is otherwise version 11's: its text is taken from the database and only
-- the channel of its one pg_notify changed, and the step fails if that call is not found.
DO $migration$
DECLARE
  v_old text := pg_get_functiondef('feedstore_append(text[], bigint[], text, text[], integer[], text[], text[], integer[], integer[], bigint[], text[], bigint[], text[], bigint[], bytea[], bytea[], integer[], bigint)'::regprocedure);
  v_new text := replace(v_old, 'pg_notify(p_channel, ',
      'pg_notify(p_channel || md5(p_spaces[v_space]), ');
BEGIN
  IF v_new = v_old THEN
    RAISE EXCEPTION 'feedstore_append has no pg_notify(p_channel, ...) to send on the space''s channel';
  END IF;
  EXECUTE v_new;
END
$migration$;
