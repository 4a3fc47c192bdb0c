CREATE TABLE "platform_fee_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid,
	"payment_intent_id" text NOT NULL,
	"part" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_fee_entries_part_check" CHECK ("platform_fee_entries"."part" in ('service_fee', 'commission')),
	CONSTRAINT "platform_fee_entries_amount_check" CHECK ("platform_fee_entries"."amount_cents" <> 0)
);
--> statement-breakpoint
ALTER TABLE "reservation_extensions" DROP CONSTRAINT "reservation_extensions_amount_check";--> statement-breakpoint
ALTER TABLE "payment_intents" DROP CONSTRAINT "payment_intents_amounts_check";--> statement-breakpoint
ALTER TABLE "reservation_extensions" ADD COLUMN "service_fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reservation_extensions" ADD COLUMN "service_fee_percent" numeric(5, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reservation_extensions" ADD COLUMN "lender_commission_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reservation_extensions" ADD COLUMN "lender_commission_percent" numeric(5, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "service_fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "service_fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "service_fee_percent" numeric(5, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "lender_commission_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "lender_commission_percent" numeric(5, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "platform_fee_entries" ADD CONSTRAINT "platform_fee_entries_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platform_fee_entries_payment_idx" ON "platform_fee_entries" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE INDEX "platform_fee_entries_created_idx" ON "platform_fee_entries" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "reservation_extensions" ADD CONSTRAINT "reservation_extensions_amount_check" CHECK ("reservation_extensions"."rental_cents" >= 0 and "reservation_extensions"."service_fee_cents" >= 0 and "reservation_extensions"."lender_commission_cents" >= 0 and "reservation_extensions"."lender_commission_cents" <= "reservation_extensions"."rental_cents");--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_amounts_check" CHECK ("payment_intents"."rental_cents" >= 0 and "payment_intents"."deposit_cents" >= 0 and "payment_intents"."service_fee_cents" >= 0 and "payment_intents"."amount_cents" = "payment_intents"."rental_cents" + "payment_intents"."service_fee_cents" + "payment_intents"."deposit_cents");--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_platform_share_check" CHECK ("reservations"."service_fee_cents" >= 0 and "reservations"."lender_commission_cents" >= 0 and "reservations"."lender_commission_cents" <= "reservations"."rental_cents");--> statement-breakpoint
-- hand-written:
-- A platform fee entry is never changed: only the link to a reservation that was deleted may be cleared.
CREATE FUNCTION "platform_fee_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."amount_cents" IS DISTINCT FROM OLD."amount_cents" OR NEW."part" IS DISTINCT FROM OLD."part"
     OR NEW."payment_intent_id" IS DISTINCT FROM OLD."payment_intent_id"
     OR NEW."created_at" IS DISTINCT FROM OLD."created_at"
     OR NEW."reservation_id" IS NOT NULL AND NEW."reservation_id" IS DISTINCT FROM OLD."reservation_id" THEN
    RAISE EXCEPTION 'platform fee entries are append-only';
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "platform_fee_entries_append_only" BEFORE UPDATE ON "platform_fee_entries"
FOR EACH ROW EXECUTE FUNCTION "platform_fee_entries_append_only"();
