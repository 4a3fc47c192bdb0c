import { and, count, desc, eq, gte, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { campusImpact, impactContributions, userBadges } from '../../db/schema/community.ts';
import { items } from '../../db/schema/items.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about campus impact. Every dashboard query reads one campus
// through a unique or (campus, completed_at) index, so Home can afford to ask on every visit.

/** What the ledger needs of a completed reservation: its parties, fee, when, and the item's campus and category. */
export async function findCompletedReservation(db: Db, reservationId: string) {
  const [row] = await db
    .select({
      id: reservations.id,
      status: reservations.status,
      borrowerId: reservations.borrowerId,
      providerId: reservations.providerId,
      rentalCents: reservations.rentalCents,
      completedAt: reservations.completedAt,
      campus: items.campus,
      category: items.category,
    })
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .where(eq(reservations.id, reservationId))
    .limit(1);
  return row;
}

/** Adds the ledger row unless the reservation already has one; answers whether it was added. */
export async function insertContribution(db: Db, row: typeof impactContributions.$inferInsert) {
  const inserted = await db
    .insert(impactContributions)
    .values(row)
    .onConflictDoNothing({ target: impactContributions.reservationId })
    .returning({ id: impactContributions.id });
  return inserted.length > 0;
}

/** Adds one borrow's savings to the campus's running totals, creating the row on its first borrow. */
export async function addToCampusTotals(
  db: Db,
  campus: string,
  add: { moneySavedCents: number; co2SavedGrams: number; wasteReducedGrams: number },
) {
  await db
    .insert(campusImpact)
    .values({ campus, itemsShared: 1, ...add })
    .onConflictDoUpdate({
      target: campusImpact.campus,
      set: {
        itemsShared: sql`${campusImpact.itemsShared} + 1`,
        moneySavedCents: sql`${campusImpact.moneySavedCents} + ${add.moneySavedCents}`,
        co2SavedGrams: sql`${campusImpact.co2SavedGrams} + ${add.co2SavedGrams}`,
        wasteReducedGrams: sql`${campusImpact.wasteReducedGrams} + ${add.wasteReducedGrams}`,
        updatedAt: sql`now()`,
      },
    });
}

export async function findCampusTotals(db: Db, campus: string) {
  const [row] = await db.select().from(campusImpact).where(eq(campusImpact.campus, campus)).limit(1);
  return row;
}

/** Campuses that have shared anything, most first. */
export function listActiveCampuses(db: Db, limit: number) {
  return db
    .select({ campus: campusImpact.campus, itemsShared: campusImpact.itemsShared })
    .from(campusImpact)
    .where(sql`${campusImpact.itemsShared} > 0`)
    .orderBy(desc(campusImpact.itemsShared), campusImpact.campus)
    .limit(limit);
}

/**
 * This month's and last month's activity in one pass over two months of the ledger: borrows
 * completed this month, and distinct people (lenders and borrowers) active in each month.
 */
export async function monthActivity(
  db: Db,
  campus: string,
  period: { lastMonthStart: Date; monthStart: Date; now: Date },
) {
  const { lastMonthStart, monthStart, now } = period;
  const result = await db.execute<{ items_this_month: number; this_month: number; last_month: number }>(sql`
    select
      count(distinct c.id) filter (where c.completed_at >= ${monthStart})::int as items_this_month,
      count(distinct p.person) filter (where c.completed_at >= ${monthStart})::int as this_month,
      count(distinct p.person) filter (where c.completed_at < ${monthStart})::int as last_month
    from ${impactContributions} c
    cross join lateral (values (c.lender_id), (c.borrower_id)) as p(person)
    where c.campus = ${campus} and c.completed_at >= ${lastMonthStart} and c.completed_at <= ${now}
  `);
  const row = result.rows[0];
  return {
    itemsThisMonth: Number(row?.items_this_month ?? 0),
    activeThisMonth: Number(row?.this_month ?? 0),
    activeLastMonth: Number(row?.last_month ?? 0),
  };
}

/** Borrows and CO2e per category, all time. */
export function categoryTotals(db: Db, campus: string) {
  return db
    .select({
      category: impactContributions.category,
      itemsShared: count(),
      co2SavedGrams: sql<number>`coalesce(sum(${impactContributions.co2SavedGrams}), 0)::bigint`.mapWith(
        Number,
      ),
    })
    .from(impactContributions)
    .where(eq(impactContributions.campus, campus))
    .groupBy(impactContributions.category);
}

/** Students on the campus who may use it (suspended accounts are not community). */
export async function countMembers(db: Db, campus: string) {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.campus, campus), isNull(users.suspendedAt)));
  return Number(row?.n ?? 0);
}

/**
 * Lenders ranked by borrows of their things completed in [since, until], then by CO2e, then by name;
 * with how many badges each holds. Suspended accounts are left off the board.
 */
export async function topLenders(db: Db, campus: string, since: Date, until: Date, limit: number) {
  const totals = db
    .select({
      lenderId: impactContributions.lenderId,
      itemsShared: count().as('items_shared'),
      co2SavedGrams: sql<number>`sum(${impactContributions.co2SavedGrams})`.as('co2_saved_grams'),
    })
    .from(impactContributions)
    .where(
      and(
        eq(impactContributions.campus, campus),
        gte(impactContributions.completedAt, since),
        lte(impactContributions.completedAt, until),
      ),
    )
    .groupBy(impactContributions.lenderId)
    .as('totals');
  const rows = await db
    .select({
      userId: users.id,
      name: users.fullName,
      username: users.username,
      profileImage: users.profileImage,
      itemsShared: totals.itemsShared,
      co2SavedGrams: totals.co2SavedGrams,
      badges: sql<number>`(select count(*) from ${userBadges} where ${userBadges.userId} = ${users.id})::int`,
    })
    .from(totals)
    .innerJoin(users, and(eq(users.id, totals.lenderId), isNull(users.suspendedAt)))
    .orderBy(desc(totals.itemsShared), desc(totals.co2SavedGrams), users.fullName)
    .limit(limit);
  return rows.map((r) => ({
    ...r,
    itemsShared: Number(r.itemsShared),
    co2SavedGrams: Number(r.co2SavedGrams),
    badges: Number(r.badges),
  }));
}
