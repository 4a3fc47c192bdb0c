import { and, eq, gte, inArray, lt, lte, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ReminderKind } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { items } from '../../db/schema/items.ts';
import { reservationReminders, reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about reminders.

const reminderColumns = {
  id: reservations.id,
  itemId: reservations.itemId,
  borrowerId: reservations.borrowerId,
  providerId: reservations.providerId,
  status: reservations.status,
  startDate: reservations.startDate,
  endDate: reservations.endDate,
  createdAt: reservations.createdAt,
  authorisedAt: reservations.authorisedAt,
};

export type ReminderCandidate = Awaited<ReturnType<typeof findCandidates>>[number];

/**
 * Reservations that may have a reminder due around `today` (a campus date): approved ones picking up
 * today or tomorrow, active ones due back today or tomorrow, and pending requests (few: they expire
 * within days). With the kinds each has had already.
 */
export async function findCandidates(db: Db, today: string, tomorrow: string) {
  const rows = await db
    .select({
      ...reminderColumns,
      sent: sql<
        ReminderKind[]
      >`coalesce((select array_agg(${reservationReminders.kind}) from ${reservationReminders} where ${reservationReminders.reservationId} = ${reservations.id}), '{}')`,
    })
    .from(reservations)
    .where(
      or(
        and(
          eq(reservations.status, 'approved'),
          gte(reservations.startDate, today),
          lte(reservations.startDate, tomorrow),
        ),
        and(
          eq(reservations.status, 'active'),
          gte(reservations.endDate, today),
          lte(reservations.endDate, tomorrow),
        ),
        eq(reservations.status, 'pending'),
        // Overdue: still out after its end day.
        and(eq(reservations.status, 'active'), lt(reservations.endDate, today)),
      ),
    )
    .limit(2000);
  // Both drivers: an array, or PGlite's text form of one.
  return rows.map((row) => ({ ...row, sent: kindsOf(row.sent) }));
}

function kindsOf(value: unknown): ReminderKind[] {
  if (Array.isArray(value)) return value as ReminderKind[];
  if (typeof value === 'string')
    return value
      .replace(/^\{|\}$/g, '')
      .split(',')
      .filter(Boolean) as ReminderKind[];
  return [];
}

/** The reservation as it is now, locked until the transaction ends (a status change waits for us). */
export async function lockForReminder(db: Db, id: string) {
  const [row] = await db
    .select(reminderColumns)
    .from(reservations)
    .where(eq(reservations.id, id))
    .for('update')
    .limit(1);
  return row;
}

/** Records the reminder; false when it was sent already (by another round or another instance). */
export async function recordSent(db: Db, reservationId: string, kind: ReminderKind, at: Date) {
  const rows = await db
    .insert(reservationReminders)
    .values({ reservationId, kind, sentAt: at })
    .onConflictDoNothing()
    .returning({ kind: reservationReminders.kind });
  return rows.length > 0;
}

const borrower = alias(users, 'borrower');
const lender = alias(users, 'lender');

/** The names and the item title the reminder's words need. */
export async function findWording(db: Db, reservationId: string) {
  const [row] = await db
    .select({ title: items.title, borrowerName: borrower.fullName, lenderName: lender.fullName })
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .innerJoin(borrower, eq(borrower.id, reservations.borrowerId))
    .innerJoin(lender, eq(lender.id, reservations.providerId))
    .where(eq(reservations.id, reservationId))
    .limit(1);
  return row;
}

/** The reminders a reservation has had (tests, and the moderators' view of a dispute later). */
export async function sentFor(db: Db, reservationIds: string[]) {
  if (reservationIds.length === 0) return [];
  return db
    .select()
    .from(reservationReminders)
    .where(inArray(reservationReminders.reservationId, reservationIds));
}

/** A booking's return day moved: its return reminders are forgotten so they go out for the new day. */
export async function forgetReturnReminders(db: Db, reservationId: string) {
  await db
    .delete(reservationReminders)
    .where(
      and(
        eq(reservationReminders.reservationId, reservationId),
        inArray(reservationReminders.kind, ['return_eve', 'return_morning']),
      ),
    );
}
