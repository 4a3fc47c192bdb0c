CREATE TABLE "ask_email_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ask_email_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "ask_matches_told" (
	"ask_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ask_matches_told_ask_id_user_id_pk" PRIMARY KEY("ask_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "ask_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ask_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"conversation_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "asks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"campus" text NOT NULL,
	"title" text NOT NULL,
	"category" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"max_price_cents" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"close_reason" text,
	"closed_at" timestamp with time zone,
	"reservation_id" uuid,
	"hidden_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "asks_status_check" CHECK ("asks"."status" in ('open', 'closed')),
	CONSTRAINT "asks_close_reason_check" CHECK ("asks"."close_reason" in ('author', 'reserved')),
	CONSTRAINT "asks_category_check" CHECK ("asks"."category" in ('clothing', 'tools', 'books', 'kitchen', 'professional', 'electronics', 'furniture', 'other')),
	CONSTRAINT "asks_dates_check" CHECK ("asks"."end_date" >= "asks"."start_date"),
	CONSTRAINT "asks_max_price_check" CHECK ("asks"."max_price_cents" >= 0),
	CONSTRAINT "asks_closed_check" CHECK (("asks"."status" = 'closed') = ("asks"."closed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "ask_email_days" ADD CONSTRAINT "ask_email_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ask_matches_told" ADD CONSTRAINT "ask_matches_told_ask_id_asks_id_fk" FOREIGN KEY ("ask_id") REFERENCES "public"."asks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ask_matches_told" ADD CONSTRAINT "ask_matches_told_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ask_offers" ADD CONSTRAINT "ask_offers_ask_id_asks_id_fk" FOREIGN KEY ("ask_id") REFERENCES "public"."asks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ask_offers" ADD CONSTRAINT "ask_offers_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ask_offers" ADD CONSTRAINT "ask_offers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ask_offers" ADD CONSTRAINT "ask_offers_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asks" ADD CONSTRAINT "asks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asks" ADD CONSTRAINT "asks_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ask_offers_ask_item_unique" ON "ask_offers" USING btree ("ask_id","item_id");--> statement-breakpoint
CREATE INDEX "ask_offers_item_idx" ON "ask_offers" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "ask_offers_user_idx" ON "ask_offers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "asks_campus_open_idx" ON "asks" USING btree ("campus","created_at") WHERE "asks"."status" = 'open';--> statement-breakpoint
CREATE INDEX "asks_user_idx" ON "asks" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "asks_reservation_idx" ON "asks" USING btree ("reservation_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('reservation_request', 'reservation_approved', 'reservation_declined', 'reservation_cancelled', 'reservation_expired', 'reservation_started', 'reservation_completed', 'deposit_refunded', 'review_request', 'review_received', 'badge_earned', 'report_update', 'system', 'pickup_reminder', 'return_reminder', 'request_expiring', 'waitlist_available', 'return_confirm', 'deposit_claim', 'overdue', 'extension_requested', 'extension_approved', 'extension_declined', 'extension_cancelled', 'early_return', 'handover_added', 'saved_search_match', 'payout_sent', 'ask_offer', 'ask_match'));