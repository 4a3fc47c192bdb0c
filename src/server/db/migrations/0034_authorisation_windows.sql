ALTER TABLE "reservation_extensions" ADD COLUMN "authorised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "authorised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reservation_extensions" ADD COLUMN "lapse_reminded_at" timestamp with time zone;--> statement-breakpoint

-- hand-written:
-- Bookings and requests for more days made before this: their card was authorised no later than their
-- payment intent was recorded, so that time is a safe (early) stand-in for when it was authorised.
UPDATE "reservations" SET "authorised_at" = "payment_intents"."created_at"
  FROM "payment_intents"
  WHERE "payment_intents"."id" = "reservations"."stripe_payment_intent_id" AND "reservations"."authorised_at" IS NULL;--> statement-breakpoint
UPDATE "reservation_extensions" SET "authorised_at" = "payment_intents"."created_at"
  FROM "payment_intents"
  WHERE "payment_intents"."id" = "reservation_extensions"."payment_intent_id" AND "reservation_extensions"."authorised_at" IS NULL;
