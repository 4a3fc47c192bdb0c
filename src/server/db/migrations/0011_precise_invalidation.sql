-- Precise invalidation of the read caches (src/server/cache/read-caches.ts). Migration 0008
-- announced only a table's name, and every instance then emptied everything built from that table: a
-- new listing on one campus emptied every item page and profile of every campus. Now each change
-- announces what it touches, as space-separated tags on the channel campusloop_cache, when the writing
-- transaction commits, whoever wrote it:
--   item:<id>       an item's public page          profile:<id>  what a profile lists (items, badges,
--   list:<campus>   the lists of one campus                        reviews, how many are available)
--   user:<id>       every answer showing the person (their profile, their items' pages, their reviews)
--   lists           every list (an owner's name or suspension shows on every card of theirs)
--   session:<id>    a person's remembered sign-ins             unread:<id>  a person's unread polls
--   unread          everyone's unread polls                    all          everything
-- Statement triggers with transition tables: one announcement per statement, whatever its size, and
-- PostgreSQL folds identical ones in a transaction into one.
DROP TRIGGER items_cache ON items;--> statement-breakpoint
DROP TRIGGER reservations_cache ON reservations;--> statement-breakpoint
DROP TRIGGER users_cache ON users;--> statement-breakpoint
DROP TRIGGER reviews_cache ON reviews;--> statement-breakpoint
DROP TRIGGER user_badges_cache ON user_badges;--> statement-breakpoint
DROP TRIGGER sessions_cache ON sessions;--> statement-breakpoint
DROP TRIGGER notifications_cache ON notifications;--> statement-breakpoint
DROP TRIGGER messages_cache ON messages;--> statement-breakpoint
DROP TRIGGER conversations_cache ON conversations;--> statement-breakpoint
DROP FUNCTION campusloop_table_changed();--> statement-breakpoint

-- A NOTIFY payload must stay under 8,000 bytes: a bulk change too big to name empties everything.
CREATE FUNCTION campusloop_announce(tags text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  payload text;
BEGIN
  SELECT string_agg(DISTINCT tag, ' ') INTO payload FROM unnest(tags) AS tag WHERE tag IS NOT NULL;
  IF payload IS NULL THEN
    RETURN;
  END IF;
  IF length(payload) > 7900 THEN
    payload := 'all';
  END IF;
  PERFORM pg_notify('campusloop_cache', payload);
END
$$;
--> statement-breakpoint

-- TRUNCATE has no rows to name.
CREATE FUNCTION campusloop_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('campusloop_cache', 'all');
  RETURN NULL;
END
$$;
--> statement-breakpoint

-- An item's page, its owner's profile (their items), and its campus's lists. PL/pgSQL plans a
-- statement when it first runs it, so each branch names only the transition tables its event has.
CREATE FUNCTION campusloop_items_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus]) FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus])
      FROM (SELECT id, user_id, campus FROM old_rows UNION SELECT id, user_id, campus FROM new_rows) AS changed));
  ELSE
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus]) FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER items_cache_insert AFTER INSERT ON items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_items_changed();--> statement-breakpoint
CREATE TRIGGER items_cache_update AFTER UPDATE ON items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_items_changed();--> statement-breakpoint
CREATE TRIGGER items_cache_delete AFTER DELETE ON items REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_items_changed();--> statement-breakpoint
CREATE TRIGGER items_cache_truncate AFTER TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_truncated();--> statement-breakpoint

-- A booking shows in the catalogue only through availability: an item out with its borrower (active)
-- is not "available now" in its campus's lists, nor in its owner's count. Requests, approvals,
-- declines and payments change nothing anyone else reads there.
CREATE FUNCTION campusloop_reservations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['list:' || i.campus, 'profile:' || i.user_id])
      FROM new_rows r JOIN items i ON i.id = r.item_id WHERE r.status = 'active'));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['list:' || i.campus, 'profile:' || i.user_id])
      FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN items i ON i.id IN (o.item_id, n.item_id)
      WHERE (o.status = 'active') IS DISTINCT FROM (n.status = 'active') OR (n.status = 'active' AND o.item_id <> n.item_id)));
  ELSE
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['list:' || i.campus, 'profile:' || i.user_id])
      FROM old_rows r JOIN items i ON i.id = r.item_id WHERE r.status = 'active'));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER reservations_cache_insert AFTER INSERT ON reservations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_reservations_changed();--> statement-breakpoint
CREATE TRIGGER reservations_cache_update AFTER UPDATE ON reservations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_reservations_changed();--> statement-breakpoint
CREATE TRIGGER reservations_cache_delete AFTER DELETE ON reservations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_reservations_changed();--> statement-breakpoint
CREATE TRIGGER reservations_cache_truncate AFTER TRUNCATE ON reservations
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_truncated();--> statement-breakpoint

-- A person: their remembered sign-ins always; their profile and every list (their name and photo
-- are on their items' cards, a suspension hides them) only when something others see changed. The
-- private columns are left out of the comparison, so a new column counts as public until said not.
CREATE FUNCTION campusloop_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- Someone may have asked for this profile before it existed: "not found" was remembered.
    PERFORM campusloop_announce(ARRAY(SELECT 'user:' || id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(CASE
        WHEN to_jsonb(o) - '{password_hash,stripe_customer_id,email,updated_at}'::text[]
          IS DISTINCT FROM to_jsonb(n) - '{password_hash,stripe_customer_id,email,updated_at}'::text[]
        THEN ARRAY['session:' || n.id, 'user:' || n.id, 'lists']
        ELSE ARRAY['session:' || n.id] END)
      FROM old_rows o JOIN new_rows n ON n.id = o.id));
  ELSE
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['session:' || id, 'user:' || id, 'lists']) FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_cache_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_users_changed();--> statement-breakpoint
CREATE TRIGGER users_cache_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_users_changed();--> statement-breakpoint
CREATE TRIGGER users_cache_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_users_changed();--> statement-breakpoint
CREATE TRIGGER users_cache_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_truncated();--> statement-breakpoint

-- A review shows on its item's page and on the profile of the person it is about; the second review of
-- a booking also reveals the first, which is about its writer: their profile changes too.
CREATE FUNCTION campusloop_reviews_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A review about a borrower names no item; its booking does, and the item's page shows the pair.
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || coalesce(v.item_id, r.item_id), 'profile:' || v.reviewee_id, 'profile:' || v.reviewer_id])
      FROM new_rows v LEFT JOIN reservations r ON r.id = v.reservation_id));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || coalesce(v.item_id, r.item_id), 'profile:' || v.reviewee_id, 'profile:' || v.reviewer_id])
      FROM (SELECT item_id, reservation_id, reviewee_id, reviewer_id FROM old_rows
            UNION SELECT item_id, reservation_id, reviewee_id, reviewer_id FROM new_rows) AS v
      LEFT JOIN reservations r ON r.id = v.reservation_id));
  ELSE
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || coalesce(v.item_id, r.item_id), 'profile:' || v.reviewee_id, 'profile:' || v.reviewer_id])
      FROM old_rows v LEFT JOIN reservations r ON r.id = v.reservation_id));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER reviews_cache_insert AFTER INSERT ON reviews REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_reviews_changed();--> statement-breakpoint
CREATE TRIGGER reviews_cache_update AFTER UPDATE ON reviews REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_reviews_changed();--> statement-breakpoint
CREATE TRIGGER reviews_cache_delete AFTER DELETE ON reviews REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_reviews_changed();--> statement-breakpoint
CREATE TRIGGER reviews_cache_truncate AFTER TRUNCATE ON reviews
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_truncated();--> statement-breakpoint

-- Badges show on their holder's profile.
CREATE FUNCTION campusloop_badges_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(SELECT 'profile:' || user_id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT 'profile:' || user_id FROM (SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows) AS changed));
  ELSE
    PERFORM campusloop_announce(ARRAY(SELECT 'profile:' || user_id FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER user_badges_cache_insert AFTER INSERT ON user_badges REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_badges_changed();--> statement-breakpoint
CREATE TRIGGER user_badges_cache_update AFTER UPDATE ON user_badges
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_badges_changed();--> statement-breakpoint
CREATE TRIGGER user_badges_cache_delete AFTER DELETE ON user_badges REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_badges_changed();--> statement-breakpoint
CREATE TRIGGER user_badges_cache_truncate AFTER TRUNCATE ON user_badges
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_truncated();--> statement-breakpoint

-- A new session is never in a cache (its token was just made); an ended or renewed one must leave it.
CREATE FUNCTION campusloop_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM campusloop_announce(ARRAY(SELECT 'session:' || user_id FROM old_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_cache_update AFTER UPDATE ON sessions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_sessions_changed();--> statement-breakpoint
CREATE TRIGGER sessions_cache_delete AFTER DELETE ON sessions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_sessions_changed();--> statement-breakpoint
CREATE TRIGGER sessions_cache_truncate AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_truncated();--> statement-breakpoint

-- New rows and read marks reach the unread caches person by person through the live events (0006);
-- deletions have no live event. A notification names its person; a conversation its two; messages go
-- with their conversation or their sender's account, rarely: everyone's unread polls are emptied.
CREATE FUNCTION campusloop_notifications_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM campusloop_announce(ARRAY(SELECT 'unread:' || user_id FROM old_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER notifications_cache_delete AFTER DELETE ON notifications REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_notifications_deleted();--> statement-breakpoint
CREATE TRIGGER notifications_cache_truncate AFTER TRUNCATE ON notifications
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_truncated();--> statement-breakpoint
CREATE FUNCTION campusloop_conversations_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM campusloop_announce(ARRAY(
    SELECT unnest(ARRAY['unread:' || buyer_id, 'unread:' || seller_id]) FROM old_rows));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER conversations_cache_delete AFTER DELETE ON conversations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_conversations_deleted();--> statement-breakpoint
CREATE TRIGGER conversations_cache_truncate AFTER TRUNCATE ON conversations
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_truncated();--> statement-breakpoint
CREATE FUNCTION campusloop_messages_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM old_rows) THEN
    PERFORM pg_notify('campusloop_cache', 'unread');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER messages_cache_delete AFTER DELETE ON messages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_messages_deleted();--> statement-breakpoint
CREATE TRIGGER messages_cache_truncate AFTER TRUNCATE ON messages
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_truncated();
