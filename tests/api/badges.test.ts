import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { impactContributions, reviews, userBadges } from '../../src/server/db/schema/community.ts';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { awardBadges } from '../../src/server/features/badges/service.ts';
import { notificationService } from '../../src/server/features/notifications/service.ts';
import { reviewService } from '../../src/server/features/reviews/service.ts';
import { campusToday } from '../../src/shared/calendar.ts';
import { borrowImpact } from '../../src/shared/impact.ts';
import { createItem, createSignedInUser, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();
const db = () => t.database.db;
const TZ = 'America/Los_Angeles';
const DAY_MS = 24 * 60 * 60 * 1000;

function day(n: number): string {
  const d = new Date(`${campusToday(TZ).date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

// Verified or not is set explicitly: the badge for it is one of the rules under test.
async function pair(verified = false) {
  const lender = await createSignedInUser(db(), { isVerified: verified });
  const borrower = await createSignedInUser(db(), { isVerified: verified });
  const item = await createItem(db(), { userId: lender.user.id, title: 'Folding step ladder' });
  return { lender, borrower, item };
}

let nextOffset = 1;
/** A reservation written straight to the database (each on its own days). */
async function reservation(
  s: { lender: { user: { id: string } }; borrower: { user: { id: string } }; item: { id: string } },
  status: 'active' | 'completed',
  extra: Partial<typeof reservations.$inferInsert> = {},
) {
  nextOffset += 2;
  const offset = nextOffset;
  const [row] = await db()
    .insert(reservations)
    .values({
      itemId: s.item.id,
      borrowerId: s.borrower.user.id,
      providerId: s.lender.user.id,
      startDate: day(offset),
      endDate: day(offset),
      status,
      completedAt: status === 'completed' ? new Date() : null,
      ...extra,
    })
    .returning();
  return row!;
}

async function badgesOf(userId: string) {
  const rows = await db()
    .select({ badgeType: userBadges.badgeType })
    .from(userBadges)
    .where(eq(userBadges.userId, userId));
  return rows.map((r) => r.badgeType).sort();
}

async function badgeNotices(userId: string) {
  return db()
    .select({ title: notifications.title, message: notifications.message })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, 'badge_earned')));
}

const complete = (id: string, cookie: string) =>
  t.put(`/api/reservations/${id}`, { status: 'completed' }, cookie);

describe('badges awarded with the event that earns them', () => {
  it('first_lend at the first completed lend, for the lender only, with a notification and on the profile', async () => {
    const s = await pair();
    const r = await reservation(s, 'active');
    expect(await badgesOf(s.lender.user.id)).toEqual([]);
    expect((await complete(r.id, s.lender.cookie)).statusCode).toBe(200);

    expect(await badgesOf(s.lender.user.id)).toEqual(['first_lend']);
    expect(await badgesOf(s.borrower.user.id)).toEqual([]);
    expect(await badgeNotices(s.lender.user.id)).toEqual([
      {
        title: 'New badge: First Lend',
        message:
          'Lent an item to a classmate for the first time. The First Lend badge now shows on your profile.',
      },
    ]);
    const profile = (await t.get(`/api/users/${s.lender.user.id}`)).json();
    expect(profile.badges).toEqual([
      {
        id: expect.any(String),
        badgeType: 'first_lend',
        name: 'First Lend',
        description: 'Lent an item to a classmate for the first time.',
        earnedAt: expect.any(String),
      },
    ]);

    // A second lend earns nothing new and says nothing again.
    const again = await reservation(s, 'active');
    await complete(again.id, s.lender.cookie);
    expect(await badgesOf(s.lender.user.id)).toEqual(['first_lend']);
    expect(await badgeNotices(s.lender.user.id)).toHaveLength(1);
  });

  it('rolls the badge back with the completion when the completion fails', async () => {
    const s = await pair();
    // A paid reservation: its completion ends with the deposit notice, after the badge award.
    const r = await reservation(s, 'active', {
      stripePaymentIntentId: 'pi_rollback_test',
      depositCents: 1000,
    });
    const notify = notificationService.notify.bind(notificationService);
    vi.spyOn(notificationService, 'notify').mockImplementation(async (tx, values) => {
      if (values.type === 'deposit_refunded') throw new Error('mail server on fire');
      return notify(tx, values);
    });
    const response = await complete(r.id, s.lender.cookie);
    expect(response.statusCode).toBe(500);
    vi.restoreAllMocks();

    const [after] = await db().select().from(reservations).where(eq(reservations.id, r.id));
    expect(after!.status).toBe('active');
    expect(await badgesOf(s.lender.user.id)).toEqual([]);
    expect(await badgeNotices(s.lender.user.id)).toEqual([]);
    const requests = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.relatedReservationId, r.id), eq(notifications.type, 'review_request')));
    expect(requests).toEqual([]);
  });

  it('ten_lends at the tenth completed lend', async () => {
    const s = await pair();
    for (let i = 0; i < 8; i++) await reservation(s, 'completed');
    const ninth = await reservation(s, 'active');
    await complete(ninth.id, s.lender.cookie);
    expect(await badgesOf(s.lender.user.id)).toEqual(['first_lend']);
    const tenth = await reservation(s, 'active');
    await complete(tenth.id, s.lender.cookie);
    expect(await badgesOf(s.lender.user.id)).toEqual(['first_lend', 'ten_lends']);
    const profile = (await t.get(`/api/users/${s.lender.user.id}`)).json();
    expect(profile.badges.map((b: { name: string }) => b.name).sort()).toEqual([
      'First Lend',
      'Super Lender',
    ]);
  });

  it('co2_100kg from the impact ledger, counting lends and borrows alike', async () => {
    const s = await pair();
    const other = await createUser(db());
    const ledger = async (lenderId: string, borrowerId: string, grams: number) => {
      const past = await reservation(s, 'completed');
      await db().insert(impactContributions).values({
        reservationId: past.id,
        campus: 'stanford.edu',
        category: 'tools',
        lenderId,
        borrowerId,
        moneySavedCents: 1000,
        co2SavedGrams: grams,
        wasteReducedGrams: 500,
        completedAt: new Date(),
      });
    };
    // Each completion below adds its own row to the ledger (the impact feature), worth this much.
    const perBorrow = borrowImpact('tools', 0).co2SavedGrams;
    // The borrower: 60 kg as a borrower and the rest as a lender to someone else, so the first
    // completion leaves them at 99.999 kg.
    await ledger(s.lender.user.id, s.borrower.user.id, 60_000);
    await ledger(s.borrower.user.id, other.id, 39_999 - perBorrow);
    const r = await reservation(s, 'active');
    await complete(r.id, s.lender.cookie);
    expect(await badgesOf(s.borrower.user.id)).toEqual([]);

    await ledger(other.id, s.borrower.user.id, 1);
    const next = await reservation(s, 'active');
    await complete(next.id, s.lender.cookie);
    expect(await badgesOf(s.borrower.user.id)).toEqual(['co2_100kg']);
    // The lender's 60 kg is short of it.
    expect(await badgesOf(s.lender.user.id)).toEqual(['first_lend']);
  });

  it('verified_student for a verified person at their next event, and through awardBadges directly', async () => {
    const s = await pair(true);
    const r = await reservation(s, 'active');
    await complete(r.id, s.lender.cookie);
    expect(await badgesOf(s.borrower.user.id)).toEqual(['verified_student']);
    expect(await badgesOf(s.lender.user.id)).toEqual(['first_lend', 'verified_student']);

    const unverified = await createUser(db(), { isVerified: false });
    const verified = await createUser(db(), { isVerified: true });
    expect(await db().transaction((tx) => awardBadges(tx, unverified.id))).toEqual([]);
    expect(await db().transaction((tx) => awardBadges(tx, verified.id))).toEqual(['verified_student']);
    // Awarding again changes nothing.
    expect(await db().transaction((tx) => awardBadges(tx, verified.id))).toEqual([]);
    expect(await badgesOf(verified.id)).toEqual(['verified_student']);
    expect(await badgeNotices(verified.id)).toHaveLength(1);
  });

  it('awardBadges writes nothing when the caller’s transaction rolls back', async () => {
    const verified = await createUser(db(), { isVerified: true });
    await expect(
      db().transaction(async (tx) => {
        expect(await awardBadges(tx, verified.id)).toEqual(['verified_student']);
        throw new Error('the event failed');
      }),
    ).rejects.toThrow('the event failed');
    expect(await badgesOf(verified.id)).toEqual([]);
    expect(await badgeNotices(verified.id)).toEqual([]);
  });
});

describe('top_rated', () => {
  /** Completed lends the lender was rated `ratings` for, each with the lender's review back (so all show). */
  async function ratedLender(ratings: number[]) {
    const s = await pair();
    for (const rating of ratings) {
      const r = await reservation(s, 'completed');
      await db()
        .insert(reviews)
        .values([
          {
            reservationId: r.id,
            reviewerId: s.borrower.user.id,
            revieweeId: s.lender.user.id,
            itemId: s.item.id,
            rating,
            comment: 'Good',
            reviewType: 'borrower_to_lender',
          },
          {
            reservationId: r.id,
            reviewerId: s.lender.user.id,
            revieweeId: s.borrower.user.id,
            rating: 5,
            comment: 'Good',
            reviewType: 'lender_to_borrower',
          },
        ]);
    }
    // What they held before: the lends were real events, the reviews so far too few.
    await db().transaction((tx) => awardBadges(tx, s.lender.user.id));
    expect(await badgesOf(s.lender.user.id)).toEqual(['first_lend']);
    return s;
  }

  it('comes with the fifth shown review when they average 4.8, awarded as that review is written', async () => {
    const s = await ratedLender([5, 5, 5, 5]);
    const r = await reservation(s, 'completed');
    // The lender reviews first: nothing about the lender shows yet.
    await t.post(
      '/api/reviews',
      { reservationId: r.id, rating: 5, comment: 'Careful borrower' },
      s.lender.cookie,
    );
    expect(await badgesOf(s.lender.user.id)).not.toContain('top_rated');
    // The borrower's 4 stars are the fifth review; both now show: 24/5 = 4.8.
    await t.post(
      '/api/reviews',
      { reservationId: r.id, rating: 4, comment: 'Good ladder' },
      s.borrower.cookie,
    );
    expect(await badgesOf(s.lender.user.id)).toContain('top_rated');
    expect((await t.get(`/api/users/${s.lender.user.id}`)).json().badges).toContainEqual(
      expect.objectContaining({
        badgeType: 'top_rated',
        name: 'Top Rated',
        description: '5 or more reviews averaging 4.8 stars or better.',
      }),
    );
  });

  it('is not earned below 4.8', async () => {
    const s = await ratedLender([5, 5, 5, 4]);
    const r = await reservation(s, 'completed');
    await t.post('/api/reviews', { reservationId: r.id, rating: 4, comment: 'Fine' }, s.borrower.cookie);
    await t.post('/api/reviews', { reservationId: r.id, rating: 5, comment: 'Fine' }, s.lender.cookie);
    // 23/5 = 4.6
    expect(await badgesOf(s.lender.user.id)).not.toContain('top_rated');
  });

  it('waits for a one-sided review to show; the background job awards it when 14 days have passed', async () => {
    const s = await ratedLender([5, 5, 5, 5]);
    const r = await reservation(s, 'completed');
    await t.post('/api/reviews', { reservationId: r.id, rating: 5, comment: 'Superb' }, s.borrower.cookie);
    expect(await badgesOf(s.lender.user.id)).not.toContain('top_rated');

    const writtenAt = new Date(Date.now() - 14 * DAY_MS - 60_000);
    await db()
      .update(reviews)
      .set({ createdAt: writtenAt })
      .where(and(eq(reviews.reservationId, r.id), eq(reviews.reviewerId, s.borrower.user.id)));
    const now = new Date();
    // A round that ended before the review's 14 days were up finds nothing.
    expect(
      await reviewService.awardRevealedByTime(
        db(),
        new Date(now.getTime() - 3 * DAY_MS),
        new Date(now.getTime() - 2 * 60_000),
      ),
    ).toBe(0);
    expect(await badgesOf(s.lender.user.id)).not.toContain('top_rated');
    // The next round covers the moment it showed.
    expect(await reviewService.awardRevealedByTime(db(), new Date(now.getTime() - 2 * 60_000), now)).toBe(1);
    expect(await badgesOf(s.lender.user.id)).toContain('top_rated');
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from notifications where user_id = ${s.lender.user.id} and type = 'badge_earned' and title = 'New badge: Top Rated'`,
    );
    expect(rows[0]!.n).toBe(1);
  });
});
