import { and, asc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { BOOKED_STATUSES } from '#shared/booking/availability.ts';
import type { Db } from '../../db/client.ts';
import { lockItemCalendar } from '../../db/item-lock.ts';
import { items } from '../../db/schema/items.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';
import { waitlistEntries } from '../../db/schema/waitlist.ts';

// The only place with Drizzle queries about the waitlist.

/** What decides whether an item's dates can be booked: its window, whether it is offered at all. */
export async function findItem(db: Db, itemId: string) {
  const [row] = await db
    .select({
      id: items.id,
      userId: items.userId,
      title: items.title,
      campus: items.campus,
      isAvailable: items.isAvailable,
      deletedAt: items.deletedAt,
      hiddenAt: items.hiddenAt,
      ownerSuspendedAt: users.suspendedAt,
      availableFrom: items.availableFrom,
      availableUntil: items.availableUntil,
      availableDays: items.availableDays,
    })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(eq(items.id, itemId))
    .limit(1);
  return row;
}
export type WaitlistItem = NonNullable<Awaited<ReturnType<typeof findItem>>>;

/** The item's calendar lock (db/item-lock.ts), taken first by every change to its bookings. */
export const lockItemForWaitlist = lockItemCalendar;

/**
 * Days a waiting student cannot have yet, from `fromDate` on: booked ones, and ones a request the lender
 * has not answered asks for (the lender may approve it first; decision 050).
 */
export function takenRanges(db: Db, itemId: string, fromDate: string) {
  return db
    .select({ startDate: reservations.startDate, endDate: reservations.endDate })
    .from(reservations)
    .where(
      and(
        eq(reservations.itemId, itemId),
        inArray(reservations.status, [...BOOKED_STATUSES, 'pending']),
        gte(reservations.endDate, fromDate),
      ),
    );
}

export async function insertEntry(
  db: Db,
  values: { itemId: string; userId: string; startDate: string; endDate: string },
) {
  const [row] = await db.insert(waitlistEntries).values(values).returning();
  return row!;
}
export type EntryRow = Awaited<ReturnType<typeof insertEntry>>;

export async function countWaiting(db: Db, itemId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.itemId, itemId),
        eq(waitlistEntries.userId, userId),
        eq(waitlistEntries.status, 'waiting'),
      ),
    );
  return row?.n ?? 0;
}

/** A person's entries for an item: those waiting, and those told since `toldSince` whose dates are not past. */
export function listForUser(db: Db, userId: string, itemId: string, today: string, toldSince: Date) {
  return db
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.userId, userId),
        eq(waitlistEntries.itemId, itemId),
        gte(waitlistEntries.startDate, today),
        or(eq(waitlistEntries.status, 'waiting'), gte(waitlistEntries.notifiedAt, toldSince)),
      ),
    )
    .orderBy(asc(waitlistEntries.startDate), asc(waitlistEntries.seq));
}

export async function deleteOwn(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(waitlistEntries)
    .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.userId, userId)))
    .returning({ id: waitlistEntries.id });
  return rows.length > 0;
}

/** Entries still waiting for dates not yet begun, oldest first, of people who can still be told. */
export function waitingFor(db: Db, itemId: string, today: string) {
  return db
    .select({
      id: waitlistEntries.id,
      userId: waitlistEntries.userId,
      startDate: waitlistEntries.startDate,
      endDate: waitlistEntries.endDate,
    })
    .from(waitlistEntries)
    .innerJoin(users, eq(users.id, waitlistEntries.userId))
    .where(
      and(
        eq(waitlistEntries.itemId, itemId),
        eq(waitlistEntries.status, 'waiting'),
        gte(waitlistEntries.startDate, today),
        isNull(users.deletedAt),
        isNull(users.suspendedAt),
      ),
    )
    .orderBy(asc(waitlistEntries.seq));
}

/** Dates someone was told about since `since`: theirs for the head start. */
export function heldRanges(db: Db, itemId: string, since: Date, today: string) {
  return db
    .select({ startDate: waitlistEntries.startDate, endDate: waitlistEntries.endDate })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.itemId, itemId),
        eq(waitlistEntries.status, 'notified'),
        gte(waitlistEntries.notifiedAt, since),
        gte(waitlistEntries.endDate, today),
      ),
    );
}

/**
 * Closes entries as told; answers those this statement closed. The `waiting` condition makes a second
 * telling impossible even without the item's lock: a concurrent update waits for the row, then finds it
 * no longer waiting.
 */
export function markNotified(db: Db, ids: string[], at: Date) {
  return db
    .update(waitlistEntries)
    .set({ status: 'notified', notifiedAt: at })
    .where(and(inArray(waitlistEntries.id, ids), eq(waitlistEntries.status, 'waiting')))
    .returning({
      id: waitlistEntries.id,
      userId: waitlistEntries.userId,
      startDate: waitlistEntries.startDate,
      endDate: waitlistEntries.endDate,
    });
}

/** Drops entries for dates that have begun (waiting) or ended (told); answers how many. */
export async function dropPast(db: Db, today: string): Promise<number> {
  const rows = await db
    .delete(waitlistEntries)
    .where(
      or(
        and(eq(waitlistEntries.status, 'waiting'), lt(waitlistEntries.startDate, today)),
        lt(waitlistEntries.endDate, today),
      ),
    )
    .returning({ id: waitlistEntries.id });
  return rows.length;
}

/** Items someone waits for. */
export async function itemsWithWaiting(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ itemId: waitlistEntries.itemId })
    .from(waitlistEntries)
    .where(eq(waitlistEntries.status, 'waiting'));
  return rows.map((r) => r.itemId);
}
