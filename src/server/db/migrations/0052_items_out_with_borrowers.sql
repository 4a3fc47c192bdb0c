ALTER TABLE "items" ADD COLUMN "out_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- hand-written from here (Drizzle's index builder has no INCLUDE, and triggers are SQL):
-- "Available now" excluded the items out with a borrower by reading every active reservation's item
-- (1,000 on the bench campus) into a set, once for each page and again for each count of Home, Browse
-- and search. Each item now keeps how many of its reservations are active, in the same transaction as
-- the reservation's change: a transition locks the item first (reservations/locking.ts), so the update
-- below takes no lock its writer does not already hold.
UPDATE "items" i SET "out_count" = o.n
FROM (SELECT "item_id", count(*)::int AS n FROM "reservations" WHERE "status" = 'active' GROUP BY "item_id") o
WHERE i."id" = o."item_id";--> statement-breakpoint
CREATE FUNCTION campusloop_items_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE items SET out_count = 0 WHERE out_count <> 0;
  ELSIF TG_OP = 'INSERT' THEN
    UPDATE items i SET out_count = i.out_count + d.n
    FROM (SELECT item_id, count(*)::int AS n FROM new_rows WHERE status = 'active'
          GROUP BY item_id ORDER BY item_id) d
    WHERE i.id = d.item_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE items i SET out_count = i.out_count - d.n
    FROM (SELECT item_id, count(*)::int AS n FROM old_rows WHERE status = 'active'
          GROUP BY item_id ORDER BY item_id) d
    WHERE i.id = d.item_id;
  ELSE
    -- Per item: its active reservations after the statement less those before; most updates change
    -- no reservation into or out of 'active' and write nothing here.
    UPDATE items i SET out_count = i.out_count + d.n
    FROM (SELECT item_id, sum(n)::int AS n FROM (
            SELECT item_id, 1 AS n FROM new_rows WHERE status = 'active'
            UNION ALL
            SELECT item_id, -1 FROM old_rows WHERE status = 'active') c
          GROUP BY item_id HAVING sum(n) <> 0 ORDER BY item_id) d
    WHERE i.id = d.item_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER reservations_out_insert AFTER INSERT ON reservations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_items_out();--> statement-breakpoint
CREATE TRIGGER reservations_out_update AFTER UPDATE ON reservations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_items_out();--> statement-breakpoint
CREATE TRIGGER reservations_out_delete AFTER DELETE ON reservations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_items_out();--> statement-breakpoint
CREATE TRIGGER reservations_out_truncate AFTER TRUNCATE ON reservations
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_items_out();--> statement-breakpoint
-- The lists' covering indexes (migration 0049) carry the count too, so "available now" stays an
-- index-only scan.
DROP INDEX "items_campus_created_idx";--> statement-breakpoint
CREATE INDEX "items_campus_created_idx" ON "items" USING btree ("campus", "created_at" DESC NULLS FIRST, "id" DESC NULLS FIRST)
  INCLUDE ("category", "user_id", "hidden_at", "pickup_method", "rental_price_cents", "is_available", "available_from", "available_until", "available_days", "out_count")
  WHERE "items"."deleted_at" is null;--> statement-breakpoint
DROP INDEX "items_category_created_idx";--> statement-breakpoint
CREATE INDEX "items_category_created_idx" ON "items" USING btree ("category", "created_at" DESC)
  INCLUDE ("id", "campus", "user_id", "hidden_at", "pickup_method", "rental_price_cents", "is_available", "available_from", "available_until", "available_days", "out_count")
  WHERE "items"."deleted_at" is null;--> statement-breakpoint
-- Searches read the count from their copy of the items (migration 0050), kept by the same function
-- as the other copied columns.
ALTER TABLE "item_search" ADD COLUMN "out_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "item_search" s SET "out_count" = i."out_count" FROM "items" i WHERE s."id" = i."id" AND i."out_count" <> 0;--> statement-breakpoint
ALTER TABLE "item_search" ALTER COLUMN "out_count" DROP DEFAULT;--> statement-breakpoint
CREATE OR REPLACE FUNCTION campusloop_search_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM item_search;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    DELETE FROM item_search s USING old_rows o WHERE s.id = o.id;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM item_search s USING new_rows n WHERE s.id = n.id AND n.deleted_at IS NOT NULL;
  END IF;
  INSERT INTO item_search AS s (id, campus, category, user_id, created_at, hidden_at, pickup_method,
    rental_price_cents, is_available, available_from, available_until, available_days, out_count,
    search_vector)
  SELECT id, campus, category, user_id, created_at, hidden_at, pickup_method, rental_price_cents,
    is_available, available_from, available_until, available_days, out_count, search_vector
  FROM new_rows WHERE deleted_at IS NULL ORDER BY id
  ON CONFLICT (id) DO UPDATE SET campus = excluded.campus, category = excluded.category,
    user_id = excluded.user_id, created_at = excluded.created_at, hidden_at = excluded.hidden_at,
    pickup_method = excluded.pickup_method, rental_price_cents = excluded.rental_price_cents,
    is_available = excluded.is_available, available_from = excluded.available_from,
    available_until = excluded.available_until, available_days = excluded.available_days,
    out_count = excluded.out_count, search_vector = excluded.search_vector
  WHERE (s.campus, s.category, s.user_id, s.created_at, s.hidden_at, s.pickup_method,
      s.rental_price_cents, s.is_available, s.available_from, s.available_until, s.available_days,
      s.out_count, s.search_vector)
    IS DISTINCT FROM (excluded.campus, excluded.category, excluded.user_id, excluded.created_at,
      excluded.hidden_at, excluded.pickup_method, excluded.rental_price_cents, excluded.is_available,
      excluded.available_from, excluded.available_until, excluded.available_days, excluded.out_count,
      excluded.search_vector);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An item whose only change is its out count changed for no cached answer the reservation's own
-- announcement (migration 0030's campusloop_reservations_changed) has not already emptied: its page
-- is the same. Otherwise as in migration 0030.
CREATE OR REPLACE FUNCTION campusloop_items_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus, 'list:' || campus || ':' || category])
      FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus, 'list:' || campus || ':' || category])
      FROM (SELECT o.id, o.user_id, o.campus, o.category FROM old_rows o JOIN new_rows n ON n.id = o.id
            WHERE o.out_count = n.out_count OR (to_jsonb(o) - 'out_count') IS DISTINCT FROM (to_jsonb(n) - 'out_count')
            UNION SELECT n.id, n.user_id, n.campus, n.category FROM old_rows o JOIN new_rows n ON n.id = o.id
            WHERE o.out_count = n.out_count OR (to_jsonb(o) - 'out_count') IS DISTINCT FROM (to_jsonb(n) - 'out_count')) AS changed));
  ELSE
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus, 'list:' || campus || ':' || category])
      FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
