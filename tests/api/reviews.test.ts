import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { reviews } from '../../src/server/db/schema/community.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { campusToday } from '../../src/shared/calendar.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

const t = setupTestApp();
const db = () => t.database.db;
const TZ = 'America/Los_Angeles';
const DAY_MS = 24 * 60 * 60 * 1000;

function day(n: number): string {
  const d = new Date(`${campusToday(TZ).date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

type Person = Awaited<ReturnType<typeof createSignedInUser>>;

/** A lender with a free item, a borrower, and someone else; nothing reserved yet. */
async function people() {
  const lender = await createSignedInUser(db());
  const borrower = await createSignedInUser(db());
  const stranger = await createSignedInUser(db());
  const item = await createItem(db(), { userId: lender.user.id, title: 'Camping tent for four' });
  return { lender, borrower, stranger, item };
}

/** A reservation of the item in the given status, written straight to the database. */
async function reservationIn(
  status: 'pending' | 'approved' | 'active' | 'completed' | 'cancelled' | 'declined',
  { lender, borrower, item }: { lender: Person; borrower: Person; item: { id: string } },
  offset = 1,
) {
  const [row] = await db()
    .insert(reservations)
    .values({
      itemId: item.id,
      borrowerId: borrower.user.id,
      providerId: lender.user.id,
      startDate: day(offset),
      endDate: day(offset),
      status,
      completedAt: status === 'completed' ? new Date() : null,
    })
    .returning();
  return row!;
}

/** Request, approve, pick up and return through the API, as the two people do in My Reservations. */
async function completeThroughApi(s: { lender: Person; borrower: Person; item: { id: string } }, offset = 1) {
  const created = await t.post(
    '/api/reservations',
    { itemId: s.item.id, startDate: day(offset), endDate: day(offset) },
    s.borrower.cookie,
  );
  expect(created.statusCode).toBe(201);
  const id = created.json().reservation.id as string;
  expect((await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie)).statusCode).toBe(200);
  expect((await t.put(`/api/reservations/${id}`, { status: 'active' }, s.borrower.cookie)).statusCode).toBe(
    200,
  );
  expect((await t.put(`/api/reservations/${id}`, { status: 'completed' }, s.lender.cookie)).statusCode).toBe(
    200,
  );
  return id;
}

const review = (reservationId: string, rating = 5, comment = 'Great to deal with, thanks!') => ({
  reservationId,
  rating,
  comment,
});

async function notificationsOf(cookie: string) {
  return (await t.get('/api/notifications', cookie)).json().notifications as {
    type: string;
    title: string;
    message: string;
    relatedReservationId: string | null;
  }[];
}

async function reviewCount(reservationId: string) {
  const { rows } = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from reviews where reservation_id = ${reservationId}`,
  );
  return rows[0]!.n;
}

async function backdate(reservationId: string, reviewerId: string, days: number) {
  await db()
    .update(reviews)
    .set({ createdAt: new Date(Date.now() - days * DAY_MS) })
    .where(and(eq(reviews.reservationId, reservationId), eq(reviews.reviewerId, reviewerId)));
}

describe('asking for reviews', () => {
  it('asks both people for a review when the reservation is completed', async () => {
    const s = await people();
    const id = await completeThroughApi(s);
    const [borrowerNote] = (await notificationsOf(s.borrower.cookie)).filter(
      (n) => n.type === 'review_request',
    );
    expect(borrowerNote).toMatchObject({
      title: 'Leave a review',
      relatedReservationId: id,
      message: `How did it go? Leave a review for ${s.lender.user.fullName} and Camping tent for four.`,
    });
    const [lenderNote] = (await notificationsOf(s.lender.cookie)).filter((n) => n.type === 'review_request');
    expect(lenderNote).toMatchObject({
      relatedReservationId: id,
      message: `How did it go? Leave a review for ${s.borrower.user.fullName}, who borrowed Camping tent for four.`,
    });
    const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
    expect(row!.completedAt).toBeInstanceOf(Date);
  });

  it('does not ask before completion', async () => {
    const s = await people();
    const created = await t.post(
      '/api/reservations',
      { itemId: s.item.id, startDate: day(1), endDate: day(1) },
      s.borrower.cookie,
    );
    const id = created.json().reservation.id;
    await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie);
    await t.put(`/api/reservations/${id}`, { status: 'active' }, s.borrower.cookie);
    for (const cookie of [s.borrower.cookie, s.lender.cookie]) {
      expect((await notificationsOf(cookie)).some((n) => n.type === 'review_request')).toBe(false);
    }
  });
});

describe('POST /api/reviews', () => {
  it('keeps the first review hidden until the other is written, then shows both', async () => {
    const s = await people();
    const id = await completeThroughApi(s);

    const first = await t.post('/api/reviews', review(id, 4, '  Tent was spotless.  '), s.borrower.cookie);
    expect(first.statusCode).toBe(201);
    const written = first.json().review;
    expect(written).toMatchObject({
      reservationId: id,
      reviewType: 'borrower_to_lender',
      rating: 4,
      comment: 'Tent was spotless.',
      revealed: false,
    });
    expect(Date.parse(written.revealsAt) - Date.parse(written.createdAt)).toBe(14 * DAY_MS);

    // Hidden: not on the item, not on the lender's profile, not in the average.
    expect((await t.get(`/api/items/${s.item.id}`)).json().reviews).toEqual([]);
    const hiddenProfile = (await t.get(`/api/users/${s.lender.user.id}`)).json();
    expect(hiddenProfile.reviews).toEqual([]);
    expect(hiddenProfile.stats).toMatchObject({ reviewCount: 0, averageRating: null });
    const [received] = (await notificationsOf(s.lender.cookie)).filter((n) => n.type === 'review_received');
    expect(received!.message).toMatch(
      new RegExp(
        `^${s.borrower.user.fullName} reviewed you for Camping tent for four\\. It shows once you have written yours, or on [A-Z][a-z]{2} \\d{1,2}\\.$`,
      ),
    );
    expect(received!.relatedReservationId).toBe(id);
    // The reviewer sees their own, still hidden.
    expect((await t.get('/api/reviews/mine', s.borrower.cookie)).json().reviews).toEqual([
      expect.objectContaining({ reservationId: id, revealed: false }),
    ]);

    const second = await t.post('/api/reviews', review(id, 5, 'Returned on time.'), s.lender.cookie);
    expect(second.statusCode).toBe(201);
    expect(second.json().review).toMatchObject({ reviewType: 'lender_to_borrower', revealed: true });
    const [back] = (await notificationsOf(s.borrower.cookie)).filter((n) => n.type === 'review_received');
    expect(back!.message).toBe(
      `${s.lender.user.fullName} reviewed you for Camping tent for four. Both reviews now show on your profiles.`,
    );

    // Both show now: the borrower's on the item and the lender's profile, the lender's on the borrower's.
    const itemReviews = (await t.get(`/api/items/${s.item.id}`)).json().reviews;
    expect(itemReviews).toEqual([
      expect.objectContaining({
        rating: 4,
        comment: 'Tent was spotless.',
        reviewType: 'borrower_to_lender',
        reviewer: expect.objectContaining({
          id: s.borrower.user.id,
          fullName: s.borrower.user.fullName,
          username: s.borrower.user.username,
        }),
        item: { id: s.item.id, title: 'Camping tent for four' },
      }),
    ]);
    const lenderProfile = (await t.get(`/api/users/${s.lender.user.id}`)).json();
    expect(lenderProfile.reviews).toHaveLength(1);
    expect(lenderProfile.stats).toMatchObject({ reviewCount: 1, averageRating: 4 });
    const borrowerProfile = (await t.get(`/api/users/${s.borrower.user.id}`)).json();
    expect(borrowerProfile.reviews).toEqual([
      expect.objectContaining({
        rating: 5,
        comment: 'Returned on time.',
        reviewType: 'lender_to_borrower',
        reviewer: expect.objectContaining({ id: s.lender.user.id, username: s.lender.user.username }),
      }),
    ]);
    expect((await t.get('/api/reviews/mine', s.borrower.cookie)).json().reviews[0].revealed).toBe(true);
  });

  it('shows a one-sided review once 14 days have passed, and counts only shown reviews in the average', async () => {
    const s = await people();
    const old = await reservationIn('completed', s, 1);
    const fresh = await reservationIn('completed', s, 3);
    expect((await t.post('/api/reviews', review(old.id, 5), s.borrower.cookie)).statusCode).toBe(201);
    expect((await t.post('/api/reviews', review(fresh.id, 1, 'Late.'), s.borrower.cookie)).statusCode).toBe(
      201,
    );

    await backdate(old.id, s.borrower.user.id, 13.9);
    expect((await t.get(`/api/users/${s.lender.user.id}`)).json().stats).toMatchObject({
      reviewCount: 0,
      averageRating: null,
    });

    await backdate(old.id, s.borrower.user.id, 14.01);
    // The change reaches the profile's read cache through the database's NOTIFY: on PostgreSQL that
    // arrives a moment after the update, so the profile is asked until it shows.
    let profile = (await t.get(`/api/users/${s.lender.user.id}`)).json();
    await waitFor(
      async () => {
        profile = (await t.get(`/api/users/${s.lender.user.id}`)).json();
        return profile.reviews.length > 0;
      },
      10_000,
      'the one-sided review to show on the profile',
    );
    expect(profile.reviews.map((r: { rating: number }) => r.rating)).toEqual([5]);
    expect(profile.stats).toMatchObject({ reviewCount: 1, averageRating: 5 });
    expect((await t.get(`/api/items/${s.item.id}`)).json().reviews).toHaveLength(1);
    const mine = (await t.get('/api/reviews/mine', s.borrower.cookie)).json().reviews;
    expect(mine.find((r: { reservationId: string }) => r.reservationId === old.id).revealed).toBe(true);
    expect(mine.find((r: { reservationId: string }) => r.reservationId === fresh.id).revealed).toBe(false);
  });

  it('rounds the average to one decimal', async () => {
    const s = await people();
    for (const [i, rating] of [5, 4, 4].entries()) {
      const r = await reservationIn('completed', s, i * 2 + 1);
      await t.post('/api/reviews', review(r.id, rating), s.borrower.cookie);
      await t.post('/api/reviews', review(r.id, 5), s.lender.cookie);
    }
    expect((await t.get(`/api/users/${s.lender.user.id}`)).json().stats).toMatchObject({
      reviewCount: 3,
      averageRating: 4.3,
    });
  });

  it('refuses a second review by the same person, also when both arrive at once', async () => {
    const s = await people();
    const r = await reservationIn('completed', s);
    expect((await t.post('/api/reviews', review(r.id), s.borrower.cookie)).statusCode).toBe(201);
    const again = await t.post('/api/reviews', review(r.id, 1, 'Changed my mind'), s.borrower.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'ALREADY_REVIEWED',
      message: 'You have already reviewed this reservation.',
    });
    expect(await reviewCount(r.id)).toBe(1);

    const other = await reservationIn('completed', s, 3);
    const both = await Promise.all([
      t.post('/api/reviews', review(other.id, 5), s.lender.cookie),
      t.post('/api/reviews', review(other.id, 2), s.lender.cookie),
    ]);
    expect(both.map((b) => b.statusCode).sort()).toEqual([201, 409]);
    expect(await reviewCount(other.id)).toBe(1);
  });

  it('refuses reviews before the reservation is completed', async () => {
    const s = await people();
    for (const [i, status] of (
      ['pending', 'approved', 'active', 'cancelled', 'declined'] as const
    ).entries()) {
      const r = await reservationIn(status, s, i * 2 + 1);
      for (const person of [s.borrower, s.lender]) {
        const response = await t.post('/api/reviews', review(r.id), person.cookie);
        expect(response.statusCode, `${status}`).toBe(409);
        expect(response.json()).toMatchObject({
          code: 'RESERVATION_NOT_COMPLETED',
          message: 'You can review this reservation once the item has been returned.',
        });
      }
      expect(await reviewCount(r.id)).toBe(0);
    }
  });

  it('lets only the two parties review: 401 signed out, 403 for anyone else, 404 for no reservation', async () => {
    const s = await people();
    const r = await reservationIn('completed', s);
    const visitor = await t.post('/api/reviews', review(r.id));
    expect(visitor.statusCode).toBe(401);
    const stranger = await t.post('/api/reviews', review(r.id), s.stranger.cookie);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().message).toBe('You can only review reservations you were part of.');
    const missing = await t.post(
      '/api/reviews',
      review('00000000-0000-4000-8000-000000000000'),
      s.borrower.cookie,
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Reservation not found.');
    expect(await reviewCount(r.id)).toBe(0);
    expect((await t.get('/api/reviews/mine')).statusCode).toBe(401);
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const s = await people();
    const r = await reservationIn('completed', s);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...review(r.id), rating: 0 }, 'rating', 'Rating must be a whole number from 1 to 5'],
      [{ ...review(r.id), rating: 6 }, 'rating', 'Rating must be a whole number from 1 to 5'],
      [{ ...review(r.id), rating: 4.5 }, 'rating', 'Rating must be a whole number from 1 to 5'],
      [{ ...review(r.id), rating: '5' }, 'rating', 'Please choose a star rating'],
      [{ reservationId: r.id, comment: 'Nice' }, 'rating', 'Please choose a star rating'],
      [{ ...review(r.id), comment: '' }, 'comment', 'Comment is required'],
      [{ ...review(r.id), comment: '   \n ' }, 'comment', 'Comment is required'],
      [{ reservationId: r.id, rating: 5 }, 'comment', 'Comment is required'],
      [{ ...review(r.id), comment: 'x'.repeat(1001) }, 'comment', 'Comment must be at most 1000 characters'],
      [{ ...review(r.id), reservationId: 'nope' }, 'reservationId', 'Reservation not found'],
    ];
    for (const [body, path, message] of cases) {
      const response = await t.post('/api/reviews', body, s.borrower.cookie);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json().issues).toContainEqual({ path, message });
    }
    expect(await reviewCount(r.id)).toBe(0);
    // A comment of exactly the limit is fine.
    const longest = await t.post('/api/reviews', review(r.id, 3, 'y'.repeat(1000)), s.borrower.cookie);
    expect(longest.statusCode).toBe(201);
  });
});
