CREATE TABLE "item_counts" (
	"campus" text NOT NULL,
	"category" text NOT NULL,
	"live" integer NOT NULL,
	CONSTRAINT "item_counts_campus_category_pk" PRIMARY KEY("campus","category")
);
--> statement-breakpoint
CREATE INDEX "users_suspended_idx" ON "users" USING btree ("id") WHERE "users"."suspended_at" is not null;--> statement-breakpoint
-- hand-written:
-- Browse's plain counts (a campus, a category, both or neither) read these counters instead of every
-- matching item. They count items neither deleted nor hidden; the items of suspended owners are
-- subtracted when read (features/items/queries.ts). Statement triggers with transition tables, so a bulk
-- insert makes one upsert per campus and category; the changes are applied in key order, so two
-- transactions touching the same counters lock them in the same order.
CREATE FUNCTION campusloop_count_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO item_counts AS c (campus, category, live)
    SELECT campus, category, count(*) FROM new_rows
    WHERE deleted_at IS NULL AND hidden_at IS NULL
    GROUP BY campus, category ORDER BY campus, category
    ON CONFLICT (campus, category) DO UPDATE SET live = c.live + excluded.live;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO item_counts AS c (campus, category, live)
    SELECT campus, category, sum(change) FROM (
      SELECT campus, category, 1 AS change FROM new_rows WHERE deleted_at IS NULL AND hidden_at IS NULL
      UNION ALL
      SELECT campus, category, -1 FROM old_rows WHERE deleted_at IS NULL AND hidden_at IS NULL
    ) changes
    GROUP BY campus, category HAVING sum(change) <> 0 ORDER BY campus, category
    ON CONFLICT (campus, category) DO UPDATE SET live = c.live + excluded.live;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO item_counts AS c (campus, category, live)
    SELECT campus, category, -count(*) FROM old_rows
    WHERE deleted_at IS NULL AND hidden_at IS NULL
    GROUP BY campus, category ORDER BY campus, category
    ON CONFLICT (campus, category) DO UPDATE SET live = c.live + excluded.live;
  ELSE
    DELETE FROM item_counts;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER items_count_insert AFTER INSERT ON items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_count_items();--> statement-breakpoint
CREATE TRIGGER items_count_update AFTER UPDATE ON items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_count_items();--> statement-breakpoint
CREATE TRIGGER items_count_delete AFTER DELETE ON items REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_count_items();--> statement-breakpoint
CREATE TRIGGER items_count_truncate AFTER TRUNCATE ON items
  FOR EACH STATEMENT EXECUTE FUNCTION campusloop_count_items();--> statement-breakpoint
-- The items that exist already.
INSERT INTO item_counts (campus, category, live)
SELECT campus, category, count(*) FROM items
WHERE deleted_at IS NULL AND hidden_at IS NULL
GROUP BY campus, category;
