CREATE TABLE "reservation_handovers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"stage" text NOT NULL,
	"author_id" uuid NOT NULL,
	"photos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text,
	"note_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reservation_handovers_one_per_person" UNIQUE("reservation_id","stage","author_id"),
	CONSTRAINT "reservation_handovers_stage_check" CHECK ("reservation_handovers"."stage" in ('pickup', 'return')),
	CONSTRAINT "reservation_handovers_photos_check" CHECK (jsonb_typeof("reservation_handovers"."photos") = 'array' and jsonb_array_length("reservation_handovers"."photos") <= 5),
	CONSTRAINT "reservation_handovers_note_check" CHECK ("reservation_handovers"."note" is null or char_length("reservation_handovers"."note") <= 500)
);
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "picked_up_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reservation_handovers" ADD CONSTRAINT "reservation_handovers_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_handovers" ADD CONSTRAINT "reservation_handovers_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reservation_handovers_author_idx" ON "reservation_handovers" USING btree ("author_id");