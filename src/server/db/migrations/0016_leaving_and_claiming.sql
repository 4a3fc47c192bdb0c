ALTER TABLE "email_verifications" ADD COLUMN "pending_full_name" text;--> statement-breakpoint
ALTER TABLE "email_verifications" ADD COLUMN "pending_username" text;--> statement-breakpoint
ALTER TABLE "email_verifications" ADD COLUMN "pending_password_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;