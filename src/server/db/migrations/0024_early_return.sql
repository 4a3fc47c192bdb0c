ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "payment_steps" DROP CONSTRAINT "payment_steps_purpose_check";--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "rental_period" text;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "booked_end_date" date;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "early_refund_cents" integer;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('reservation_request', 'reservation_approved', 'reservation_declined', 'reservation_cancelled', 'reservation_expired', 'reservation_started', 'reservation_completed', 'deposit_refunded', 'review_request', 'review_received', 'badge_earned', 'report_update', 'system', 'pickup_reminder', 'return_reminder', 'request_expiring', 'waitlist_available', 'return_confirm', 'deposit_claim', 'overdue', 'extension_requested', 'extension_approved', 'extension_declined', 'extension_cancelled', 'early_return'));--> statement-breakpoint
ALTER TABLE "payment_steps" ADD CONSTRAINT "payment_steps_purpose_check" CHECK ("payment_steps"."purpose" in ('approval', 'decline', 'cancellation', 'policy', 'expiry', 'overlap', 'deposit', 'claim', 'early_return', 'abandoned', 'support'));--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_rental_period_check" CHECK ("reservations"."rental_period" in ('day', 'week', 'month'));--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_early_return_check" CHECK (("reservations"."booked_end_date" is null) = ("reservations"."early_refund_cents" is null) and ("reservations"."booked_end_date" is null or ("reservations"."booked_end_date" > "reservations"."end_date" and "reservations"."early_refund_cents" >= 0)));--> statement-breakpoint
-- Bookings made before: the rental period their price was counted by is the item's (decision 034).
UPDATE "reservations" SET "rental_period" = "items"."rental_period" FROM "items" WHERE "items"."id" = "reservations"."item_id";
