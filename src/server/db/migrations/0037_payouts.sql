CREATE TABLE "connected_accounts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"status" text NOT NULL,
	"requirements_due" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deauthorised_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connected_accounts_account_id_unique" UNIQUE("account_id"),
	CONSTRAINT "connected_accounts_status_check" CHECK ("connected_accounts"."status" in ('not_set_up', 'in_review', 'action_needed', 'active', 'restricted'))
);
--> statement-breakpoint
CREATE TABLE "payout_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid,
	"lender_id" uuid NOT NULL,
	"payment_intent_id" text NOT NULL,
	"purpose" text NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"amount_cents" integer,
	"reversed_cents" integer DEFAULT 0 NOT NULL,
	"release_at" timestamp with time zone NOT NULL,
	"transfer_group" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"provider_transfer_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"lease_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_transfers_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "payout_transfers_provider_transfer_id_unique" UNIQUE("provider_transfer_id"),
	CONSTRAINT "payout_transfers_one_per_purpose" UNIQUE("payment_intent_id","purpose"),
	CONSTRAINT "payout_transfers_purpose_check" CHECK ("payout_transfers"."purpose" in ('rental_secured', 'rental_rest', 'deposit_kept')),
	CONSTRAINT "payout_transfers_status_check" CHECK ("payout_transfers"."status" in ('scheduled', 'waiting_account', 'sent', 'reversed', 'failed', 'cancelled')),
	CONSTRAINT "payout_transfers_amount_check" CHECK ("payout_transfers"."amount_cents" is null or "payout_transfers"."amount_cents" > 0),
	CONSTRAINT "payout_transfers_reversed_check" CHECK ("payout_transfers"."reversed_cents" >= 0 and "payout_transfers"."reversed_cents" <= coalesce("payout_transfers"."amount_cents", 0))
);
--> statement-breakpoint
CREATE TABLE "test_connected_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"country" text NOT NULL,
	"state" text DEFAULT 'onboarding' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"amount_cents" integer NOT NULL,
	"amount_reversed_cents" integer DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"destination" text NOT NULL,
	"source_transaction" text,
	"transfer_group" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"available_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connected_accounts" ADD CONSTRAINT "connected_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD CONSTRAINT "payout_transfers_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD CONSTRAINT "payout_transfers_lender_id_users_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_transfers_due_idx" ON "payout_transfers" USING btree ("status","release_at");--> statement-breakpoint
CREATE INDEX "payout_transfers_lender_idx" ON "payout_transfers" USING btree ("lender_id","created_at");--> statement-breakpoint
CREATE INDEX "payout_transfers_reservation_idx" ON "payout_transfers" USING btree ("reservation_id");