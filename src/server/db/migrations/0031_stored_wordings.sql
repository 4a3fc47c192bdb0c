-- Notifications and billing rows keep how their words were written (decision 052, src/server/wordings.ts),
-- so they are written again in the reader's language when read. Rows from before keep their stored
-- text: with no wording, it is what is read, as before.
ALTER TABLE "notifications" ADD COLUMN "wording_kind" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "wording_values" jsonb;--> statement-breakpoint
ALTER TABLE "billing_history" ADD COLUMN "description_kind" text;--> statement-breakpoint
ALTER TABLE "billing_history" ADD COLUMN "description_values" jsonb;