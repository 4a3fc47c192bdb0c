-- A new listing's announcement names the listing (decision 083): `list:<campus>:<category>:new:<price
-- in cents, or empty when free>:<pickup>:<id>`, so an instance can read its card once and put it on
-- the first page of each newest-first list it enters, instead of recomputing those lists. An instance
-- of the previous version reads a new-listing tag of another shape as one it does not know and drops
-- every list, which is safe during a rolling deploy. Otherwise as in migration 0054.
CREATE OR REPLACE FUNCTION campusloop_items_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus,
        'list:' || campus || ':' || category || ':new:' || coalesce(rental_price_cents::text, '') || ':' || pickup_method
          || ':' || id])
      FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus, 'list:' || campus || ':' || category])
      FROM (SELECT o.id, o.user_id, o.campus, o.category FROM old_rows o JOIN new_rows n ON n.id = o.id
            WHERE o.out_count = n.out_count OR (to_jsonb(o) - 'out_count') IS DISTINCT FROM (to_jsonb(n) - 'out_count')
            UNION SELECT n.id, n.user_id, n.campus, n.category FROM old_rows o JOIN new_rows n ON n.id = o.id
            WHERE o.out_count = n.out_count OR (to_jsonb(o) - 'out_count') IS DISTINCT FROM (to_jsonb(n) - 'out_count')) AS changed));
  ELSE
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus, 'list:' || campus || ':' || category])
      FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;
