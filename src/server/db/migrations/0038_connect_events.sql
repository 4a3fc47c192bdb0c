CREATE TABLE "bank_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"lender_id" uuid,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"arrival_at" timestamp with time zone NOT NULL,
	"failure_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_payouts_status_check" CHECK ("bank_payouts"."status" in ('pending', 'in_transit', 'paid', 'failed', 'canceled'))
);
--> statement-breakpoint
CREATE TABLE "payout_reversals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transfer_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"dispute_id" uuid,
	"amount_cents" integer NOT NULL,
	"reversed_cents" integer DEFAULT 0 NOT NULL,
	"owed_cents" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"idempotency_key" text NOT NULL,
	"provider_reversal_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_reversals_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "payout_reversals_provider_reversal_id_unique" UNIQUE("provider_reversal_id"),
	CONSTRAINT "payout_reversals_reason_check" CHECK ("payout_reversals"."reason" in ('refund', 'lender_at_fault')),
	CONSTRAINT "payout_reversals_status_check" CHECK ("payout_reversals"."status" in ('scheduled', 'sent', 'failed')),
	CONSTRAINT "payout_reversals_amount_check" CHECK ("payout_reversals"."amount_cents" > 0 and "payout_reversals"."reversed_cents" >= 0 and "payout_reversals"."owed_cents" >= 0 and "payout_reversals"."reversed_cents" + "payout_reversals"."owed_cents" <= "payout_reversals"."amount_cents")
);
--> statement-breakpoint
CREATE TABLE "test_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"destination" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"arrival_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "journal_transactions" DROP CONSTRAINT "journal_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD COLUMN "netted_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD COLUMN "owed_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD COLUMN "available_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bank_payouts" ADD CONSTRAINT "bank_payouts_lender_id_users_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_reversals" ADD CONSTRAINT "payout_reversals_transfer_id_payout_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."payout_transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_payouts_account_idx" ON "bank_payouts" USING btree ("account_id","status","arrival_at");--> statement-breakpoint
CREATE INDEX "payout_reversals_transfer_idx" ON "payout_reversals" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "payout_reversals_status_idx" ON "payout_reversals" USING btree ("status");--> statement-breakpoint
ALTER TABLE "journal_transactions" ADD CONSTRAINT "journal_transactions_kind_check" CHECK ("journal_transactions"."kind" in ('capture', 'refund', 'release', 'earning', 'fee', 'fee_returned', 'transfer', 'transfer_reversal', 'dispute_withdrawn', 'dispute_reinstated', 'lender_charged'));--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD CONSTRAINT "payout_transfers_netted_check" CHECK ("payout_transfers"."netted_cents" >= 0 and "payout_transfers"."owed_cents" >= 0 and "payout_transfers"."reversed_cents" + "payout_transfers"."owed_cents" <= coalesce("payout_transfers"."amount_cents", 0));