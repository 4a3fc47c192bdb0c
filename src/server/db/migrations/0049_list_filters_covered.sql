-- hand-written (Drizzle's index builder has no INCLUDE; the schema declares the same keys and name):
-- Browse's counts and the pages past the first choose items by columns that were only in the table's
-- rows, about 1.2 kB each (search vector, search text, photos), six to a page: counting a campus's
-- "available now" items to 1,000 read ~1,000-1,700 table pages. With every list filter carried in
-- the campus and the category indexes, PostgreSQL answers both from an index alone (an index-only
-- scan: ~30-60 pages).
DROP INDEX "items_campus_created_idx";--> statement-breakpoint
CREATE INDEX "items_campus_created_idx" ON "items" USING btree ("campus", "created_at" DESC NULLS FIRST, "id" DESC NULLS FIRST)
  INCLUDE ("category", "user_id", "hidden_at", "pickup_method", "rental_price_cents", "is_available", "available_from", "available_until", "available_days")
  WHERE "items"."deleted_at" is null;--> statement-breakpoint
-- The same for lists of one category on every campus (their counts scanned the whole campus index).
DROP INDEX "items_category_created_idx";--> statement-breakpoint
CREATE INDEX "items_category_created_idx" ON "items" USING btree ("category", "created_at" DESC)
  INCLUDE ("id", "campus", "user_id", "hidden_at", "pickup_method", "rental_price_cents", "is_available", "available_from", "available_until", "available_days")
  WHERE "items"."deleted_at" is null;--> statement-breakpoint
-- An index-only scan skips the table only for pages the visibility map marks all-visible, which
-- vacuum sets: vacuum the items after 2 % of them changed or were added rather than PostgreSQL's 20 %,
-- so a busy day's edits do not send the counts back to the table. (PGlite has no autovacuum; its
-- planner sees no all-visible pages and keeps the plans it had.)
ALTER TABLE "items" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02);
