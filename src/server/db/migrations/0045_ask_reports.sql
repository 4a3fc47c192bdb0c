ALTER TABLE "moderation_actions" DROP CONSTRAINT "moderation_actions_action_check";--> statement-breakpoint
DROP INDEX "reports_open_user_unique";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "reported_ask_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reported_ask_id_asks_id_fk" FOREIGN KEY ("reported_ask_id") REFERENCES "public"."asks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_ask_unique" ON "reports" USING btree ("reporter_id","reported_ask_id") WHERE "reports"."status" = 'pending' and "reports"."reported_ask_id" is not null;--> statement-breakpoint
CREATE INDEX "reports_ask_idx" ON "reports" USING btree ("reported_ask_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reports_open_user_unique" ON "reports" USING btree ("reporter_id","reported_user_id") WHERE "reports"."status" = 'pending' and "reports"."reported_item_id" is null and "reports"."reported_ask_id" is null;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_action_check" CHECK ("moderation_actions"."action" in ('note', 'resolve', 'dismiss', 'hide_item', 'unhide_item', 'suspend_user', 'unsuspend_user', 'hide_ask'));--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_ask_check" CHECK ("reports"."reported_ask_id" is null or ("reports"."reported_item_id" is null and "reports"."reported_user_id" is not null));