-- A suspended person's live sockets close at once, on every server instance: suspending sets
-- users.suspended_at in the moderator's transaction, and this trigger announces it on the live channel
-- (migration 0006) when that transaction commits. The socket handler closes with 4401 on it.
CREATE FUNCTION campusloop_user_suspended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM campusloop_publish(ARRAY[NEW.id], jsonb_build_object('type', 'sessionEnded'));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_live_suspended AFTER UPDATE OF suspended_at ON users
  FOR EACH ROW WHEN (OLD.suspended_at IS NULL AND NEW.suspended_at IS NOT NULL)
  EXECUTE FUNCTION campusloop_user_suspended();
