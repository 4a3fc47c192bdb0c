-- Item cards show their item's rating, and the item page's "Listed by" card its lender's:
-- a review (written, or revealed by the other party's) now also empties the lists of its item's campus
-- (list:<campus>), and the item pages of the lender it is about (rating:<reviewee>; the second review
-- of a booking reveals the first, which is about its writer: rating:<reviewer> too, only then). Otherwise
-- as in migration 0011.
CREATE OR REPLACE FUNCTION campusloop_reviews_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A review about a borrower names no item; its booking does, and the item's page shows the pair.
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || coalesce(v.item_id, r.item_id), 'list:' || i.campus,
        'profile:' || v.reviewee_id, 'profile:' || v.reviewer_id, 'rating:' || v.reviewee_id,
        CASE WHEN EXISTS (SELECT 1 FROM reviews c WHERE c.reservation_id = v.reservation_id AND c.reviewer_id = v.reviewee_id)
          THEN 'rating:' || v.reviewer_id END])
      FROM new_rows v LEFT JOIN reservations r ON r.id = v.reservation_id
      LEFT JOIN items i ON i.id = coalesce(v.item_id, r.item_id)));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || coalesce(v.item_id, r.item_id), 'list:' || i.campus,
        'profile:' || v.reviewee_id, 'profile:' || v.reviewer_id, 'rating:' || v.reviewee_id,
        CASE WHEN EXISTS (SELECT 1 FROM reviews c WHERE c.reservation_id = v.reservation_id AND c.reviewer_id = v.reviewee_id)
          THEN 'rating:' || v.reviewer_id END])
      FROM (SELECT item_id, reservation_id, reviewee_id, reviewer_id FROM old_rows
            UNION SELECT item_id, reservation_id, reviewee_id, reviewer_id FROM new_rows) AS v
      LEFT JOIN reservations r ON r.id = v.reservation_id
      LEFT JOIN items i ON i.id = coalesce(v.item_id, r.item_id)));
  ELSE
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || coalesce(v.item_id, r.item_id), 'list:' || i.campus,
        'profile:' || v.reviewee_id, 'profile:' || v.reviewer_id, 'rating:' || v.reviewee_id,
        CASE WHEN EXISTS (SELECT 1 FROM reviews c WHERE c.reservation_id = v.reservation_id AND c.reviewer_id = v.reviewee_id)
          THEN 'rating:' || v.reviewer_id END])
      FROM old_rows v LEFT JOIN reservations r ON r.id = v.reservation_id
      LEFT JOIN items i ON i.id = coalesce(v.item_id, r.item_id)));
  END IF;
  RETURN NULL;
END
$$;
