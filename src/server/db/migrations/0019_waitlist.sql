-- The waitlist: who waits for which dates of an item, in joining order (seq), told once
-- (status notified); and the notification type that tells them.
CREATE TABLE "waitlist_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "waitlist_entries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"item_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_entries_status_check" CHECK ("waitlist_entries"."status" in ('waiting', 'notified')),
	CONSTRAINT "waitlist_entries_dates_check" CHECK ("waitlist_entries"."end_date" >= "waitlist_entries"."start_date")
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_waiting_unique" ON "waitlist_entries" USING btree ("item_id","user_id","start_date","end_date") WHERE "waitlist_entries"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "waitlist_entries_item_waiting_idx" ON "waitlist_entries" USING btree ("item_id","seq") WHERE "waitlist_entries"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "waitlist_entries_user_item_idx" ON "waitlist_entries" USING btree ("user_id","item_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('reservation_request', 'reservation_approved', 'reservation_declined', 'reservation_cancelled', 'reservation_expired', 'reservation_started', 'reservation_completed', 'deposit_refunded', 'review_request', 'review_received', 'badge_earned', 'report_update', 'system', 'pickup_reminder', 'return_reminder', 'request_expiring', 'waitlist_available'));