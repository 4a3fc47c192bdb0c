CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"seller_id" uuid NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversations_item_buyer_seller_unique" UNIQUE("item_id","buyer_id","seller_id"),
	CONSTRAINT "conversations_parties_check" CHECK ("conversations"."buyer_id" <> "conversations"."seller_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"sender_id" uuid NOT NULL,
	"content" text NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_content_check" CHECK (char_length("messages"."content") between 1 and 1000)
);
--> statement-breakpoint
CREATE TABLE "campus_impact" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campus" text NOT NULL,
	"items_shared" integer DEFAULT 0 NOT NULL,
	"co2_saved_grams" bigint DEFAULT 0 NOT NULL,
	"money_saved_cents" bigint DEFAULT 0 NOT NULL,
	"waste_reduced_grams" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campus_impact_campus_unique" UNIQUE("campus"),
	CONSTRAINT "campus_impact_nonnegative_check" CHECK ("campus_impact"."items_shared" >= 0 and "campus_impact"."co2_saved_grams" >= 0 and "campus_impact"."money_saved_cents" >= 0 and "campus_impact"."waste_reduced_grams" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reporter_id" uuid NOT NULL,
	"reported_user_id" uuid,
	"reported_item_id" uuid,
	"reason" text NOT NULL,
	"description" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"admin_notes" text,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_reason_check" CHECK ("reports"."reason" in ('scam', 'inappropriate', 'fake_listing', 'harassment', 'spam', 'other')),
	CONSTRAINT "reports_status_check" CHECK ("reports"."status" in ('pending', 'resolved', 'dismissed')),
	CONSTRAINT "reports_description_check" CHECK (char_length("reports"."description") between 10 and 1000),
	CONSTRAINT "reports_target_check" CHECK ("reports"."reported_user_id" is not null or "reports"."reported_item_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"reviewer_id" uuid NOT NULL,
	"reviewee_id" uuid NOT NULL,
	"item_id" uuid,
	"rating" smallint NOT NULL,
	"comment" text NOT NULL,
	"review_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviews_reservation_reviewer_unique" UNIQUE("reservation_id","reviewer_id"),
	CONSTRAINT "reviews_rating_check" CHECK ("reviews"."rating" between 1 and 5),
	CONSTRAINT "reviews_type_check" CHECK ("reviews"."review_type" in ('borrower_to_lender', 'lender_to_borrower')),
	CONSTRAINT "reviews_parties_check" CHECK ("reviews"."reviewer_id" <> "reviews"."reviewee_id")
);
--> statement-breakpoint
CREATE TABLE "user_badges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"badge_type" text NOT NULL,
	"earned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_badges_user_type_unique" UNIQUE("user_id","badge_type")
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"images" text[] DEFAULT '{}'::text[] NOT NULL,
	"condition" text NOT NULL,
	"deposit_cents" integer,
	"rental_price_cents" integer,
	"rental_period" text,
	"pickup_method" text NOT NULL,
	"pickup_location" text,
	"available_from" date NOT NULL,
	"available_until" date,
	"available_days" smallint[] DEFAULT '{0,1,2,3,4,5,6}'::smallint[] NOT NULL,
	"is_available" boolean DEFAULT true NOT NULL,
	"campus" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "items_category_check" CHECK ("items"."category" in ('clothing', 'tools', 'books', 'kitchen', 'professional', 'electronics', 'furniture', 'other')),
	CONSTRAINT "items_condition_check" CHECK ("items"."condition" in ('new', 'like-new', 'good', 'fair', 'worn')),
	CONSTRAINT "items_pickup_method_check" CHECK ("items"."pickup_method" in ('meetup', 'locker')),
	CONSTRAINT "items_rental_period_check" CHECK ("items"."rental_period" is null or "items"."rental_period" in ('day', 'week', 'month')),
	CONSTRAINT "items_deposit_check" CHECK ("items"."deposit_cents" is null or "items"."deposit_cents" >= 0),
	CONSTRAINT "items_rental_price_check" CHECK ("items"."rental_price_cents" is null or "items"."rental_price_cents" >= 0),
	CONSTRAINT "items_images_check" CHECK (cardinality("items"."images") <= 5),
	CONSTRAINT "items_available_days_check" CHECK (cardinality("items"."available_days") between 1 and 7 and "items"."available_days" <@ '{0,1,2,3,4,5,6}'::smallint[]),
	CONSTRAINT "items_window_check" CHECK ("items"."available_until" is null or "items"."available_until" >= "items"."available_from")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"related_reservation_id" uuid,
	"related_item_id" uuid,
	"is_read" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" in ('reservation_request', 'reservation_approved', 'reservation_declined', 'reservation_cancelled', 'reservation_expired', 'reservation_started', 'reservation_completed', 'deposit_refunded', 'review_request', 'review_received', 'badge_earned', 'report_update', 'system'))
);
--> statement-breakpoint
CREATE TABLE "billing_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"reservation_id" uuid,
	"stripe_payment_intent_id" text,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" text NOT NULL,
	"description" text NOT NULL,
	"payment_method_type" text,
	"payment_method_last4" text,
	"refund_amount_cents" integer,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_history_status_check" CHECK ("billing_history"."status" in ('completed', 'pending', 'failed', 'refunded')),
	CONSTRAINT "billing_history_amounts_check" CHECK ("billing_history"."amount_cents" >= 0 and ("billing_history"."refund_amount_cents" is null or "billing_history"."refund_amount_cents" >= 0))
);
--> statement-breakpoint
CREATE TABLE "saved_payment_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"stripe_payment_method_id" text NOT NULL,
	"type" text DEFAULT 'card' NOT NULL,
	"brand" text,
	"last4" text,
	"expiry_month" smallint,
	"expiry_year" smallint,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_payment_methods_stripe_payment_method_id_unique" UNIQUE("stripe_payment_method_id"),
	CONSTRAINT "saved_payment_methods_expiry_check" CHECK ("saved_payment_methods"."expiry_month" is null or "saved_payment_methods"."expiry_month" between 1 and 12)
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"borrower_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"deposit_cents" integer DEFAULT 0 NOT NULL,
	"rental_cents" integer DEFAULT 0 NOT NULL,
	"stripe_payment_intent_id" text,
	"pickup_code" text,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reservations_status_check" CHECK ("reservations"."status" in ('pending', 'approved', 'active', 'completed', 'cancelled', 'declined')),
	CONSTRAINT "reservations_dates_check" CHECK ("reservations"."end_date" >= "reservations"."start_date"),
	CONSTRAINT "reservations_amounts_check" CHECK ("reservations"."deposit_cents" >= 0 and "reservations"."rental_cents" >= 0),
	CONSTRAINT "reservations_parties_check" CHECK ("reservations"."borrower_id" <> "reservations"."provider_id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"full_name" text NOT NULL,
	"campus" text NOT NULL,
	"profile_image" text,
	"is_verified" boolean DEFAULT false NOT NULL,
	"stripe_customer_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reported_user_id_users_id_fk" FOREIGN KEY ("reported_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reported_item_id_items_id_fk" FOREIGN KEY ("reported_item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_reviewee_id_users_id_fk" FOREIGN KEY ("reviewee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_badges" ADD CONSTRAINT "user_badges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_related_reservation_id_reservations_id_fk" FOREIGN KEY ("related_reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_related_item_id_items_id_fk" FOREIGN KEY ("related_item_id") REFERENCES "public"."items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_history" ADD CONSTRAINT "billing_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_history" ADD CONSTRAINT "billing_history_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_payment_methods" ADD CONSTRAINT "saved_payment_methods_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_borrower_id_users_id_fk" FOREIGN KEY ("borrower_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_buyer_last_idx" ON "conversations" USING btree ("buyer_id","last_message_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_seller_last_idx" ON "conversations" USING btree ("seller_id","last_message_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_conversation_created_idx" ON "messages" USING btree ("conversation_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_unread_idx" ON "messages" USING btree ("conversation_id","sender_id") WHERE "messages"."is_read" = false;--> statement-breakpoint
CREATE INDEX "reports_status_created_idx" ON "reports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "reports_reporter_idx" ON "reports" USING btree ("reporter_id");--> statement-breakpoint
CREATE INDEX "reports_item_idx" ON "reports" USING btree ("reported_item_id");--> statement-breakpoint
CREATE INDEX "reports_user_idx" ON "reports" USING btree ("reported_user_id");--> statement-breakpoint
CREATE INDEX "reviews_reviewee_created_idx" ON "reviews" USING btree ("reviewee_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reviews_item_created_idx" ON "reviews" USING btree ("item_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "items_campus_created_idx" ON "items" USING btree ("campus","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "items_category_created_idx" ON "items" USING btree ("category","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "items_created_idx" ON "items" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "items_user_created_idx" ON "items" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS LAST) WHERE "notifications"."is_read" = false;--> statement-breakpoint
CREATE INDEX "billing_history_user_created_idx" ON "billing_history" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "billing_history_reservation_idx" ON "billing_history" USING btree ("reservation_id");--> statement-breakpoint
CREATE INDEX "saved_payment_methods_user_idx" ON "saved_payment_methods" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "saved_payment_methods_one_default" ON "saved_payment_methods" USING btree ("user_id") WHERE "saved_payment_methods"."is_default";--> statement-breakpoint
CREATE INDEX "reservations_borrower_created_idx" ON "reservations" USING btree ("borrower_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reservations_provider_created_idx" ON "reservations" USING btree ("provider_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reservations_item_status_idx" ON "reservations" USING btree ("item_id","status","start_date");--> statement-breakpoint
CREATE INDEX "reservations_pending_created_idx" ON "reservations" USING btree ("created_at") WHERE "reservations"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_unique" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_stripe_customer_unique" ON "users" USING btree ("stripe_customer_id");--> statement-breakpoint
CREATE INDEX "users_campus_idx" ON "users" USING btree ("campus");