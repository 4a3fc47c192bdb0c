CREATE TABLE "payment_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"borrower_id" uuid,
	"item_id" uuid,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"rental_cents" integer NOT NULL,
	"deposit_cents" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"reservation_id" uuid,
	"status" text DEFAULT 'open' NOT NULL,
	"provider_status" text,
	"last_error" text,
	"reconciled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_intents_reservation_id_unique" UNIQUE("reservation_id"),
	CONSTRAINT "payment_intents_status_check" CHECK ("payment_intents"."status" in ('open', 'used', 'abandoned')),
	CONSTRAINT "payment_intents_amounts_check" CHECK ("payment_intents"."rental_cents" >= 0 and "payment_intents"."deposit_cents" >= 0 and "payment_intents"."amount_cents" = "payment_intents"."rental_cents" + "payment_intents"."deposit_cents")
);
--> statement-breakpoint
CREATE TABLE "payment_mismatches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_intent_id" text NOT NULL,
	"reservation_id" uuid,
	"billing_net_cents" integer NOT NULL,
	"provider_net_cents" integer NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "payment_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "payment_steps_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"payment_intent_id" text NOT NULL,
	"reservation_id" uuid,
	"kind" text NOT NULL,
	"purpose" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"billing_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"idempotency_key" text NOT NULL,
	"locked_until" timestamp with time zone,
	"provider_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "payment_steps_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "payment_steps_kind_check" CHECK ("payment_steps"."kind" in ('capture', 'release', 'refund')),
	CONSTRAINT "payment_steps_purpose_check" CHECK ("payment_steps"."purpose" in ('approval', 'decline', 'cancellation', 'expiry', 'overlap', 'deposit', 'abandoned', 'support')),
	CONSTRAINT "payment_steps_status_check" CHECK ("payment_steps"."status" in ('pending', 'running', 'succeeded', 'failed', 'superseded')),
	CONSTRAINT "payment_steps_amount_check" CHECK ("payment_steps"."amount_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "billing_history" ADD COLUMN "kind" text DEFAULT 'payment' NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_history" ADD COLUMN "provider_refund_id" text;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "pickup_code_attempts" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_borrower_id_users_id_fk" FOREIGN KEY ("borrower_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_mismatches" ADD CONSTRAINT "payment_mismatches_payment_intent_id_payment_intents_id_fk" FOREIGN KEY ("payment_intent_id") REFERENCES "public"."payment_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_mismatches" ADD CONSTRAINT "payment_mismatches_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_mismatches" ADD CONSTRAINT "payment_mismatches_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_steps" ADD CONSTRAINT "payment_steps_payment_intent_id_payment_intents_id_fk" FOREIGN KEY ("payment_intent_id") REFERENCES "public"."payment_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_steps" ADD CONSTRAINT "payment_steps_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_steps" ADD CONSTRAINT "payment_steps_billing_id_billing_history_id_fk" FOREIGN KEY ("billing_id") REFERENCES "public"."billing_history"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_intents_open_created_idx" ON "payment_intents" USING btree ("created_at") WHERE "payment_intents"."status" = 'open';--> statement-breakpoint
CREATE INDEX "payment_intents_used_reconciled_idx" ON "payment_intents" USING btree ("reconciled_at" NULLS FIRST) WHERE "payment_intents"."status" = 'used';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_mismatches_open_idx" ON "payment_mismatches" USING btree ("payment_intent_id") WHERE "payment_mismatches"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "payment_steps_intent_seq_idx" ON "payment_steps" USING btree ("payment_intent_id","seq");--> statement-breakpoint
CREATE INDEX "payment_steps_open_idx" ON "payment_steps" USING btree ("status","updated_at") WHERE "payment_steps"."status" in ('pending', 'running', 'failed');--> statement-breakpoint
CREATE UNIQUE INDEX "reservations_payment_intent_unique" ON "reservations" USING btree ("stripe_payment_intent_id") WHERE "reservations"."stripe_payment_intent_id" is not null;--> statement-breakpoint
ALTER TABLE "billing_history" ADD CONSTRAINT "billing_history_kind_check" CHECK ("billing_history"."kind" in ('payment', 'refund', 'earning'));--> statement-breakpoint
-- Rows written before billing kinds: the lender's rows are earnings, a 'Deposit refund' row is a
-- refund, everything else the borrower's payment.
UPDATE "billing_history" b SET "kind" = CASE
  WHEN EXISTS (SELECT 1 FROM "reservations" r WHERE r."id" = b."reservation_id" AND r."provider_id" = b."user_id") THEN 'earning'
  WHEN b."description" LIKE 'Deposit refund%' THEN 'refund'
  ELSE 'payment' END;
--> statement-breakpoint
-- Intents of reservations made before intents were recorded: recorded as used by their reservation,
-- so reconciliation compares them too.
INSERT INTO "payment_intents" ("id", "borrower_id", "item_id", "start_date", "end_date", "rental_cents",
  "deposit_cents", "amount_cents", "reservation_id", "status", "created_at")
SELECT DISTINCT ON (r."stripe_payment_intent_id") r."stripe_payment_intent_id", r."borrower_id", r."item_id",
  r."start_date", r."end_date", r."rental_cents", r."deposit_cents", r."rental_cents" + r."deposit_cents",
  r."id", 'used', r."created_at"
FROM "reservations" r
WHERE r."stripe_payment_intent_id" IS NOT NULL
ORDER BY r."stripe_payment_intent_id", r."created_at"
ON CONFLICT DO NOTHING;
