CREATE TABLE "reservation_extensions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"borrower_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"previous_end_date" date NOT NULL,
	"new_end_date" date NOT NULL,
	"rental_cents" integer DEFAULT 0 NOT NULL,
	"payment_intent_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reservation_extensions_status_check" CHECK ("reservation_extensions"."status" in ('pending', 'approved', 'declined', 'cancelled', 'expired')),
	CONSTRAINT "reservation_extensions_dates_check" CHECK ("reservation_extensions"."new_end_date" > "reservation_extensions"."previous_end_date"),
	CONSTRAINT "reservation_extensions_amount_check" CHECK ("reservation_extensions"."rental_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "extension_of" uuid;--> statement-breakpoint
ALTER TABLE "reservation_extensions" ADD CONSTRAINT "reservation_extensions_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_extensions" ADD CONSTRAINT "reservation_extensions_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_extensions" ADD CONSTRAINT "reservation_extensions_borrower_id_users_id_fk" FOREIGN KEY ("borrower_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_extensions" ADD CONSTRAINT "reservation_extensions_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reservation_extensions_one_pending" ON "reservation_extensions" USING btree ("reservation_id") WHERE "reservation_extensions"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "reservation_extensions_payment_intent_unique" ON "reservation_extensions" USING btree ("payment_intent_id") WHERE "reservation_extensions"."payment_intent_id" is not null;--> statement-breakpoint
CREATE INDEX "reservation_extensions_reservation_idx" ON "reservation_extensions" USING btree ("reservation_id","status");--> statement-breakpoint
CREATE INDEX "reservation_extensions_item_pending_idx" ON "reservation_extensions" USING btree ("item_id","new_end_date") WHERE "reservation_extensions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "reservation_extensions_pending_end_idx" ON "reservation_extensions" USING btree ("previous_end_date") WHERE "reservation_extensions"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_extension_of_reservations_id_fk" FOREIGN KEY ("extension_of") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('reservation_request', 'reservation_approved', 'reservation_declined', 'reservation_cancelled', 'reservation_expired', 'reservation_started', 'reservation_completed', 'deposit_refunded', 'review_request', 'review_received', 'badge_earned', 'report_update', 'system', 'pickup_reminder', 'return_reminder', 'request_expiring', 'waitlist_available', 'return_confirm', 'deposit_claim', 'overdue', 'extension_requested', 'extension_approved', 'extension_declined', 'extension_cancelled'));