-- hand-written:
-- A person's unread notices are remembered until something announces a change to them: a new notice
-- or a read mark (live events, 0006), a deletion (0011). A notice could also change with its read mark
-- left as it was: a saved search's batch reworded while still unread ("3 new listings" becoming 4), or
-- the name of a person who left taken out of it. Those now announce `unread:<person>` too, so the
-- remembered answers need no time limit to catch them.
CREATE FUNCTION campusloop_notifications_reworded() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM campusloop_announce(ARRAY(
    SELECT DISTINCT 'unread:' || n.user_id
    FROM changed n JOIN previous o ON o.id = n.id
    -- A changed read mark has its live event already.
    WHERE n.is_read IS NOT DISTINCT FROM o.is_read AND to_jsonb(n) IS DISTINCT FROM to_jsonb(o)
  ));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER notifications_cache_update AFTER UPDATE ON notifications
  REFERENCING OLD TABLE AS previous NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_notifications_reworded();
