-- A borrower rates the lender and the item apart (decision 053): item_rating is the item's, rating the
-- lender's. Existing borrower reviews keep item_rating null: they were one rating for both, and the
-- item's average reads coalesce(item_rating, rating).
ALTER TABLE "reviews" ADD COLUMN "item_rating" smallint;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_item_rating_check" CHECK ("reviews"."item_rating" between 1 and 5);
