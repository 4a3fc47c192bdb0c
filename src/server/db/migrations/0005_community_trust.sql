CREATE TABLE "impact_contributions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"campus" text NOT NULL,
	"category" text NOT NULL,
	"lender_id" uuid NOT NULL,
	"borrower_id" uuid NOT NULL,
	"money_saved_cents" integer NOT NULL,
	"co2_saved_grams" integer NOT NULL,
	"waste_reduced_grams" integer NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "impact_contributions_reservation_id_unique" UNIQUE("reservation_id"),
	CONSTRAINT "impact_contributions_category_check" CHECK ("impact_contributions"."category" in ('clothing', 'tools', 'books', 'kitchen', 'professional', 'electronics', 'furniture', 'other')),
	CONSTRAINT "impact_contributions_nonnegative_check" CHECK ("impact_contributions"."money_saved_cents" >= 0 and "impact_contributions"."co2_saved_grams" >= 0 and "impact_contributions"."waste_reduced_grams" >= 0)
);
--> statement-breakpoint
CREATE TABLE "moderation_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"admin_id" uuid,
	"action" text NOT NULL,
	"report_id" uuid,
	"target_user_id" uuid,
	"target_item_id" uuid,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_actions_action_check" CHECK ("moderation_actions"."action" in ('note', 'resolve', 'dismiss', 'hide_item', 'unhide_item', 'suspend_user', 'unsuspend_user'))
);
--> statement-breakpoint
CREATE TABLE "email_verifications" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "impact_contributions" ADD CONSTRAINT "impact_contributions_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "impact_contributions" ADD CONSTRAINT "impact_contributions_lender_id_users_id_fk" FOREIGN KEY ("lender_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "impact_contributions" ADD CONSTRAINT "impact_contributions_borrower_id_users_id_fk" FOREIGN KEY ("borrower_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_target_item_id_items_id_fk" FOREIGN KEY ("target_item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_verifications" ADD CONSTRAINT "email_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "impact_contributions_campus_completed_idx" ON "impact_contributions" USING btree ("campus","completed_at");--> statement-breakpoint
CREATE INDEX "moderation_actions_user_idx" ON "moderation_actions" USING btree ("target_user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "moderation_actions_item_idx" ON "moderation_actions" USING btree ("target_item_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "email_verifications_user_idx" ON "email_verifications" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_item_unique" ON "reports" USING btree ("reporter_id","reported_item_id") WHERE "reports"."status" = 'pending' and "reports"."reported_item_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_user_unique" ON "reports" USING btree ("reporter_id","reported_user_id") WHERE "reports"."status" = 'pending' and "reports"."reported_item_id" is null;--> statement-breakpoint
UPDATE "reservations" SET "completed_at" = "updated_at" WHERE "status" = 'completed';
