-- A new listing enters only the lists whose filters it meets (decision 080). Its announcement now says
-- what those filters read: `list:<campus>:<category>:new:<price in cents, or empty when free>:<pickup>`,
-- so an instance drops the lists of its campus and category that could show it (no "free only" list
-- for a priced item, no price cap below its price, no other pickup), not all of them. The tag replaces
-- `list:<campus>:<category>` for an insert only: a change or removal still announces that, as its old
-- state is not told. An instance of the previous version reads a list tag of more than two parts as
-- one it does not know and drops every list, which is safe during a rolling deploy. `list:<campus>`
-- stays for older instances still. Otherwise as in migration 0052.
CREATE OR REPLACE FUNCTION campusloop_items_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM campusloop_announce(ARRAY(
      SELECT unnest(ARRAY['item:' || id, 'profile:' || user_id, 'list:' || campus,
        'list:' || campus || ':' || category || ':new:' || coalesce(rental_price_cents::text, '') || ':' || pickup_method])
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
