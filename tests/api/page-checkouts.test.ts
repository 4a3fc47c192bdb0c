import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { itemSearchQuery } from '#shared/schemas/items.ts';
import { badgeService } from '../../src/server/features/badges/service.ts';
import { itemService } from '../../src/server/features/items/service.ts';
import { reviewService } from '../../src/server/features/reviews/service.ts';
import * as userQueries from '../../src/server/features/users/queries.ts';
import { checkoutsOf } from '../../src/server/http/db-lanes.ts';
import { createItem, createSignedInUser, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The profile and the item page are each one statement, prepared by name on PostgreSQL (decision
// 064): one checkout per answer, whatever the lists hold. Their lists come back as JSON inside that
// statement; the answers must equal what the separate reads (still used elsewhere) give.

const MODERATOR_EMAIL = 'page.moderator@stanford.edu';
const t = setupTestApp({ adminEmails: [MODERATOR_EMAIL] });
const db = () => t.database.db;
const DAY_MS = 86_400_000;

type Answer = { headers: Record<string, unknown>; statusCode: number; body: string };
const checkoutsIn = (response: Answer) => {
  expect(response.statusCode, response.body).toBe(200);
  return checkoutsOf(response.headers['server-timing'] as string | undefined);
};

let lender: Awaited<ReturnType<typeof createSignedInUser>>;
let borrower: Awaited<ReturnType<typeof createSignedInUser>>;
let moderator: Awaited<ReturnType<typeof createSignedInUser>>;
let drill: { id: string };

/** A completed booking and the borrower's review of it, `daysAgo` days ago (shown after 14). */
async function completedWithReview(itemId: string, borrowerId: string, rating: number, daysAgo: number) {
  const [booking] = (
    await db().execute<{ id: string }>(sql`
      insert into reservations (item_id, borrower_id, provider_id, start_date, end_date, status, approved_at)
      values (${itemId}, ${borrowerId}, ${lender.user.id}, '2026-01-01', '2026-01-03', 'completed', now())
      returning id`)
  ).rows;
  const written = new Date(Date.now() - daysAgo * DAY_MS).toISOString();
  await db().execute(sql`
    insert into reviews (reservation_id, reviewer_id, reviewee_id, item_id, rating, item_rating, comment, review_type, created_at)
    values (${booking!.id}, ${borrowerId}, ${lender.user.id}, ${itemId}, ${rating}, null, 'Solid', 'borrower_to_lender', ${written}::timestamptz)`);
}

beforeAll(async () => {
  lender = await createSignedInUser(db());
  borrower = await createSignedInUser(db());
  moderator = await createSignedInUser(db(), { email: MODERATOR_EMAIL });
  const other = await createUser(db());
  drill = await createItem(db(), { userId: lender.user.id, title: 'Pagecheck drill', depositCents: 1250 });
  const saw = await createItem(db(), { userId: lender.user.id, title: 'Pagecheck saw', isAvailable: false });
  const hidden = await createItem(db(), { userId: lender.user.id, title: 'Pagecheck lamp' });
  await db().execute(sql`update items set hidden_at = now() where id = ${hidden.id}`);
  await completedWithReview(drill.id, borrower.user.id, 5, 20);
  await completedWithReview(drill.id, other.id, 3, 16);
  // Not shown yet: written yesterday, the lender has not answered.
  await completedWithReview(saw.id, borrower.user.id, 1, 1);
  // Approved, then cancelled by the lender.
  await db().execute(sql`
    insert into reservations (item_id, borrower_id, provider_id, start_date, end_date, status, approved_at, cancelled_by)
    values (${saw.id}, ${other.id}, ${lender.user.id}, '2026-02-01', '2026-02-03', 'cancelled', now(), 'provider')`);
  // The lender borrowed something too (their own profile's Borrowed tab).
  const kayak = await createItem(db(), { userId: other.id, title: 'Pagecheck kayak' });
  await db().execute(sql`
    insert into reservations (item_id, borrower_id, provider_id, start_date, end_date, status)
    values (${kayak.id}, ${lender.user.id}, ${other.id}, '2026-03-01', '2026-03-02', 'pending')`);
  for (const badge of ['first_lend', 'top_rated'])
    await db().execute(
      sql`insert into user_badges (user_id, badge_type) values (${lender.user.id}, ${badge})`,
    );
});

/** The profile as the separate reads assemble it, for `everything` (own or moderator) and `own`. */
async function assembled(id: string, everything: boolean, own: boolean) {
  const d = db();
  const [user, items, reviews, rating, badges, availableNow, borrowed, cancellations] = await Promise.all([
    userQueries.findProfile(d, id),
    itemService.listOwned(d, id, everything),
    reviewService.received(d, id),
    reviewService.ratingSummary(d, id),
    badgeService.forProfile(d, id, 'en'),
    itemService.countAvailableNow(d, id, t.config.campusTimeZone),
    own ? userQueries.listBorrowings(d, id) : Promise.resolve(undefined),
    userQueries.lenderCancellations(d, id),
  ]);
  return { user, items, reviews, rating, badges, availableNow, borrowed, cancellations };
}

describe('pages in one statement', () => {
  it('answers a visitor’s profile with one checkout, as the separate reads would', async () => {
    const response = await t.get(`/api/users/${lender.user.id}`);
    expect(checkoutsIn(response)).toBe(1);
    const answer = response.json();
    const expected = await assembled(lender.user.id, false, false);
    expect(answer.user).toMatchObject({
      id: lender.user.id,
      createdAt: expected.user!.createdAt.toISOString(),
    });
    expect(answer.items).toEqual(expected.items);
    expect(answer.items.map((item: { title: string }) => item.title).sort()).toEqual([
      'Pagecheck drill',
      'Pagecheck saw',
    ]);
    expect(answer.reviews).toEqual(expected.reviews);
    expect(answer.reviews).toHaveLength(2);
    expect(answer.badges).toEqual(expected.badges);
    expect(answer.badges.map((badge: { badgeType: string }) => badge.badgeType)).toEqual([
      'first_lend',
      'top_rated',
    ]);
    expect(answer.stats).toEqual({
      itemsListed: 2,
      availableNow: expected.availableNow,
      reviewCount: 2,
      averageRating: 4,
      lenderCancellations: { approved: 4, cancelled: 1 },
    });
    expect(expected.availableNow).toBe(1);
    expect(answer.borrowed).toBeUndefined();
  });

  it('answers the person’s own and a moderator’s profile with one checkout besides the session', async () => {
    const own = await t.get(`/api/users/${lender.user.id}`, lender.cookie);
    const expected = await assembled(lender.user.id, true, true);
    expect(checkoutsIn(own)).toBeLessThanOrEqual(2);
    expect(own.json().items).toEqual(expected.items);
    expect(own.json().items).toHaveLength(3);
    expect(own.json().borrowed).toEqual(expected.borrowed);
    expect(own.json().borrowed).toHaveLength(1);
    const moderated = await t.get(`/api/users/${lender.user.id}`, moderator.cookie);
    expect(checkoutsIn(moderated)).toBeLessThanOrEqual(2);
    expect(moderated.json().items).toEqual(expected.items);
    expect(moderated.json().borrowed).toBeUndefined();
    // The same person asked again: the session is remembered, the statement is the only checkout.
    expect(checkoutsIn(await t.get(`/api/users/${lender.user.id}`, lender.cookie))).toBe(1);
  });

  it('answers an item page with one checkout, with its revealed reviews and the lender’s rating', async () => {
    const response = await t.get(`/api/items/${drill.id}`);
    expect(checkoutsIn(response)).toBe(1);
    const answer = response.json();
    expect(answer.reviews).toEqual(await reviewService.forItem(db(), drill.id));
    expect(answer.reviews).toHaveLength(2);
    expect(answer.item).toMatchObject({
      id: drill.id,
      depositAmount: '12.50',
      rating: { average: 4, count: 2 },
    });
    expect(answer.lenderRating).toEqual({ average: 4, count: 2 });
  });

  it('answers a missing person or item with 404 after one checkout', async () => {
    const nobody = '00000000-0000-4000-8000-000000000000';
    for (const url of [`/api/users/${nobody}`, `/api/items/${nobody}`]) {
      const response = await t.get(url);
      expect(response.statusCode).toBe(404);
      expect(checkoutsOf(response.headers['server-timing'] as string | undefined)).toBe(1);
    }
  });

  it('counts one checkout each when many people load the pages at once', async () => {
    // Fresh answers (not remembered) for each of several people: each is its own statement.
    const people = await Promise.all(Array.from({ length: 6 }, () => createUser(db())));
    const responses = await Promise.all([
      ...people.map((person) => t.get(`/api/users/${person.id}`)),
      ...people.map(() => t.get(`/api/items/${drill.id}`)),
    ]);
    for (const response of responses) expect(checkoutsIn(response)).toBeLessThanOrEqual(1);
  });
});

describe('Browse in one statement', () => {
  /** The count as its own statement gives it, for the same query. */
  const countedApart = (query: Record<string, string>) =>
    itemService.count(db(), itemSearchQuery.parse(query), t.config.campusTimeZone);

  it('reads a page and its count with one checkout when nobody remembers the count, then only pages', async () => {
    // A filter the items' counters keep (campus and category) and one they do not (a pickup method).
    const filters: Record<string, string>[] = [{ category: 'tools' }, { pickupMethod: 'meetup' }];
    for (const filter of filters) {
      const query = { campus: 'stanford.edu', ...filter };
      const path = (page: number) =>
        `/api/items?${new URLSearchParams({ ...query, limit: '1', page: String(page) })}`;
      const first = await t.get(path(1));
      expect(checkoutsIn(first)).toBe(1);
      const expected = await countedApart(query);
      expect(expected.total).toBeGreaterThan(1);
      expect(first.json()).toMatchObject(expected);
      // The count is remembered now: the next page reads only its rows.
      const second = await t.get(path(2));
      expect(checkoutsIn(second)).toBe(1);
      expect(second.json()).toMatchObject(expected);
    }
  });

  it('counts an empty first page as none, and a page past the end apart', async () => {
    const query = { campus: 'stanford.edu', category: 'books', pickupMethod: 'locker' };
    const empty = await t.get(`/api/items?${new URLSearchParams({ ...query, page: '1' })}`);
    expect(checkoutsIn(empty)).toBe(1);
    expect(empty.json()).toMatchObject({ items: [], total: 0, totalCapped: false });
    const past = await t.get(
      `/api/items?${new URLSearchParams({ campus: 'stanford.edu', category: 'other', page: '9' })}`,
    );
    expect(past.statusCode).toBe(200);
    expect(past.json()).toMatchObject({
      items: [],
      ...(await countedApart({ campus: 'stanford.edu', category: 'other' })),
    });
  });

  it('gives each of many lists asked at once its own count, in one checkout each', async () => {
    const filters: Record<string, string>[] = [
      { campus: 'stanford.edu', availableNow: 'true' },
      { campus: 'stanford.edu', maxPrice: '20' },
      { campus: 'stanford.edu', freeOnly: 'true' },
      { campus: 'stanford.edu', category: 'tools', availableNow: 'true' },
      { campus: 'all', pickupMethod: 'meetup' },
      { campus: 'all' },
    ];
    const responses = await Promise.all(
      filters.map((query) => t.get(`/api/items?${new URLSearchParams(query)}`)),
    );
    for (const [i, response] of responses.entries()) {
      expect(checkoutsIn(response)).toBe(1);
      expect(response.json()).toMatchObject(await countedApart(filters[i]!));
    }
  });
});
