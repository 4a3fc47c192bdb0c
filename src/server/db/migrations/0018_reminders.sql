-- Reminders: which reminders each reservation has had (at most one of each kind), and the
-- notification types they send.
CREATE TABLE "reservation_reminders" (
	"reservation_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reservation_reminders_reservation_id_kind_pk" PRIMARY KEY("reservation_id","kind"),
	CONSTRAINT "reservation_reminders_kind_check" CHECK ("reservation_reminders"."kind" in ('pickup_eve', 'pickup_morning', 'return_eve', 'return_morning', 'request_expiring'))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "reservation_reminders" ADD CONSTRAINT "reservation_reminders_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('reservation_request', 'reservation_approved', 'reservation_declined', 'reservation_cancelled', 'reservation_expired', 'reservation_started', 'reservation_completed', 'deposit_refunded', 'review_request', 'review_received', 'badge_earned', 'report_update', 'system', 'pickup_reminder', 'return_reminder', 'request_expiring'));