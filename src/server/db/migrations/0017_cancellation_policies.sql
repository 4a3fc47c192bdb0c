-- Decision 024: each item's cancellation policy, and the policy a reservation was made under
-- (a later change of the item's does not apply to it); who cancelled and when the lender approved, so a
-- lender's cancellations count against the bookings they approved; the 'policy' payment step purpose.
ALTER TABLE "items" ADD COLUMN "cancellation_policy" text DEFAULT 'flexible' NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "cancellation_policy" text DEFAULT 'flexible' NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_cancellation_policy_check" CHECK ("items"."cancellation_policy" in ('flexible', 'moderate', 'strict'));--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_cancellation_policy_check" CHECK ("reservations"."cancellation_policy" in ('flexible', 'moderate', 'strict'));--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_cancelled_by_check" CHECK ("reservations"."cancelled_by" is null or "reservations"."cancelled_by" in ('borrower', 'provider', 'system'));--> statement-breakpoint
ALTER TABLE "payment_steps" DROP CONSTRAINT "payment_steps_purpose_check";--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_steps" ADD CONSTRAINT "payment_steps_purpose_check" CHECK ("payment_steps"."purpose" in ('approval', 'decline', 'cancellation', 'policy', 'expiry', 'overlap', 'deposit', 'abandoned', 'support'));--> statement-breakpoint
-- Bookings approved before this migration: the request's time stands in for the approval's (only counts read it).
UPDATE "reservations" SET "approved_at" = "created_at" WHERE "status" IN ('approved', 'active', 'completed');
--> statement-breakpoint
-- A lender's profile now shows their cancellations of approved bookings ("cancelled 1 of 12"): an
-- approval or a cancellation makes the lender's cached profile stale too (decision 016's tags).
CREATE OR REPLACE FUNCTION campusloop_reservations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['list:' || i.campus, 'profile:' || i.user_id])
      FROM new_rows r JOIN items i ON i.id = r.item_id WHERE r.status = 'active'));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['list:' || i.campus, 'profile:' || i.user_id])
      FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN items i ON i.id IN (o.item_id, n.item_id)
      WHERE (o.status = 'active') IS DISTINCT FROM (n.status = 'active') OR (n.status = 'active' AND o.item_id <> n.item_id)));
    PERFORM campusloop_announce(ARRAY(
      SELECT DISTINCT 'profile:' || n.provider_id
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.approved_at IS NULL) IS DISTINCT FROM (n.approved_at IS NULL)
         OR o.cancelled_by IS DISTINCT FROM n.cancelled_by));
  ELSE
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['list:' || i.campus, 'profile:' || i.user_id])
      FROM old_rows r JOIN items i ON i.id = r.item_id WHERE r.status = 'active'));
  END IF;
  RETURN NULL;
END
$$;
