ALTER TABLE "payment_steps" DROP CONSTRAINT "payment_steps_kind_check";--> statement-breakpoint
ALTER TABLE "payment_steps" DROP CONSTRAINT "payment_steps_purpose_check";--> statement-breakpoint
ALTER TABLE "payment_steps" DROP CONSTRAINT "payment_steps_status_check";--> statement-breakpoint
ALTER TABLE "payment_steps" ADD COLUMN "not_before" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "authorise_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "off_session_payment_method" text;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "card_problem" text;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "card_fix_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "test_payment_methods" ADD COLUMN "off_session" text DEFAULT 'ok' NOT NULL;--> statement-breakpoint
CREATE INDEX "reservations_card_fix_by_idx" ON "reservations" USING btree ("card_fix_by") WHERE "reservations"."card_fix_by" is not null;--> statement-breakpoint
ALTER TABLE "payment_steps" ADD CONSTRAINT "payment_steps_kind_check" CHECK ("payment_steps"."kind" in ('authorise', 'capture', 'release', 'refund'));--> statement-breakpoint
ALTER TABLE "payment_steps" ADD CONSTRAINT "payment_steps_purpose_check" CHECK ("payment_steps"."purpose" in ('approval', 'deferred', 'decline', 'cancellation', 'policy', 'expiry', 'overlap', 'deposit', 'claim', 'early_return', 'abandoned', 'support'));--> statement-breakpoint
ALTER TABLE "payment_steps" ADD CONSTRAINT "payment_steps_status_check" CHECK ("payment_steps"."status" in ('pending', 'running', 'succeeded', 'failed', 'superseded', 'waiting'));--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_card_problem_check" CHECK ("reservations"."card_problem" is null or "reservations"."card_problem" in ('declined', 'authentication_required'));