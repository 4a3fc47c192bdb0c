import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { reviews } from '../../src/server/db/schema/community.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// A borrower rates the lender and the item apart (decision 053): the item's average comes from the
// item ratings, the lender's from the ratings of the lender. The lender still gives one rating.

const t = setupTestApp();
const db = () => t.database.db;
const DAY_MS = 24 * 60 * 60 * 1000;

async function people() {
  const lender = await createSignedInUser(db());
  const borrower = await createSignedInUser(db());
  const item = await createItem(db(), { userId: lender.user.id, title: 'Two-ratings kayak' });
  return { lender, borrower, item };
}
type People = Awaited<ReturnType<typeof people>>;

async function completed({ lender, borrower, item }: People, day: string) {
  const [row] = await db()
    .insert(reservations)
    .values({
      itemId: item.id,
      borrowerId: borrower.user.id,
      providerId: lender.user.id,
      startDate: day,
      endDate: day,
      status: 'completed',
      completedAt: new Date(),
    })
    .returning();
  return row!.id;
}

const body = (reservationId: string, extra: Record<string, unknown>) => ({
  reservationId,
  comment: 'Went well, thanks!',
  ...extra,
});

describe('a borrower’s two ratings', () => {
  it('counts the item rating for the item and the lender rating for the lender', async () => {
    const s = await people();
    const id = await completed(s, '2026-01-05');

    const mine = await t.post('/api/reviews', body(id, { rating: 2, itemRating: 5 }), s.borrower.cookie);
    expect(mine.statusCode).toBe(201);
    expect(mine.json().review).toMatchObject({ rating: 2, itemRating: 5, revealed: false });
    // The lender's review is about the borrower alone: an item rating sent with it is not kept.
    const theirs = await t.post('/api/reviews', body(id, { rating: 4, itemRating: 1 }), s.lender.cookie);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().review).toMatchObject({ rating: 4, itemRating: null, revealed: true });

    const page = (await t.get(`/api/items/${s.item.id}`)).json();
    expect(page.item.rating).toEqual({ average: 5, count: 1 });
    expect(page.lenderRating).toEqual({ average: 2, count: 1 });
    expect(page.reviews).toEqual([expect.objectContaining({ rating: 2, itemRating: 5 })]);
    const listed = (await t.get('/api/items?campus=all&searchQuery=two-ratings')).json().items as {
      id: string;
      rating: unknown;
    }[];
    expect(listed.find((item) => item.id === s.item.id)?.rating).toEqual({ average: 5, count: 1 });

    const lenderProfile = (await t.get(`/api/users/${s.lender.user.id}`)).json();
    expect(lenderProfile.stats).toMatchObject({ reviewCount: 1, averageRating: 2 });
    const borrowerProfile = (await t.get(`/api/users/${s.borrower.user.id}`)).json();
    expect(borrowerProfile.stats).toMatchObject({ reviewCount: 1, averageRating: 4 });
    expect((await t.get('/api/reviews/mine', s.borrower.cookie)).json().reviews).toEqual([
      expect.objectContaining({ reservationId: id, rating: 2, itemRating: 5 }),
    ]);
  });

  it('lets a single rating stand for both, as reviews did before', async () => {
    const s = await people();
    const first = await completed(s, '2026-01-05');
    const second = await completed(s, '2026-01-07');
    expect(
      (await t.post('/api/reviews', body(first, { rating: 1, itemRating: 5 }), s.borrower.cookie)).statusCode,
    ).toBe(201);
    const single = await t.post('/api/reviews', body(second, { rating: 3 }), s.borrower.cookie);
    expect(single.statusCode).toBe(201);
    expect(single.json().review.itemRating).toBeNull();
    // Both show by the waiting time.
    await db()
      .update(reviews)
      .set({ createdAt: new Date(Date.now() - 20 * DAY_MS) })
      .where(and(eq(reviews.itemId, s.item.id), eq(reviews.reviewerId, s.borrower.user.id)));

    const page = (await t.get(`/api/items/${s.item.id}`)).json();
    expect(page.item.rating).toEqual({ average: 4, count: 2 });
    expect(page.lenderRating).toEqual({ average: 2, count: 2 });
  });

  it('refuses an item rating that is not 1 to 5 stars', async () => {
    const s = await people();
    const id = await completed(s, '2026-01-05');
    const cases: [unknown, string][] = [
      [0, 'Rating must be a whole number from 1 to 5'],
      [6, 'Rating must be a whole number from 1 to 5'],
      [2.5, 'Rating must be a whole number from 1 to 5'],
      ['4', 'Please rate the item'],
    ];
    for (const [itemRating, message] of cases) {
      const answer = await t.post('/api/reviews', body(id, { rating: 4, itemRating }), s.borrower.cookie);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().issues).toContainEqual({ path: 'itemRating', message });
    }
  });
});
