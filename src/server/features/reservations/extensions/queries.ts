import { and, eq, gte, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ExtensionStatus } from '#shared/booking/extensions.ts';
import type { Db } from '../../../db/client.ts';
import { reservationExtensions } from '../../../db/schema/extensions.ts';
import { items } from '../../../db/schema/items.ts';
import { reservations } from '../../../db/schema/reservations.ts';
import { users } from '../../../db/schema/users.ts';

// The only place with Drizzle queries about booking extensions (decision 031).

export type ExtensionRow = typeof reservationExtensions.$inferSelect;

const borrower = alias(users, 'borrower');
const lender = alias(users, 'lender');

/** The booking an extension is asked for, with what its price and window need and both names. */
export async function findBooking(db: Db, reservationId: string) {
  const [row] = await db
    .select({
      id: reservations.id,
      itemId: reservations.itemId,
      borrowerId: reservations.borrowerId,
      providerId: reservations.providerId,
      startDate: reservations.startDate,
      endDate: reservations.endDate,
      status: reservations.status,
      itemTitle: items.title,
      itemGone: sql<boolean>`(${items.deletedAt} is not null or ${items.hiddenAt} is not null)`,
      rentalPriceCents: items.rentalPriceCents,
      rentalPeriod: items.rentalPeriod,
      depositCents: items.depositCents,
      availableFrom: items.availableFrom,
      availableUntil: items.availableUntil,
      availableDays: items.availableDays,
      borrowerName: borrower.fullName,
      lenderName: lender.fullName,
    })
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .innerJoin(borrower, eq(borrower.id, reservations.borrowerId))
    .innerJoin(lender, eq(lender.id, reservations.providerId))
    .where(eq(reservations.id, reservationId))
    .limit(1);
  return row;
}
export type Booking = NonNullable<Awaited<ReturnType<typeof findBooking>>>;

export async function findExtension(db: Db, id: string): Promise<ExtensionRow | undefined> {
  const [row] = await db.select().from(reservationExtensions).where(eq(reservationExtensions.id, id));
  return row;
}

export async function lockExtension(db: Db, id: string): Promise<ExtensionRow | undefined> {
  const [row] = await db
    .select()
    .from(reservationExtensions)
    .where(eq(reservationExtensions.id, id))
    .for('update');
  return row;
}

/**
 * Other reservations of the item that share a day with [start, end] in these statuses: what an
 * extension's extra days may not touch.
 */
export async function otherReservationsOverlapping(
  db: Db,
  itemId: string,
  exceptReservationId: string,
  range: { startDate: string; endDate: string },
  statuses: readonly string[],
) {
  return db
    .select({
      id: reservations.id,
      borrowerId: reservations.borrowerId,
      startDate: reservations.startDate,
      endDate: reservations.endDate,
      status: reservations.status,
      depositCents: reservations.depositCents,
      rentalCents: reservations.rentalCents,
      serviceFeeCents: reservations.serviceFeeCents,
      stripePaymentIntentId: reservations.stripePaymentIntentId,
    })
    .from(reservations)
    .where(
      and(
        eq(reservations.itemId, itemId),
        ne(reservations.id, exceptReservationId),
        inArray(reservations.status, [...statuses]),
        lte(reservations.startDate, range.endDate),
        gte(reservations.endDate, range.startDate),
      ),
    )
    .orderBy(reservations.startDate);
}

/** Pending extensions of other bookings of the item whose extra days share a day with [start, end]. */
export async function pendingOverlapping(
  db: Db,
  itemId: string,
  range: { startDate: string; endDate: string },
  exceptReservationId: string | null,
) {
  return db
    .select()
    .from(reservationExtensions)
    .where(
      and(
        eq(reservationExtensions.itemId, itemId),
        eq(reservationExtensions.status, 'pending'),
        exceptReservationId ? ne(reservationExtensions.reservationId, exceptReservationId) : undefined,
        // The extra days run from the day after the old end to the new end.
        lt(reservationExtensions.previousEndDate, range.endDate),
        gte(reservationExtensions.newEndDate, range.startDate),
      ),
    )
    .for('update');
}

export async function insertExtension(db: Db, values: typeof reservationExtensions.$inferInsert) {
  const [row] = await db.insert(reservationExtensions).values(values).returning();
  return row!;
}

export async function setStatus(db: Db, id: string, status: ExtensionStatus) {
  await db
    .update(reservationExtensions)
    .set({ status, updatedAt: new Date(), ...(status === 'pending' ? {} : { answeredAt: new Date() }) })
    .where(eq(reservationExtensions.id, id));
}

/** A booking's extensions in these statuses, locked (the booking ends: they end with it). */
export async function extensionsOfReservation(db: Db, reservationId: string, statuses: ExtensionStatus[]) {
  return db
    .select()
    .from(reservationExtensions)
    .where(
      and(
        eq(reservationExtensions.reservationId, reservationId),
        inArray(reservationExtensions.status, statuses),
      ),
    )
    .for('update');
}

/** The pending extension of each of these bookings (at most one each). */
export async function pendingForReservations(db: Db, reservationIds: string[]) {
  if (!reservationIds.length) return [];
  return db
    .select()
    .from(reservationExtensions)
    .where(
      and(
        inArray(reservationExtensions.reservationId, reservationIds),
        eq(reservationExtensions.status, 'pending'),
      ),
    );
}

/**
 * Pending extensions whose booking's current last day is over, or whose card was authorised before
 * `authorisedBefore` (kept as long as an authorisation is): they lapse unanswered.
 */
export async function lapsedPending(db: Db, today: string, authorisedBefore: Date) {
  return db
    .select({ id: reservationExtensions.id })
    .from(reservationExtensions)
    .where(
      and(
        eq(reservationExtensions.status, 'pending'),
        or(
          lt(reservationExtensions.previousEndDate, today),
          lte(reservationExtensions.authorisedAt, authorisedBefore),
        ),
      ),
    )
    .limit(500);
}

/** The extension a payment was used for, if any (the 3-D Secure return may arrive twice). */
export async function findByPaymentIntent(db: Db, paymentIntentId: string) {
  const [row] = await db
    .select({ id: reservationExtensions.id })
    .from(reservationExtensions)
    .where(eq(reservationExtensions.paymentIntentId, paymentIntentId));
  return row;
}

/** Each booking's approved extensions, in the order they moved its end (bookings with none are left out). */
export async function approvedFor(db: Db, reservationIds: string[]) {
  if (!reservationIds.length) return [];
  return db
    .select({
      reservationId: reservationExtensions.reservationId,
      previousEndDate: reservationExtensions.previousEndDate,
      newEndDate: reservationExtensions.newEndDate,
      rentalCents: reservationExtensions.rentalCents,
      serviceFeeCents: reservationExtensions.serviceFeeCents,
    })
    .from(reservationExtensions)
    .where(
      and(
        inArray(reservationExtensions.reservationId, reservationIds),
        eq(reservationExtensions.status, 'approved'),
      ),
    )
    .orderBy(reservationExtensions.previousEndDate);
}

/** Pending extensions whose lender has not been reminded yet that they lapse (few: they lapse within days). */
export async function pendingNotReminded(db: Db) {
  return db
    .select()
    .from(reservationExtensions)
    .where(and(eq(reservationExtensions.status, 'pending'), isNull(reservationExtensions.lapseRemindedAt)))
    .limit(500);
}

/** Records the lender's reminder; false when it was recorded already, or the request is answered. */
export async function markLapseReminded(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(reservationExtensions)
    .set({ lapseRemindedAt: at })
    .where(
      and(
        eq(reservationExtensions.id, id),
        eq(reservationExtensions.status, 'pending'),
        isNull(reservationExtensions.lapseRemindedAt),
      ),
    )
    .returning({ id: reservationExtensions.id });
  return rows.length > 0;
}
