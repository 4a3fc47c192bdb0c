-- Nothing new is written in the name of an account that was deleted or suspended (decision 037). A
-- request that passed the session check just before its person deleted their account used to insert
-- its listing, request or message after the deletion had cleaned up (the foreign key's lock only waits
-- for the deletion, then finds the row still there). Every table whose rows a person creates checks
-- its author here, inside the creating transaction, holding the author's row FOR SHARE: the deletion's
-- FOR UPDATE and the suspension's UPDATE wait for creations already under way (and then see and clean
-- their rows), and a creation that comes after either waits for it and is refused.
-- CLGON and CLSUS are our own SQLSTATEs: the API answers them 401 and 403 (src/server/db/account-gone.ts).
CREATE FUNCTION campusloop_author_present() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  author uuid := (to_jsonb(NEW) ->> TG_ARGV[0])::uuid;
  gone timestamptz;
  suspended timestamptz;
BEGIN
  IF author IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT deleted_at, suspended_at INTO gone, suspended FROM users WHERE id = author FOR SHARE;
  IF NOT FOUND OR gone IS NOT NULL THEN
    RAISE EXCEPTION 'the account % was deleted', author USING ERRCODE = 'CLGON';
  END IF;
  IF suspended IS NOT NULL THEN
    RAISE EXCEPTION 'the account % is suspended', author USING ERRCODE = 'CLSUS';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER items_author_present BEFORE INSERT ON items
  FOR EACH ROW EXECUTE FUNCTION campusloop_author_present('user_id');
--> statement-breakpoint
CREATE TRIGGER reservations_author_present BEFORE INSERT ON reservations
  FOR EACH ROW EXECUTE FUNCTION campusloop_author_present('borrower_id');
--> statement-breakpoint
CREATE TRIGGER conversations_author_present BEFORE INSERT ON conversations
  FOR EACH ROW EXECUTE FUNCTION campusloop_author_present('buyer_id');
--> statement-breakpoint
CREATE TRIGGER messages_author_present BEFORE INSERT ON messages
  FOR EACH ROW EXECUTE FUNCTION campusloop_author_present('sender_id');
--> statement-breakpoint
CREATE TRIGGER reviews_author_present BEFORE INSERT ON reviews
  FOR EACH ROW EXECUTE FUNCTION campusloop_author_present('reviewer_id');
--> statement-breakpoint
CREATE TRIGGER reports_author_present BEFORE INSERT ON reports
  FOR EACH ROW EXECUTE FUNCTION campusloop_author_present('reporter_id');
--> statement-breakpoint
CREATE TRIGGER reservation_extensions_author_present BEFORE INSERT ON reservation_extensions
  FOR EACH ROW EXECUTE FUNCTION campusloop_author_present('borrower_id');
--> statement-breakpoint
CREATE TRIGGER waitlist_entries_author_present BEFORE INSERT ON waitlist_entries
  FOR EACH ROW EXECUTE FUNCTION campusloop_author_present('user_id');
--> statement-breakpoint
CREATE TRIGGER reservation_handovers_author_present BEFORE INSERT ON reservation_handovers
  FOR EACH ROW EXECUTE FUNCTION campusloop_author_present('author_id');
--> statement-breakpoint
CREATE TRIGGER saved_payment_methods_author_present BEFORE INSERT ON saved_payment_methods
  FOR EACH ROW EXECUTE FUNCTION campusloop_author_present('user_id');
--> statement-breakpoint
-- The password-reset limit's counters were keyed by the address in clear; they are now keyed by its
-- hash (features/password-reset/reset-limits.ts). The old rows only counted the last hour: forget them.
DELETE FROM rate_limits WHERE key LIKE 'password-reset-account:%@%';
