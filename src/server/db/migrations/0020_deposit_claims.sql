-- Decisions 024, 029: the return's 48-hour window, deposit claims, disputes and
-- the moderator's decision; overdue reminders. (Written as 0019 beside the waitlist's 0019, renumbered after it.)
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "payment_steps" DROP CONSTRAINT "payment_steps_purpose_check";--> statement-breakpoint
ALTER TABLE "reservation_reminders" DROP CONSTRAINT "reservation_reminders_kind_check";--> statement-breakpoint
ALTER TABLE "reservations" DROP CONSTRAINT "reservations_status_check";--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "returned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "claim_cents" integer;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "claim_description" text;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "claim_photos" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "dispute_note" text;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "dispute_photos" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "disputed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "awarded_cents" integer;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "resolved_by" uuid;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservations_returned_idx" ON "reservations" USING btree ("returned_at") WHERE "reservations"."status" = 'returned';--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('reservation_request', 'reservation_approved', 'reservation_declined', 'reservation_cancelled', 'reservation_expired', 'reservation_started', 'reservation_completed', 'deposit_refunded', 'review_request', 'review_received', 'badge_earned', 'report_update', 'system', 'pickup_reminder', 'return_reminder', 'request_expiring', 'waitlist_available', 'return_confirm', 'deposit_claim', 'overdue'));--> statement-breakpoint
ALTER TABLE "payment_steps" ADD CONSTRAINT "payment_steps_purpose_check" CHECK ("payment_steps"."purpose" in ('approval', 'decline', 'cancellation', 'policy', 'expiry', 'overlap', 'deposit', 'claim', 'abandoned', 'support'));--> statement-breakpoint
ALTER TABLE "reservation_reminders" ADD CONSTRAINT "reservation_reminders_kind_check" CHECK ("reservation_reminders"."kind" in ('pickup_eve', 'pickup_morning', 'return_eve', 'return_morning', 'request_expiring', 'overdue'));--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_claim_check" CHECK (("reservations"."claim_cents" is null or ("reservations"."claim_cents" > 0 and "reservations"."claim_cents" <= "reservations"."deposit_cents")) and ("reservations"."awarded_cents" is null or ("reservations"."awarded_cents" >= 0 and "reservations"."awarded_cents" <= coalesce("reservations"."claim_cents", 0))));--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_status_check" CHECK ("reservations"."status" in ('pending', 'approved', 'active', 'returned', 'claimed', 'disputed', 'completed', 'cancelled', 'declined'));--> statement-breakpoint
-- A returned item's days stay taken until its lender answers and any claim is settled, so the
-- exclusion constraint covers the new statuses too (BOOKED_STATUSES in src/shared/availability.ts).
-- By hand, as in 0002: drizzle-kit cannot express EXCLUDE.
ALTER TABLE "reservations" DROP CONSTRAINT "reservations_no_overlap";--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_no_overlap"
  EXCLUDE USING gist ("item_id" WITH =, daterange("start_date", "end_date", '[]') WITH &&)
  WHERE ("status" IN ('approved', 'active', 'returned', 'claimed', 'disputed'));
