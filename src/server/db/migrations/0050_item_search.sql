CREATE TABLE "item_search" (
	"id" uuid PRIMARY KEY NOT NULL,
	"campus" text NOT NULL,
	"category" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"hidden_at" timestamp with time zone,
	"pickup_method" text NOT NULL,
	"rental_price_cents" integer,
	"is_available" boolean NOT NULL,
	"available_from" date NOT NULL,
	"available_until" date,
	"available_days" smallint[] NOT NULL,
	"search_vector" "tsvector" NOT NULL
);
--> statement-breakpoint
DROP INDEX "items_search_vector_idx";--> statement-breakpoint
CREATE INDEX "item_search_vector_idx" ON "item_search" USING gin ("search_vector");--> statement-breakpoint
-- hand-written:
-- item_search holds a copy of each live item's search columns (schema/items.ts says why), kept here
-- inside the writing transaction: only a transaction that has just written an item's row (and so
-- holds its lock) writes that item's copy, so the copies take no lock an item's writer does not
-- already hold, in the same order. An update that changes none of the copied columns writes nothing.
CREATE FUNCTION campusloop_search_items() RETURNS trigger LANGUAGE plpgsql AS $$
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
    rental_price_cents, is_available, available_from, available_until, available_days, search_vector)
  SELECT id, campus, category, user_id, created_at, hidden_at, pickup_method, rental_price_cents,
    is_available, available_from, available_until, available_days, search_vector
  FROM new_rows WHERE deleted_at IS NULL ORDER BY id
  ON CONFLICT (id) DO UPDATE SET campus = excluded.campus, category = excluded.category,
    user_id = excluded.user_id, created_at = excluded.created_at, hidden_at = excluded.hidden_at,
    pickup_method = excluded.pickup_method, rental_price_cents = excluded.rental_price_cents,
    is_available = excluded.is_available, available_from = excluded.available_from,
    available_until = excluded.available_until, available_days = excluded.available_days,
    search_vector = excluded.search_vector
  WHERE (s.campus, s.category, s.user_id, s.created_at, s.hidden_at, s.pickup_method,
      s.rental_price_cents, s.is_available, s.available_from, s.available_until, s.available_days,
      s.search_vector)
    IS DISTINCT FROM (excluded.campus, excluded.category, excluded.user_id, excluded.created_at,
      excluded.hidden_at, excluded.pickup_method, excluded.rental_price_cents, excluded.is_available,
      excluded.available_from, excluded.available_until, excluded.available_days, excluded.search_vector);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER items_search_insert AFTER INSERT ON items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_search_items();--> statement-breakpoint
CREATE TRIGGER items_search_update AFTER UPDATE ON items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_search_items();--> statement-breakpoint
CREATE TRIGGER items_search_delete AFTER DELETE ON items REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_search_items();--> statement-breakpoint
CREATE TRIGGER items_search_truncate AFTER TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_search_items();--> statement-breakpoint
-- The items that exist already.
INSERT INTO item_search (id, campus, category, user_id, created_at, hidden_at, pickup_method,
  rental_price_cents, is_available, available_from, available_until, available_days, search_vector)
SELECT id, campus, category, user_id, created_at, hidden_at, pickup_method, rental_price_cents,
  is_available, available_from, available_until, available_days, search_vector
FROM items WHERE deleted_at IS NULL;
