DROP INDEX "items_campus_created_idx";--> statement-breakpoint
DROP INDEX "items_category_created_idx";--> statement-breakpoint
DROP INDEX "items_created_idx";--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', category), 'B') || setweight(to_tsvector('english', coalesce(description, '')), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce(title, '') || ' ' || category || ' ' || coalesce(description, ''))) STORED;--> statement-breakpoint
CREATE INDEX "items_campus_category_created_idx" ON "items" USING btree ("campus","category","created_at" DESC NULLS LAST) WHERE "items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "items_available_created_idx" ON "items" USING btree ("created_at" DESC NULLS LAST) WHERE "items"."deleted_at" is null and "items"."is_available";--> statement-breakpoint
CREATE INDEX "items_price_idx" ON "items" USING btree ("rental_price_cents") WHERE "items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "items_search_vector_idx" ON "items" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "items_search_text_trgm_idx" ON "items" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "items_title_trgm_idx" ON "items" USING gin (lower("title") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "items_campus_created_idx" ON "items" USING btree ("campus","created_at" DESC NULLS LAST) WHERE "items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "items_category_created_idx" ON "items" USING btree ("category","created_at" DESC NULLS LAST) WHERE "items"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "items_created_idx" ON "items" USING btree ("created_at" DESC NULLS LAST) WHERE "items"."deleted_at" is null;