CREATE TABLE "earning_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lender_id" uuid NOT NULL,
	"reservation_id" uuid,
	"payment_intent_id" text,
	"billing_id" uuid,
	"amount_cents" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "earning_entries_reason_check" CHECK ("earning_entries"."reason" in ('rental', 'cancellation_fee', 'early_return', 'deposit_kept', 'cancelled', 'carried_over')),
	CONSTRAINT "earning_entries_amount_check" CHECK ("earning_entries"."amount_cents" <> 0)
);
--> statement-breakpoint
CREATE TABLE "payment_step_rows" (
	"step_id" uuid NOT NULL,
	"billing_id" uuid NOT NULL,
	CONSTRAINT "payment_step_rows_step_id_billing_id_pk" PRIMARY KEY("step_id","billing_id")
);
--> statement-breakpoint
ALTER TABLE "earning_entries" ADD CONSTRAINT "earning_entries_lender_id_users_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "earning_entries" ADD CONSTRAINT "earning_entries_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_step_rows" ADD CONSTRAINT "payment_step_rows_step_id_payment_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."payment_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_step_rows" ADD CONSTRAINT "payment_step_rows_billing_id_billing_history_id_fk" FOREIGN KEY ("billing_id") REFERENCES "public"."billing_history"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "earning_entries_lender_idx" ON "earning_entries" USING btree ("lender_id","created_at");--> statement-breakpoint
CREATE INDEX "earning_entries_reservation_idx" ON "earning_entries" USING btree ("reservation_id");--> statement-breakpoint
CREATE INDEX "payment_step_rows_billing_idx" ON "payment_step_rows" USING btree ("billing_id");--> statement-breakpoint
-- Today's earnings become their history's first entries: a lender's figure as the earning row says it,
-- and, where the payment was given back, the entry that took it away again.
INSERT INTO "earning_entries" ("lender_id", "reservation_id", "payment_intent_id", "billing_id", "amount_cents", "reason", "created_at")
SELECT "user_id", "reservation_id", "stripe_payment_intent_id", "id", "amount_cents", 'carried_over', "created_at"
FROM "billing_history" WHERE "kind" = 'earning' AND "amount_cents" <> 0;--> statement-breakpoint
INSERT INTO "earning_entries" ("lender_id", "reservation_id", "payment_intent_id", "billing_id", "amount_cents", "reason", "created_at")
SELECT "user_id", "reservation_id", "stripe_payment_intent_id", "id", -coalesce("refund_amount_cents", "amount_cents"), 'cancelled', coalesce("refunded_at", "created_at")
FROM "billing_history" WHERE "kind" = 'earning' AND "status" = 'refunded' AND coalesce("refund_amount_cents", "amount_cents") <> 0;--> statement-breakpoint
-- The rows each step settles, as the runner worked them out until now: a capture settles the payment
-- and the earning of its payment, a release the payment, a refund its own row, and a refund that gives
-- a payment back whole (purpose 'cancellation') the earning too.
INSERT INTO "payment_step_rows" ("step_id", "billing_id")
SELECT s."id", b."id" FROM "payment_steps" s
JOIN "billing_history" b ON b."reservation_id" = s."reservation_id" AND b."stripe_payment_intent_id" = s."payment_intent_id"
WHERE (s."kind" = 'capture' AND b."kind" IN ('payment', 'earning'))
   OR (s."kind" = 'release' AND b."kind" = 'payment')
   OR (s."kind" = 'refund' AND s."purpose" = 'cancellation' AND b."kind" = 'earning');--> statement-breakpoint
INSERT INTO "payment_step_rows" ("step_id", "billing_id")
SELECT "id", "billing_id" FROM "payment_steps" WHERE "billing_id" IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- An entry is never changed: only the link to a reservation that was deleted may be cleared.
CREATE FUNCTION "earning_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."lender_id" IS DISTINCT FROM OLD."lender_id" OR NEW."amount_cents" IS DISTINCT FROM OLD."amount_cents"
     OR NEW."reason" IS DISTINCT FROM OLD."reason" OR NEW."payment_intent_id" IS DISTINCT FROM OLD."payment_intent_id"
     OR NEW."billing_id" IS DISTINCT FROM OLD."billing_id" OR NEW."created_at" IS DISTINCT FROM OLD."created_at"
     OR NEW."reservation_id" IS NOT NULL AND NEW."reservation_id" IS DISTINCT FROM OLD."reservation_id" THEN
    RAISE EXCEPTION 'earning entries are append-only';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "earning_entries_append_only" BEFORE UPDATE ON "earning_entries"
FOR EACH ROW EXECUTE FUNCTION "earning_entries_append_only"();
