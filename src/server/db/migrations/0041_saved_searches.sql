CREATE TABLE "saved_search_matches" (
	"user_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"saved_search_id" uuid NOT NULL,
	"notification_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_search_matches_user_id_item_id_pk" PRIMARY KEY("user_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"campus" text NOT NULL,
	"search_query" text NOT NULL,
	"words" text[] NOT NULL,
	"lead_word" text NOT NULL,
	"category" text,
	"max_price_cents" integer,
	"free_only" boolean DEFAULT false NOT NULL,
	"dedupe_key" text NOT NULL,
	"batch_notification_id" uuid,
	"batch_started_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_searches_category_check" CHECK ("saved_searches"."category" is null or "saved_searches"."category" in ('clothing', 'tools', 'books', 'kitchen', 'professional', 'electronics', 'furniture', 'other')),
	CONSTRAINT "saved_searches_max_price_check" CHECK ("saved_searches"."max_price_cents" is null or "saved_searches"."max_price_cents" >= 0),
	CONSTRAINT "saved_searches_words_check" CHECK (cardinality("saved_searches"."words") between 1 and 8)
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "saved_search_matches" ADD CONSTRAINT "saved_search_matches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_matches" ADD CONSTRAINT "saved_search_matches_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_matches" ADD CONSTRAINT "saved_search_matches_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_matches" ADD CONSTRAINT "saved_search_matches_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_batch_notification_id_notifications_id_fk" FOREIGN KEY ("batch_notification_id") REFERENCES "public"."notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_search_matches_search_idx" ON "saved_search_matches" USING btree ("saved_search_id");--> statement-breakpoint
CREATE INDEX "saved_search_matches_notification_idx" ON "saved_search_matches" USING btree ("notification_id");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_searches_user_key_idx" ON "saved_searches" USING btree ("user_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "saved_searches_user_created_idx" ON "saved_searches" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "saved_searches_campus_lead_idx" ON "saved_searches" USING btree ("campus","lead_word");--> statement-breakpoint
CREATE INDEX "saved_searches_lead_trgm_idx" ON "saved_searches" USING gin ("lead_word" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('reservation_request', 'reservation_approved', 'reservation_declined', 'reservation_cancelled', 'reservation_expired', 'reservation_started', 'reservation_completed', 'deposit_refunded', 'review_request', 'review_received', 'badge_earned', 'report_update', 'system', 'pickup_reminder', 'return_reminder', 'request_expiring', 'waitlist_available', 'return_confirm', 'deposit_claim', 'overdue', 'extension_requested', 'extension_approved', 'extension_declined', 'extension_cancelled', 'early_return', 'handover_added', 'saved_search_match'));