-- Lists tagged by campus and category, searches by the items they show (decision 049,
-- src/server/cache/tags.ts). A change to an item now announces `list:<campus>:<category>` instead of
-- `list:<campus>`: it empties the lists of its campus and category, of its campus (every category), of
-- its category (every campus) and of everything, and no other category's lists. A booking going out or
-- coming back also announces `availability:<item>`, which empties the searches that show the item
-- (a search is no longer emptied by every new listing). `list:<campus>` is still announced for an
-- instance of the previous version during a rolling deploy (this version ignores it: the longer tag
-- says more). Otherwise as in migrations 0011, 0014 and 0017.
CREATE OR REPLACE FUNCTION campusloop_items_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus, 'list:' || campus || ':' || category])
      FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus, 'list:' || campus || ':' || category])
      FROM (SELECT id, user_id, campus, category FROM old_rows
            UNION SELECT id, user_id, campus, category FROM new_rows) AS changed));
  ELSE
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus, 'list:' || campus || ':' || category])
      FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION campusloop_reservations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['list:' || i.campus, 'list:' || i.campus || ':' || i.category, 'profile:' || i.user_id, 'availability:' || i.id])
      FROM new_rows r JOIN items i ON i.id = r.item_id WHERE r.status = 'active'));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['list:' || i.campus, 'list:' || i.campus || ':' || i.category, 'profile:' || i.user_id, 'availability:' || i.id])
      FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN items i ON i.id IN (o.item_id, n.item_id)
      WHERE (o.status = 'active') IS DISTINCT FROM (n.status = 'active') OR (n.status = 'active' AND o.item_id <> n.item_id)));
    PERFORM campusloop_announce(ARRAY(
      SELECT DISTINCT 'profile:' || n.provider_id
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.approved_at IS NULL) IS DISTINCT FROM (n.approved_at IS NULL)
         OR o.cancelled_by IS DISTINCT FROM n.cancelled_by));
  ELSE
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['list:' || i.campus, 'list:' || i.campus || ':' || i.category, 'profile:' || i.user_id, 'availability:' || i.id])
      FROM old_rows r JOIN items i ON i.id = r.item_id WHERE r.status = 'active'));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION campusloop_reviews_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A review about a borrower names no item; its booking does, and the item's page shows the pair.
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || coalesce(v.item_id, r.item_id), 'list:' || i.campus, 'list:' || i.campus || ':' || i.category,
        'profile:' || v.reviewee_id, 'profile:' || v.reviewer_id, 'rating:' || v.reviewee_id,
        CASE WHEN EXISTS (SELECT 1 FROM reviews c WHERE c.reservation_id = v.reservation_id AND c.reviewer_id = v.reviewee_id)
          THEN 'rating:' || v.reviewer_id END])
      FROM new_rows v LEFT JOIN reservations r ON r.id = v.reservation_id
      LEFT JOIN items i ON i.id = coalesce(v.item_id, r.item_id)));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || coalesce(v.item_id, r.item_id), 'list:' || i.campus, 'list:' || i.campus || ':' || i.category,
        'profile:' || v.reviewee_id, 'profile:' || v.reviewer_id, 'rating:' || v.reviewee_id,
        CASE WHEN EXISTS (SELECT 1 FROM reviews c WHERE c.reservation_id = v.reservation_id AND c.reviewer_id = v.reviewee_id)
          THEN 'rating:' || v.reviewer_id END])
      FROM (SELECT item_id, reservation_id, reviewee_id, reviewer_id FROM old_rows
            UNION SELECT item_id, reservation_id, reviewee_id, reviewer_id FROM new_rows) AS v
      LEFT JOIN reservations r ON r.id = v.reservation_id
      LEFT JOIN items i ON i.id = coalesce(v.item_id, r.item_id)));
  ELSE
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || coalesce(v.item_id, r.item_id), 'list:' || i.campus, 'list:' || i.campus || ':' || i.category,
        'profile:' || v.reviewee_id, 'profile:' || v.reviewer_id, 'rating:' || v.reviewee_id,
        CASE WHEN EXISTS (SELECT 1 FROM reviews c WHERE c.reservation_id = v.reservation_id AND c.reviewer_id = v.reviewee_id)
          THEN 'rating:' || v.reviewer_id END])
      FROM old_rows v LEFT JOIN reservations r ON r.id = v.reservation_id
      LEFT JOIN items i ON i.id = coalesce(v.item_id, r.item_id)));
  END IF;
  RETURN NULL;
END
$$;
