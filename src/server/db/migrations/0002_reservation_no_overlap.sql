-- Spec §4: an item can be out with only one borrower at a time. The database,
-- not the application, refuses a second approved or active reservation whose days overlap, so two
-- simultaneous approvals can never both win. drizzle-kit cannot express EXCLUDE, hence by hand.
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_no_overlap"
  EXCLUDE USING gist ("item_id" WITH =, daterange("start_date", "end_date", '[]') WITH &&)
  WHERE ("status" IN ('approved', 'active'));
