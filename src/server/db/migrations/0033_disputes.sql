CREATE TABLE "disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_dispute_id" text NOT NULL,
	"reservation_id" uuid,
	"payment_intent_id" text NOT NULL,
	"lender_id" uuid,
	"borrower_id" uuid,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"evidence_due_by" timestamp with time zone,
	"withdrawn_cents" integer DEFAULT 0 NOT NULL,
	"reinstated_cents" integer DEFAULT 0 NOT NULL,
	"fee_cents" integer DEFAULT 0 NOT NULL,
	"outcome" text,
	"evidence" jsonb,
	"evidence_submitted_at" timestamp with time zone,
	"evidence_submitted_by" uuid,
	"finding" text,
	"finding_note" text,
	"found_by" uuid,
	"found_at" timestamp with time zone,
	"reversal_cents" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disputes_provider_dispute_id_unique" UNIQUE("provider_dispute_id"),
	CONSTRAINT "disputes_status_check" CHECK ("disputes"."status" in ('warning_needs_response', 'warning_under_review', 'warning_closed', 'needs_response', 'under_review', 'won', 'lost', 'prevented')),
	CONSTRAINT "disputes_outcome_check" CHECK ("disputes"."outcome" is null or "disputes"."outcome" in ('won', 'lost')),
	CONSTRAINT "disputes_finding_check" CHECK ("disputes"."finding" is null or "disputes"."finding" in ('lender_at_fault', 'platform_bears')),
	CONSTRAINT "disputes_amounts_check" CHECK ("disputes"."amount_cents" > 0 and "disputes"."withdrawn_cents" >= 0 and "disputes"."reinstated_cents" >= 0 and "disputes"."fee_cents" >= 0 and ("disputes"."reversal_cents" is null or "disputes"."reversal_cents" >= 0))
);
--> statement-breakpoint
CREATE TABLE "lender_receivables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lender_id" uuid NOT NULL,
	"dispute_id" uuid,
	"amount_cents" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lender_receivables_reason_check" CHECK ("lender_receivables"."reason" in ('dispute_reversal', 'netted_from_transfer')),
	CONSTRAINT "lender_receivables_sign_check" CHECK (("lender_receivables"."reason" = 'dispute_reversal' and "lender_receivables"."amount_cents" > 0) or ("lender_receivables"."reason" = 'netted_from_transfer' and "lender_receivables"."amount_cents" < 0))
);
--> statement-breakpoint
CREATE TABLE "test_disputes" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_intent_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"evidence_due_by" timestamp with time zone,
	"withdrawn_cents" integer DEFAULT 0 NOT NULL,
	"reinstated_cents" integer DEFAULT 0 NOT NULL,
	"fee_cents" integer DEFAULT 0 NOT NULL,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"submission_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "test_payment_intents" ADD COLUMN "dispute_on_capture" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_lender_id_users_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_borrower_id_users_id_fk" FOREIGN KEY ("borrower_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_evidence_submitted_by_users_id_fk" FOREIGN KEY ("evidence_submitted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_found_by_users_id_fk" FOREIGN KEY ("found_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lender_receivables" ADD CONSTRAINT "lender_receivables_lender_id_users_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lender_receivables" ADD CONSTRAINT "lender_receivables_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disputes_reservation_idx" ON "disputes" USING btree ("reservation_id");--> statement-breakpoint
CREATE INDEX "disputes_created_idx" ON "disputes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "lender_receivables_lender_idx" ON "lender_receivables" USING btree ("lender_id","created_at");--> statement-breakpoint
-- hand-written:
-- A receivable entry is never changed: only the link to a dispute that was deleted may be cleared.
CREATE FUNCTION "lender_receivables_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."lender_id" IS DISTINCT FROM OLD."lender_id" OR NEW."amount_cents" IS DISTINCT FROM OLD."amount_cents"
     OR NEW."reason" IS DISTINCT FROM OLD."reason" OR NEW."created_at" IS DISTINCT FROM OLD."created_at"
     OR NEW."dispute_id" IS NOT NULL AND NEW."dispute_id" IS DISTINCT FROM OLD."dispute_id" THEN
    RAISE EXCEPTION 'lender receivables are append-only';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "lender_receivables_append_only" BEFORE UPDATE ON "lender_receivables"
FOR EACH ROW EXECUTE FUNCTION "lender_receivables_append_only"();
