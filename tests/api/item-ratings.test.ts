import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createItem, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Item cards and pages show the item's real rating, and the "Listed by" card the lender's,
// from revealed reviews only (a review shows once the other party has written theirs, or after
// 14 days: db/review-visibility.ts); nothing without reviews.

const t = setupTestApp();
const db = () => t.database.db;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A completed booking of `itemId` and the review `from` wrote about `to`, `daysAgo` days ago. */
async function review(o: {
  itemId: string;
  lenderId: string;
  borrowerId: string;
  rating: number;
  daysAgo: number;
  lenderReviewsToo?: number;
}) {
  const written = new Date(Date.now() - o.daysAgo * DAY_MS).toISOString();
  const [booking] = (
    await db().execute<{ id: string }>(sql`
      insert into reservations (item_id, borrower_id, provider_id, start_date, end_date, status)
      values (${o.itemId}, ${o.borrowerId}, ${o.lenderId}, '2026-01-01', '2026-01-03', 'completed')
      returning id`)
  ).rows;
  await db().execute(sql`
    insert into reviews (reservation_id, reviewer_id, reviewee_id, item_id, rating, comment, review_type, created_at)
    values (${booking!.id}, ${o.borrowerId}, ${o.lenderId}, ${o.itemId}, ${o.rating}, 'Review', 'borrower_to_lender', ${written}::timestamptz)`);
  if (o.lenderReviewsToo) {
    await db().execute(sql`
      insert into reviews (reservation_id, reviewer_id, reviewee_id, item_id, rating, comment, review_type)
      values (${booking!.id}, ${o.lenderId}, ${o.borrowerId}, null, ${o.lenderReviewsToo}, 'Borrower', 'lender_to_borrower')`);
  }
}

let drill: { id: string };
let saw: { id: string };
let lamp: { id: string };
let lender: { id: string };

beforeAll(async () => {
  lender = await createUser(db());
  const [ana, ben, cal] = [await createUser(db()), await createUser(db()), await createUser(db())];
  drill = await createItem(db(), { userId: lender.id, title: 'Ratingtest drill' });
  saw = await createItem(db(), { userId: lender.id, title: 'Ratingtest saw' });
  lamp = await createItem(db(), { userId: lender.id, title: 'Ratingtest lamp' });
  const on = { lenderId: lender.id };
  // The drill: 4 stars revealed by time, 5 revealed by the lender's answer, 1 still hidden.
  await review({ ...on, itemId: drill.id, borrowerId: ana.id, rating: 4, daysAgo: 20 });
  await review({ ...on, itemId: drill.id, borrowerId: ben.id, rating: 5, daysAgo: 1, lenderReviewsToo: 3 });
  await review({ ...on, itemId: drill.id, borrowerId: cal.id, rating: 1, daysAgo: 1 });
  // The saw: one 2-star review, revealed by time. The lamp: none.
  await review({ ...on, itemId: saw.id, borrowerId: ana.id, rating: 2, daysAgo: 30 });
});

const ratingsIn = async (url: string) => {
  const answer = await t.get(url);
  expect(answer.statusCode).toBe(200);
  const list = answer.json().items as { title: string; rating: unknown }[];
  return Object.fromEntries(list.map((item) => [item.title, item.rating]));
};

describe('item ratings', () => {
  it('lists each item with the average and count of its revealed reviews, none without', async () => {
    const expected = {
      'Ratingtest drill': { average: 4.5, count: 2 },
      'Ratingtest saw': { average: 2, count: 1 },
      'Ratingtest lamp': null,
    };
    expect(await ratingsIn('/api/items?campus=all&searchQuery=ratingtest')).toEqual(expected);
    // Another list shape (prepared apart): the same ratings.
    const everything = await ratingsIn('/api/items?campus=stanford.edu&category=tools&limit=50');
    expect(everything['Ratingtest drill']).toEqual(expected['Ratingtest drill']);
    expect(everything['Ratingtest lamp']).toBeNull();
  });

  it('shows the item’s rating and the lender’s over every revealed review they received', async () => {
    const page = (await t.get(`/api/items/${drill.id}`)).json();
    expect(page.item.rating).toEqual({ average: 4.5, count: 2 });
    expect(page.reviews).toHaveLength(2);
    // 4, 5 and 2 (the hidden 1 does not count; the lender's review of a borrower is not about them).
    expect(page.lenderRating.count).toBe(3);
    expect(page.lenderRating.average).toBeCloseTo(11 / 3, 5);
    const profile = (await t.get(`/api/users/${lender.id}`)).json();
    expect(profile.items.find((item: { id: string }) => item.id === saw.id).rating).toEqual({
      average: 2,
      count: 1,
    });
  });

  it('shows no rating for an item without reviews, nor for a lender without any', async () => {
    expect((await t.get(`/api/items/${lamp.id}`)).json().item.rating).toBeNull();
    const newcomer = await createUser(db());
    const tent = await createItem(db(), { userId: newcomer.id, title: 'Unrated tent' });
    const page = (await t.get(`/api/items/${tent.id}`)).json();
    expect(page.item.rating).toBeNull();
    expect(page.lenderRating).toBeNull();
  });
});
