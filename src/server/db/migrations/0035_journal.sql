CREATE TABLE "journal_findings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"cash_cents" integer NOT NULL,
	"accounted_cents" integer NOT NULL,
	"problem" text NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "journal_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"account" text NOT NULL,
	"person_id" uuid,
	"reservation_id" uuid,
	"payment_intent_id" text,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_lines_account_check" CHECK ("journal_lines"."account" in ('provider_cash', 'borrower', 'lender_payable', 'platform_fees')),
	CONSTRAINT "journal_lines_amount_check" CHECK ("journal_lines"."amount_cents" <> 0)
);
--> statement-breakpoint
CREATE TABLE "journal_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "journal_transactions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"reservation_id" uuid,
	"payment_intent_id" text,
	"source" text,
	"released_cents" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_transactions_source_unique" UNIQUE("source"),
	CONSTRAINT "journal_transactions_kind_check" CHECK ("journal_transactions"."kind" in ('capture', 'refund', 'release', 'earning', 'fee', 'fee_returned', 'transfer', 'transfer_reversal', 'dispute_withdrawn', 'dispute_reinstated'))
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"step_id" uuid PRIMARY KEY NOT NULL,
	"borrower_id" uuid NOT NULL,
	"reservation_id" uuid,
	"payment_intent_id" text NOT NULL,
	"kind" text NOT NULL,
	"purpose" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "receipts_kind_check" CHECK ("receipts"."kind" in ('capture', 'refund'))
);
--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_transaction_id_journal_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."journal_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "journal_findings_open_idx" ON "journal_findings" USING btree ("reservation_id") WHERE "journal_findings"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "journal_lines_transaction_idx" ON "journal_lines" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "journal_lines_reservation_idx" ON "journal_lines" USING btree ("reservation_id");--> statement-breakpoint
CREATE INDEX "journal_lines_person_idx" ON "journal_lines" USING btree ("person_id","account");--> statement-breakpoint
CREATE INDEX "journal_transactions_reservation_idx" ON "journal_transactions" USING btree ("reservation_id");--> statement-breakpoint
CREATE INDEX "journal_transactions_intent_idx" ON "journal_transactions" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE INDEX "receipts_unsent_idx" ON "receipts" USING btree ("created_at") WHERE "receipts"."sent_at" is null;--> statement-breakpoint
-- hand-written:
-- The journal is append-only: no line or transaction is ever changed or taken away.
CREATE FUNCTION "journal_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the journal is append-only';
END $$;--> statement-breakpoint
CREATE TRIGGER "journal_lines_append_only" BEFORE UPDATE OR DELETE ON "journal_lines"
FOR EACH ROW EXECUTE FUNCTION "journal_append_only"();--> statement-breakpoint
CREATE TRIGGER "journal_transactions_append_only" BEFORE UPDATE OR DELETE ON "journal_transactions"
FOR EACH ROW EXECUTE FUNCTION "journal_append_only"();--> statement-breakpoint
CREATE TRIGGER "journal_lines_no_truncate" BEFORE TRUNCATE ON "journal_lines"
FOR EACH STATEMENT EXECUTE FUNCTION "journal_append_only"();--> statement-breakpoint
CREATE TRIGGER "journal_transactions_no_truncate" BEFORE TRUNCATE ON "journal_transactions"
FOR EACH STATEMENT EXECUTE FUNCTION "journal_append_only"();--> statement-breakpoint
-- A transaction's lines add up to zero, checked when the database transaction commits (its lines are
-- written one statement after another).
CREATE FUNCTION "journal_transaction_balances"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
BEGIN
  SELECT sum("amount_cents") INTO total FROM "journal_lines" WHERE "transaction_id" = NEW."transaction_id";
  IF total <> 0 THEN
    RAISE EXCEPTION 'journal transaction % does not balance (its lines add up to %)', NEW."transaction_id", total;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "journal_lines_balance" AFTER INSERT ON "journal_lines"
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "journal_transaction_balances"();--> statement-breakpoint
-- The journal of what happened before it existed, from the billing rows and earning entries: each
-- charged payment, the lender's earning of it, each refund made, each authorisation let go.
CREATE TEMPORARY TABLE "journal_backfill" AS
SELECT 'capture'::text AS "kind", b."reservation_id", b."stripe_payment_intent_id" AS "intent", b."user_id" AS "borrower",
       NULL::uuid AS "lender", sum(b."amount_cents")::int AS "cents", min(b."created_at") AS "at",
       'backfill-capture:' || coalesce(b."stripe_payment_intent_id", b."reservation_id"::text, b."id"::text) AS "source"
FROM "billing_history" b
WHERE b."kind" = 'payment' AND b."status" = 'completed'
GROUP BY b."reservation_id", b."stripe_payment_intent_id", b."user_id",
         coalesce(b."stripe_payment_intent_id", b."reservation_id"::text, b."id"::text)
HAVING sum(b."amount_cents") > 0;--> statement-breakpoint
INSERT INTO "journal_backfill"
SELECT 'earning', c."reservation_id", c."intent", c."borrower", e."lender_id", sum(e."amount_cents")::int,
       c."at", 'backfill-earning:' || c."source" || ':' || e."lender_id"
FROM "journal_backfill" c
JOIN "earning_entries" e ON e."payment_intent_id" = c."intent"
WHERE c."kind" = 'capture'
GROUP BY c."reservation_id", c."intent", c."borrower", e."lender_id", c."at", c."source"
HAVING sum(e."amount_cents") <> 0;--> statement-breakpoint
INSERT INTO "journal_backfill"
SELECT 'refund', b."reservation_id", b."stripe_payment_intent_id", b."user_id", NULL, b."amount_cents",
       coalesce(b."refunded_at", b."created_at"), 'backfill-refund:' || b."id"
FROM "billing_history" b
WHERE b."kind" = 'refund' AND b."status" = 'refunded' AND b."amount_cents" > 0;--> statement-breakpoint
INSERT INTO "journal_backfill"
SELECT 'release', s."reservation_id", s."payment_intent_id", NULL, NULL, s."amount_cents",
       coalesce(s."completed_at", s."updated_at"), 'step:' || s."id"
FROM "payment_steps" s
WHERE s."kind" = 'release' AND s."status" = 'succeeded';--> statement-breakpoint
INSERT INTO "journal_transactions" ("kind", "reservation_id", "payment_intent_id", "source", "released_cents", "created_at")
SELECT "kind", "reservation_id", "intent", "source", CASE WHEN "kind" = 'release' THEN "cents" END, "at"
FROM "journal_backfill"
ORDER BY "at", CASE "kind" WHEN 'capture' THEN 0 WHEN 'earning' THEN 1 ELSE 2 END;--> statement-breakpoint
-- Capture: the provider holds the money, as the borrower's. Earning: the borrower's money becomes what
-- we owe the lender. Refund: the borrower's money goes back out of the provider's hands.
INSERT INTO "journal_lines" ("transaction_id", "account", "person_id", "reservation_id", "payment_intent_id", "amount_cents", "created_at")
SELECT t."id", l."account", l."person", f."reservation_id", f."intent", l."cents", f."at"
FROM "journal_backfill" f
JOIN "journal_transactions" t ON t."source" = f."source"
CROSS JOIN LATERAL (VALUES
  ('provider_cash', NULL::uuid, CASE f."kind" WHEN 'capture' THEN f."cents" WHEN 'refund' THEN -f."cents" END),
  ('borrower', f."borrower", CASE f."kind" WHEN 'capture' THEN -f."cents" WHEN 'refund' THEN f."cents" WHEN 'earning' THEN f."cents" END),
  ('lender_payable', f."lender", CASE f."kind" WHEN 'earning' THEN -f."cents" END)
) AS l("account", "person", "cents")
WHERE f."kind" <> 'release' AND l."cents" IS NOT NULL;--> statement-breakpoint
DROP TABLE "journal_backfill";
