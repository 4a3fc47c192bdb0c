CREATE TABLE "former_connected_accounts" (
	"account_id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"deauthorised_at" timestamp with time zone,
	"connected_at" timestamp with time zone NOT NULL,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD COLUMN "destination_account_id" text;--> statement-breakpoint
ALTER TABLE "former_connected_accounts" ADD CONSTRAINT "former_connected_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "former_connected_accounts_user_idx" ON "former_connected_accounts" USING btree ("user_id");--> statement-breakpoint
-- hand-written:
-- Transfers sent before this column went to the lender's only account so far.
UPDATE "payout_transfers" p SET "destination_account_id" = a."account_id"
FROM "connected_accounts" a
WHERE a."user_id" = p."lender_id" AND p."provider_transfer_id" IS NOT NULL AND p."destination_account_id" IS NULL;
