-- Search corrects typos in memory (features/items/vocabulary.ts): each server reads the vocabulary once and
-- then only the words learnt since, in the order of "learnt"; the trigram index served the per-search
-- correction query and is no longer read. "Available now" reads the items out with a borrower once,
-- through a partial index, instead of probing the reservations per candidate.
DROP INDEX "search_words_trgm_idx";--> statement-breakpoint
ALTER TABLE "search_words" ADD COLUMN "learnt" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "search_words_learnt_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
CREATE INDEX "search_words_learnt_idx" ON "search_words" USING btree ("learnt");--> statement-breakpoint
CREATE INDEX "reservations_out_item_idx" ON "reservations" USING btree ("item_id") WHERE "reservations"."status" = 'active';