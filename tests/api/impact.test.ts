import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { campusImpact, impactContributions, userBadges } from '../../src/server/db/schema/community.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { impactService } from '../../src/server/features/impact/service.ts';
import type { Category } from '../../src/shared/constants.ts';
import { createItem, createSignedInUser, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Campus impact. Each describe uses its own campus, so figures never mix.

const t = setupTestApp();
const db = () => t.database.db;
const TZ = 'America/Los_Angeles';

/** An item of the category on the lender's campus, handed over and now with the borrower. */
async function activeReservation(opts: {
  lenderId: string;
  borrowerId: string;
  campus: string;
  category: Category;
  rentalCents: number;
}) {
  const item = await createItem(db(), {
    userId: opts.lenderId,
    campus: opts.campus,
    category: opts.category,
    title: `A ${opts.category} thing`,
    rentalPriceCents: opts.rentalCents || null,
    rentalPeriod: opts.rentalCents ? 'week' : null,
  });
  const [row] = await db()
    .insert(reservations)
    .values({
      itemId: item.id,
      borrowerId: opts.borrowerId,
      providerId: opts.lenderId,
      startDate: '2026-01-05',
      endDate: '2026-01-09',
      status: 'active',
      rentalCents: opts.rentalCents,
      depositCents: 0,
    })
    .returning();
  return row!;
}

/** A borrow that completed at a given instant, counted the way the reservation service counts it. */
async function completedAt(
  when: string,
  opts: { lenderId: string; borrowerId: string; campus: string; category: Category; rentalCents?: number },
) {
  const reservation = await activeReservation({ rentalCents: 0, ...opts });
  await db()
    .update(reservations)
    .set({ status: 'completed', completedAt: new Date(when) })
    .where(eq(reservations.id, reservation.id));
  await db().transaction((tx) => impactService.recordCompletion(tx, reservation.id));
  return reservation;
}

describe('GET /api/impact/{campus} after real completed reservations', () => {
  const campus = 'ucla.edu';

  it('adds each returned item to its campus, matching a hand computation', async () => {
    const lender = await createSignedInUser(db(), { campus, fullName: 'Lena Lender' });
    const borrower = await createSignedInUser(db(), { campus });
    const set: [Category, number][] = [
      ['tools', 500], // $5.00 fee
      ['books', 0], // free
      ['electronics', 1200], // $12.00 fee
      ['professional', 20000], // $200.00 fee: more than a new suit costs
    ];
    for (const [category, rentalCents] of set) {
      const r = await activeReservation({
        lenderId: lender.user.id,
        borrowerId: borrower.user.id,
        campus,
        category,
        rentalCents,
      });
      // Either party marks it returned ('Item Returned' / 'Return Item'): that completes it.
      const done = await t.put(`/api/reservations/${r.id}`, { status: 'completed' }, lender.cookie);
      expect(done.statusCode).toBe(200);
    }

    // By hand, with avoidance 0.5 (docs/impact-methodology.md):
    //   money  tools 0.5×(9000−500)=4250  books 0.5×(8000−0)=4000  electronics 0.5×(18000−1200)=8400
    //          professional 0.5×max(0, 15000−20000)=0                      → 16650 cents = $166.50
    //   CO2e   tools 0.5×13.4 kg=6700 g  books 0.5×1.2 kg=600 g  electronics 0.5×23.0 kg=11500 g
    //          professional 0.5×24.0 kg=12000 g                           → 30800 g = 30.8 kg
    //   waste  tools 0.5×2.5 kg=1250 g  books 0.5×1.0 kg=500 g  electronics 0.5×1.1 kg=550 g
    //          professional 0.5×1.2 kg=600 g                              → 2900 g = 2.9 kg
    const response = await t.get(`/api/impact/${campus}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().impact).toMatchObject({
      campus,
      campusName: 'University of California-Los Angeles',
      itemsShared: 4,
      moneySaved: '166.50',
      co2Saved: 30.8,
      wasteReduced: 2.9,
    });
    expect(response.json().impact.updatedAt).toEqual(expect.any(String));

    // The ledger has one row per reservation, with the same parts.
    const ledger = await db()
      .select()
      .from(impactContributions)
      .where(eq(impactContributions.campus, campus));
    expect(ledger).toHaveLength(4);
    expect(ledger.reduce((sum, row) => sum + row.moneySavedCents, 0)).toBe(16650);
    expect(
      ledger.every((row) => row.lenderId === lender.user.id && row.borrowerId === borrower.user.id),
    ).toBe(true);

    // The same data makes this week's leaderboard and the dashboard.
    const board = (await t.get(`/api/impact/${campus}/leaderboard`)).json();
    expect(board.topContributors).toEqual([
      expect.objectContaining({
        rank: 1,
        userId: lender.user.id,
        name: 'Lena Lender',
        itemsShared: 4,
        co2Saved: 30.8,
        // First Lend, and Verified Student (the factories make verified people), earned on the way.
        badges: 2,
      }),
    ]);
    const dashboard = (await t.get(`/api/impact/${campus}/dashboard`)).json();
    expect(dashboard.impact).toEqual({
      itemsShared: 4,
      moneySaved: '166.50',
      co2Saved: 30.8,
      wasteReduced: 2.9,
    });
    expect(dashboard.month).toMatchObject({ itemsShared: 4, goal: 500, progressPercent: 0.8 });
    expect(dashboard.activeSharers).toMatchObject({ thisMonth: 2 });
  });

  it('counts a reservation once, and never one that did not complete', async () => {
    const lender = await createSignedInUser(db(), { campus });
    const borrower = await createSignedInUser(db(), { campus });
    const r = await activeReservation({
      lenderId: lender.user.id,
      borrowerId: borrower.user.id,
      campus,
      category: 'kitchen',
      rentalCents: 0,
    });
    const before = (await t.get(`/api/impact/${campus}`)).json().impact;

    // Cancelling is not completing.
    const cancelled = await activeReservation({
      lenderId: lender.user.id,
      borrowerId: borrower.user.id,
      campus,
      category: 'tools',
      rentalCents: 0,
    });
    await db().update(reservations).set({ status: 'approved' }).where(eq(reservations.id, cancelled.id));
    expect(
      (await t.put(`/api/reservations/${cancelled.id}`, { status: 'cancelled' }, borrower.cookie)).statusCode,
    ).toBe(200);
    expect((await t.get(`/api/impact/${campus}`)).json().impact.itemsShared).toBe(before.itemsShared);

    expect(
      (await t.put(`/api/reservations/${r.id}`, { status: 'returned' }, borrower.cookie)).statusCode,
    ).toBe(200);
    // Returned is not yet shared: the lender's confirmation completes it.
    expect((await t.get(`/api/impact/${campus}`)).json().impact.itemsShared).toBe(before.itemsShared);
    expect(
      (await t.put(`/api/reservations/${r.id}`, { status: 'completed' }, lender.cookie)).statusCode,
    ).toBe(200);
    const after = (await t.get(`/api/impact/${campus}`)).json().impact;
    // kitchen, free: 0.5×6000 = 3000 cents; 0.5×13.5 kg = 6750 g; 0.5×2.5 kg = 1250 g.
    expect(after.itemsShared).toBe(before.itemsShared + 1);
    expect(Number(after.moneySaved) - Number(before.moneySaved)).toBeCloseTo(30, 10);
    expect(after.co2Saved - before.co2Saved).toBeCloseTo(6.75, 10);
    expect(after.wasteReduced - before.wasteReduced).toBeCloseTo(1.25, 10);

    // Completing again is refused and changes nothing; recording again adds nothing.
    expect(
      (await t.put(`/api/reservations/${r.id}`, { status: 'completed' }, lender.cookie)).statusCode,
    ).toBe(409);
    expect(await db().transaction((tx) => impactService.recordCompletion(tx, r.id))).toBe(false);
    expect((await t.get(`/api/impact/${campus}`)).json().impact).toEqual(after);
  });

  it('rolls back with the transaction that completes the reservation', async () => {
    const lender = await createUser(db(), { campus });
    const borrower = await createUser(db(), { campus });
    const r = await activeReservation({
      lenderId: lender.id,
      borrowerId: borrower.id,
      campus,
      category: 'books',
      rentalCents: 0,
    });
    const before = (await t.get(`/api/impact/${campus}`)).json().impact;
    await expect(
      db().transaction(async (tx) => {
        await tx
          .update(reservations)
          .set({ status: 'completed', completedAt: new Date() })
          .where(eq(reservations.id, r.id));
        await impactService.recordCompletion(tx, r.id);
        throw new Error('the notification failed');
      }),
    ).rejects.toThrow('the notification failed');
    expect((await t.get(`/api/impact/${campus}`)).json().impact).toEqual(before);
    const ledger = await db()
      .select()
      .from(impactContributions)
      .where(eq(impactContributions.reservationId, r.id));
    expect(ledger).toEqual([]);
  });
});

describe('who may look, and bad input', () => {
  it('answers visitors and signed-in students alike, zeros for a campus with no borrows yet', async () => {
    const { cookie } = await createSignedInUser(db());
    const visitor = await t.get('/api/impact/harvard.edu');
    const student = await t.get('/api/impact/harvard.edu', cookie);
    expect(visitor.statusCode).toBe(200);
    expect(student.json()).toEqual(visitor.json());
    expect(visitor.json().impact).toEqual({
      campus: 'harvard.edu',
      campusName: 'Harvard University',
      itemsShared: 0,
      moneySaved: '0.00',
      co2Saved: 0,
      wasteReduced: 0,
      updatedAt: null,
    });
    const dashboard = await t.get('/api/impact/harvard.edu/dashboard');
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.json()).toMatchObject({
      month: { itemsShared: 0, progressPercent: 0 },
      activeSharers: { thisMonth: 0, lastMonth: 0, changePercent: null },
      topContributors: [],
    });
    expect((await t.get('/api/impact/HARVARD.EDU')).json().impact.campus).toBe('harvard.edu');
  });

  it('refuses a malformed campus with 400 and an unknown one with 404', async () => {
    for (const path of ['', '/dashboard', '/leaderboard']) {
      for (const bad of [
        'stanford',
        'not%20a%20campus',
        'stanford..edu',
        '-x.edu',
        `${'a'.repeat(64)}.edu`,
      ]) {
        const response = await t.get(`/api/impact/${bad}${path}`);
        expect(response.statusCode, `${bad}${path}`).toBe(400);
        expect(response.json()).toMatchObject({
          code: 'VALIDATION',
          message: 'Campus must be a university domain such as stanford.edu',
        });
      }
      const unknown = await t.get(`/api/impact/nowhere.example.edu${path}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toMatch(/^Campus not found/);
    }
    // Nothing was created for them.
    expect(
      await db().select().from(campusImpact).where(eq(campusImpact.campus, 'nowhere.example.edu')),
    ).toEqual([]);
  });
});

describe('the dashboard’s derived figures', () => {
  const campus = 'berkeley.edu';
  // Wednesday 18 March 2026, 13:00 in California: the week began Monday 16 March (PDT), the month on
  // 1 March (PST), last month on 1 February.
  const now = new Date('2026-03-18T20:00:00Z');

  it('counts active sharers, categories, the monthly goal and this week’s top contributors', async () => {
    const [l1, l2, b1, b2, b3] = await Promise.all(
      ['Avery One', 'Blake Two', 'Casey', 'Devon', 'Emery'].map((fullName) =>
        createUser(db(), { campus, fullName }),
      ),
    );
    const suspended = await createUser(db(), { campus });
    await db()
      .insert(userBadges)
      .values([
        { userId: l1!.id, badgeType: 'first_lend' },
        { userId: l1!.id, badgeType: 'trusted_lender' },
      ]);
    const p = (lender: typeof l1, borrower: typeof l1, category: Category) => ({
      lenderId: lender!.id,
      borrowerId: borrower!.id,
      campus,
      category,
    });
    await completedAt('2026-01-20T18:00:00Z', p(l1, b3, 'clothing')); // before last month
    await completedAt('2026-02-10T18:00:00Z', p(l1, b1, 'tools')); // last month
    await completedAt('2026-02-11T18:00:00Z', p(l2, b2, 'books')); // last month
    await completedAt('2026-03-05T18:00:00Z', p(l1, b1, 'kitchen')); // this month
    await completedAt('2026-03-16T06:59:00Z', p(l1, b3, 'other')); // Sunday 23:59 on campus: not this week
    await completedAt('2026-03-16T10:00:00Z', p(l2, b3, 'electronics')); // this week
    await completedAt('2026-03-17T18:00:00Z', p(l2, b1, 'tools')); // this week
    await completedAt('2026-03-18T19:00:00Z', p(l1, b2, 'books')); // this week
    await completedAt('2026-03-18T19:00:00Z', p(l2, suspended, 'books')); // this week, a suspended borrower
    // Suspended after borrowing: nothing new is written in a suspended person's name (decision 037).
    await db()
      .update(users)
      .set({ suspendedAt: new Date('2026-03-19T00:00:00Z') })
      .where(eq(users.id, suspended.id));

    const dashboard = await impactService.dashboard({ db: db(), timeZone: TZ }, campus, now);

    expect(dashboard.impact.itemsShared).toBe(9);
    // This month: 6 borrows (5 Mar, 16 Mar ×2, 17 Mar, 18 Mar ×2) by l1, l2, b1, b2, b3 and the suspended one.
    expect(dashboard.month).toEqual({
      start: '2026-03-01T08:00:00.000Z',
      itemsShared: 6,
      goal: 500,
      progressPercent: 1.2, // 6 / 500
    });
    // Last month: l1, b1, l2, b2 = 4; this month 6; (6 − 4) / 4 = +50 %.
    expect(dashboard.activeSharers).toEqual({ thisMonth: 6, lastMonth: 4, changePercent: 50 });
    // Five students; the suspended one is not counted.
    expect(dashboard.communityMembers).toBe(5);
    expect(dashboard.categories.map((c) => [c.category, c.itemsShared])).toEqual([
      ['books', 3],
      ['tools', 2],
      ['clothing', 1],
      ['kitchen', 1],
      ['electronics', 1],
      ['other', 1],
      ['professional', 0],
      ['furniture', 0],
    ]);
    // books: 3 × 600 g = 1.8 kg.
    expect(dashboard.categories[0]!.co2Saved).toBeCloseTo(1.8, 10);
    // This week (since Monday 00:00 on campus): l2 lent 3 (electronics 11.5 kg + tools 6.7 kg + books 0.6 kg),
    // l1 lent 1 (books 0.6 kg); the Sunday-night return is last week's.
    expect(dashboard.topContributors).toEqual([
      expect.objectContaining({ rank: 1, userId: l2!.id, name: 'Blake Two', itemsShared: 3, badges: 0 }),
      expect.objectContaining({ rank: 2, userId: l1!.id, name: 'Avery One', itemsShared: 1, badges: 2 }),
    ]);
    expect(dashboard.topContributors[0]!.co2Saved).toBeCloseTo(18.8, 10);
    expect(dashboard.topContributors[1]!.co2Saved).toBeCloseTo(0.6, 10);

    const leaderboard = await impactService.leaderboard({ db: db(), timeZone: TZ }, campus, now);
    expect(leaderboard).toEqual({
      weekStart: '2026-03-16T07:00:00.000Z',
      topContributors: dashboard.topContributors,
    });

    // A month later, this month's sharers are last month's.
    const april = await impactService.dashboard(
      { db: db(), timeZone: TZ },
      campus,
      new Date('2026-04-02T18:00:00Z'),
    );
    expect(april.activeSharers).toEqual({ thisMonth: 0, lastMonth: 6, changePercent: -100 });
    expect(april.topContributors).toEqual([]);
  });

  it('unlocks each achievement exactly at its threshold, and caps the monthly goal at 100 %', async () => {
    const mit = 'mit.edu';
    const lender = await createUser(db(), { campus: mit });
    const borrower = await createUser(db(), { campus: mit });
    const item = await createItem(db(), { userId: lender.id, campus: mit, category: 'books' });
    // 510 borrows completed this month (a quick insert of the ledger; the totals row is set to match).
    await db().execute(sql`
      with r as (
        insert into reservations (item_id, borrower_id, provider_id, start_date, end_date, status, completed_at)
        select ${item.id}, ${borrower.id}, ${lender.id}, '2026-03-02', '2026-03-03', 'completed',
               timestamptz '2026-03-10T18:00:00Z' + n * interval '1 minute'
        from generate_series(1, 510) as n
        returning id, completed_at
      )
      insert into impact_contributions
        (reservation_id, campus, category, lender_id, borrower_id, money_saved_cents, co2_saved_grams,
         waste_reduced_grams, completed_at)
      select id, ${mit}, 'books', ${lender.id}, ${borrower.id}, 4000, 600, 500, completed_at from r
    `);
    await db().insert(campusImpact).values({ campus: mit, itemsShared: 99, co2SavedGrams: 999_999 });
    const deps = { db: db(), timeZone: TZ };
    const unlocked = async () =>
      Object.fromEntries(
        (await impactService.dashboard(deps, mit, now)).achievements.map((a) => [a.title, a.unlocked]),
      );

    const dashboard = await impactService.dashboard(deps, mit, now);
    expect(dashboard.month).toMatchObject({ itemsShared: 510, progressPercent: 100 });
    expect(dashboard.achievements).toEqual([
      expect.objectContaining({ id: 'first-100', threshold: 100, current: 99, unlocked: false }),
      expect.objectContaining({ id: 'green-campus', threshold: 1000, current: 999.999, unlocked: false }),
      expect.objectContaining({ id: 'community-builder', threshold: 100, current: 2, unlocked: false }),
      expect.objectContaining({
        id: 'sustainability-champion',
        threshold: 1000,
        current: 99,
        unlocked: false,
      }),
    ]);

    await db()
      .update(campusImpact)
      .set({ itemsShared: 100, co2SavedGrams: 1_000_000 })
      .where(eq(campusImpact.campus, mit));
    // 98 more students make 100 members.
    await db()
      .insert(users)
      .values(
        Array.from({ length: 98 }, (_, i) => ({
          email: `member${i}@mit.edu`,
          username: `mit_member_${i}`,
          fullName: `Member ${i}`,
          campus: mit,
          passwordHash: 'not-a-real-hash',
        })),
      );
    expect(await unlocked()).toEqual({
      'First 100': true,
      'Green Campus': true,
      'Community Builder': true,
      'Sustainability Champion': false,
    });

    await db().update(campusImpact).set({ itemsShared: 1000 }).where(eq(campusImpact.campus, mit));
    expect((await unlocked())['Sustainability Champion']).toBe(true);
  });
});

describe('GET /api/impact (campuses for the picker)', () => {
  it('lists campuses with borrows, most first, and offers the most active one to visitors', async () => {
    const response = await t.get('/api/impact');
    expect(response.statusCode).toBe(200);
    const { campuses, defaultCampus } = response.json();
    // mit.edu (1000, set above), berkeley.edu (9), ucla.edu (5); harvard.edu has none.
    expect(campuses.map((c: { campus: string }) => c.campus)).toEqual([
      'mit.edu',
      'berkeley.edu',
      'ucla.edu',
    ]);
    expect(campuses[1]).toEqual({
      campus: 'berkeley.edu',
      campusName: 'University of California-Berkeley',
      itemsShared: 9,
    });
    expect(defaultCampus).toEqual({ campus: 'mit.edu', campusName: 'Massachusetts Institute of Technology' });
  });
});
