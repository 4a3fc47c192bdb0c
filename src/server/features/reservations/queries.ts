import { randomUUID } from 'node:crypto';
import {
  and,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  lt,
  lte,
  ne,
  or,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { BOOKED_STATUSES } from '#shared/booking/availability.ts';
import type { ReservationStatus } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { lockItemCalendar } from '../../db/item-lock.ts';
import { jsonRow, subqueries } from '../../db/json-rows.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { items } from '../../db/schema/items.ts';
import { paymentIntents, savedPaymentMethods } from '../../db/schema/payments.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about reservations.

const provider = alias(users, 'provider');
const borrower = alias(users, 'borrower');
const party = (u: typeof provider | typeof borrower) => ({
  id: u.id,
  fullName: u.fullName,
  username: u.username,
  profileImage: u.profileImage,
});

const reservationColumns = {
  id: reservations.id,
  itemId: reservations.itemId,
  borrowerId: reservations.borrowerId,
  providerId: reservations.providerId,
  startDate: reservations.startDate,
  endDate: reservations.endDate,
  status: reservations.status,
  depositCents: reservations.depositCents,
  rentalCents: reservations.rentalCents,
  serviceFeeCents: reservations.serviceFeeCents,
  lenderCommissionCents: reservations.lenderCommissionCents,
  stripePaymentIntentId: reservations.stripePaymentIntentId,
  authorisedAt: reservations.authorisedAt,
  authoriseFrom: reservations.authoriseFrom,
  cardProblem: reservations.cardProblem,
  cardFixBy: reservations.cardFixBy,
  pickupCode: reservations.pickupCode,
  declineReason: reservations.declineReason,
  cancellationPolicy: reservations.cancellationPolicy,
  cancelledBy: reservations.cancelledBy,
  rentalPeriod: reservations.rentalPeriod,
  bookedEndDate: reservations.bookedEndDate,
  earlyRefundCents: reservations.earlyRefundCents,
  createdAt: reservations.createdAt,
  pickedUpAt: reservations.pickedUpAt,
  returnedAt: reservations.returnedAt,
  claimCents: reservations.claimCents,
  claimDescription: reservations.claimDescription,
  claimPhotos: reservations.claimPhotos,
  claimedAt: reservations.claimedAt,
  disputeNote: reservations.disputeNote,
  disputePhotos: reservations.disputePhotos,
  disputedAt: reservations.disputedAt,
  awardedCents: reservations.awardedCents,
  resolvedAt: reservations.resolvedAt,
  item: { id: items.id, title: items.title, images: items.images, pickupMethod: items.pickupMethod },
  provider: party(provider),
  borrower: party(borrower),
};

export type ReservationRow = {
  id: string;
  itemId: string;
  borrowerId: string;
  providerId: string;
  startDate: string;
  endDate: string;
  status: string;
  depositCents: number;
  rentalCents: number;
  serviceFeeCents: number;
  lenderCommissionCents: number;
  stripePaymentIntentId: string | null;
  authorisedAt: Date | null;
  authoriseFrom: Date | null;
  cardProblem: string | null;
  cardFixBy: Date | null;
  pickupCode: string | null;
  declineReason: string | null;
  cancellationPolicy: string;
  cancelledBy: string | null;
  rentalPeriod: string | null;
  bookedEndDate: string | null;
  earlyRefundCents: number | null;
  createdAt: Date;
  pickedUpAt: Date | null;
  returnedAt: Date | null;
  claimCents: number | null;
  claimDescription: string | null;
  claimPhotos: string[];
  claimedAt: Date | null;
  disputeNote: string | null;
  disputePhotos: string[];
  disputedAt: Date | null;
  awardedCents: number | null;
  resolvedAt: Date | null;
  item: { id: string; title: string; images: string[]; pickupMethod: string };
  provider: { id: string; fullName: string; username: string; profileImage: string | null };
  borrower: { id: string; fullName: string; username: string; profileImage: string | null };
};

function selectReservations(db: Db) {
  return db
    .select(reservationColumns)
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .innerJoin(provider, eq(provider.id, reservations.providerId))
    .innerJoin(borrower, eq(borrower.id, reservations.borrowerId));
}

export async function findReservation(db: Db, id: string): Promise<ReservationRow | undefined> {
  const [row] = await selectReservations(db).where(eq(reservations.id, id)).limit(1);
  return row as ReservationRow | undefined;
}

/** Both tabs of My Reservations: where the user borrows and where they lend. */
export async function listForUser(db: Db, userId: string): Promise<ReservationRow[]> {
  const rows = await selectReservations(db)
    .where(or(eq(reservations.borrowerId, userId), eq(reservations.providerId, userId)))
    .orderBy(desc(reservations.createdAt))
    .limit(500);
  return rows as ReservationRow[];
}

/** What booking needs to know of an item, deleted, hidden or not (the service decides). */
const bookableColumns = {
  id: items.id,
  userId: items.userId,
  title: items.title,
  campus: items.campus,
  isAvailable: items.isAvailable,
  deletedAt: items.deletedAt,
  hiddenAt: items.hiddenAt,
  ownerSuspendedAt: users.suspendedAt,
  rentalPriceCents: items.rentalPriceCents,
  rentalPeriod: items.rentalPeriod,
  depositCents: items.depositCents,
  availableFrom: items.availableFrom,
  availableUntil: items.availableUntil,
  availableDays: items.availableDays,
  cancellationPolicy: items.cancellationPolicy,
};

export async function findBookableItem(db: Db, itemId: string) {
  const [row] = await db
    .select(bookableColumns)
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(eq(items.id, itemId))
    .limit(1);
  return row;
}
export type BookableItem = NonNullable<Awaited<ReturnType<typeof findBookableItem>>>;

/** The item's calendar lock (db/item-lock.ts), taken first by every change to its bookings. */
export const lockItem = lockItemCalendar;

/** The reservation's item, read without a lock: it never changes, and it is what is locked first. */
export async function itemOfReservation(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ itemId: reservations.itemId })
    .from(reservations)
    .where(eq(reservations.id, id));
  return row?.itemId;
}

/** The booking as it stands (what a transfer's secured part is worked out from). */
export async function bookingRow(db: Db, id: string) {
  const [row] = await db.select().from(reservations).where(eq(reservations.id, id)).limit(1);
  return row;
}

export async function lockReservation(db: Db, id: string) {
  const [row] = await db.select().from(reservations).where(eq(reservations.id, id)).for('update').limit(1);
  return row;
}

/** Approved or active reservations of the item that share a day with [start, end]. */
const bookedOverlapping = (
  itemId: string | SQLWrapper,
  startDate: string | SQLWrapper,
  endDate: string | SQLWrapper,
) =>
  and(
    eq(reservations.itemId, itemId),
    inArray(reservations.status, [...BOOKED_STATUSES]),
    lte(reservations.startDate, endDate),
    gte(reservations.endDate, startDate),
  );

export async function findOverlapping(db: Db, itemId: string, startDate: string, endDate: string) {
  return db
    .select({ id: reservations.id })
    .from(reservations)
    .where(bookedOverlapping(itemId, startDate, endDate))
    .limit(1);
}

/** Other pending requests for the item whose days overlap [start, end]. */
export async function findOverlappingPending(
  db: Db,
  itemId: string,
  startDate: string,
  endDate: string,
  exceptId: string,
) {
  return db
    .select()
    .from(reservations)
    .where(
      and(
        eq(reservations.itemId, itemId),
        eq(reservations.status, 'pending'),
        ne(reservations.id, exceptId),
        lte(reservations.startDate, endDate),
        gte(reservations.endDate, startDate),
      ),
    )
    .for('update');
}

export async function bookedRanges(db: Db, itemId: string, fromDate: string) {
  return db
    .select({ startDate: reservations.startDate, endDate: reservations.endDate })
    .from(reservations)
    .where(
      and(
        eq(reservations.itemId, itemId),
        inArray(reservations.status, [...BOOKED_STATUSES]),
        gte(reservations.endDate, fromDate),
      ),
    )
    .orderBy(reservations.startDate);
}

/** Days asked for by requests not yet answered, from `fromDate` on (only the days: no requester). */
export async function requestedRanges(db: Db, itemId: string, fromDate: string) {
  return db
    .select({ startDate: reservations.startDate, endDate: reservations.endDate })
    .from(reservations)
    .where(
      and(
        eq(reservations.itemId, itemId),
        eq(reservations.status, 'pending'),
        gte(reservations.endDate, fromDate),
      ),
    )
    .orderBy(reservations.startDate, reservations.endDate);
}

/** A reservation a payment paid for, if any (the 3-D Secure return may arrive twice). */
export async function findByPaymentIntent(db: Db, paymentIntentId: string) {
  const [row] = await db
    .select({ id: reservations.id, borrowerId: reservations.borrowerId })
    .from(reservations)
    .where(eq(reservations.stripePaymentIntentId, paymentIntentId))
    .limit(1);
  return row;
}

/** One more wrong pickup code; answers how many there have been since the code was issued. */
export async function countWrongPickupCode(db: Db, id: string): Promise<number> {
  const [row] = await db
    .update(reservations)
    .set({ pickupCodeAttempts: sql`${reservations.pickupCodeAttempts} + 1` })
    .where(eq(reservations.id, id))
    .returning({ attempts: reservations.pickupCodeAttempts });
  return row?.attempts ?? 0;
}

/** A fresh pickup code, and a fresh allowance of tries. */
export async function reissuePickupCode(db: Db, id: string, pickupCode: string): Promise<void> {
  await db
    .update(reservations)
    .set({ pickupCode, pickupCodeAttempts: 0, updatedAt: new Date() })
    .where(eq(reservations.id, id));
}

export async function insertReservation(db: Db, values: typeof reservations.$inferInsert) {
  const [row] = await db.insert(reservations).values(values).returning({ id: reservations.id });
  return row!.id;
}

/** What a recorded payment must have been made for to pay for a booking (reservations/request.ts). */
export interface PaymentFor {
  borrowerId: string;
  itemId: string;
  startDate: string;
  endDate: string;
  rentalCents: number;
  depositCents: number;
  serviceFeeCents: number;
}

/** Each field a payment is recorded for, named as the payment's own column is. */
export const paymentForFields = (paymentFor: PaymentFor) =>
  Object.entries(paymentFor) as [keyof PaymentFor, PaymentFor[keyof PaymentFor]][];

/**
 * A request's booking, and the payment it takes marked used by it, in one statement: the payment's
 * row is taken (locked, and checked open and made for exactly this booking) by the same statement that
 * books, so the request's transaction makes one round trip where it made two. A request that waited
 * for the row while another booking took it finds it used and books nothing: undefined, and the caller
 * reads the payment to say why. The payment's unique index on reservations still refuses a second
 * booking of the same payment, with the same error as a separate insert.
 *
 * `authorisedAtPayment`: the booking's card was authorised when the payment was recorded (at the
 * latest); false for a card held off-session later, whose authorisation has not happened yet.
 */
export async function insertPaidReservation(
  db: Db,
  values: Omit<typeof reservations.$inferInsert, 'id' | 'authorisedAt'> & { stripePaymentIntentId: string },
  paymentFor: PaymentFor,
  authorisedAtPayment: boolean,
): Promise<string | undefined> {
  // The booking's id is chosen here: the payment names it in the same statement that inserts it.
  const id = randomUUID();
  const taken = db
    .update(paymentIntents)
    .set({ status: 'used', reservationId: id, updatedAt: new Date() })
    .where(
      and(
        eq(paymentIntents.id, values.stripePaymentIntentId),
        eq(paymentIntents.status, 'open'),
        ...paymentForFields(paymentFor).map(([field, value]) => eq(paymentIntents[field], value)),
      ),
    )
    .returning({ createdAt: paymentIntents.createdAt });
  const columns = getTableColumns(reservations);
  const given = Object.entries({ ...values, id }).filter(([, value]) => value !== undefined) as [
    keyof typeof columns,
    unknown,
  ][];
  // Each value typed as its column is: a select's values are not typed by the insert they feed.
  const names = [
    ...given.map(([key]) => sql.identifier(columns[key].name)),
    sql.identifier(columns.authorisedAt.name),
  ];
  const cells = [
    ...given.map(
      ([key, value]) => sql`${sql.param(value, columns[key])}::${sql.raw(columns[key].getSQLType())}`,
    ),
    authorisedAtPayment ? sql`taken.created_at` : sql`null::timestamptz`,
  ];
  const result = await db.execute<{ id: string }>(sql`
    with taken as (${taken.getSQL()}),
    booked as (
      insert into ${reservations} (${sql.join(names, sql`, `)})
      select ${sql.join(cells, sql`, `)} from taken
      returning id
    )
    select id from booked`);
  return result.rows[0]?.id;
}

export async function setStatus(
  db: Db,
  id: string,
  status: ReservationStatus,
  extra: {
    pickupCode?: string | null;
    pickupCodeAttempts?: number;
    declineReason?: string | null;
    cancelledBy?: 'borrower' | 'provider' | 'system';
    pickedUpAt?: Date;
    returnedAt?: Date;
    claimCents?: number;
    claimDescription?: string;
    claimPhotos?: string[];
    claimedAt?: Date;
    disputeNote?: string;
    disputePhotos?: string[];
    disputedAt?: Date;
    awardedCents?: number;
    resolvedAt?: Date;
    resolvedBy?: string;
  } = {},
) {
  await db
    .update(reservations)
    .set({
      status,
      updatedAt: new Date(),
      ...(status === 'completed' ? { completedAt: new Date() } : {}),
      ...(status === 'approved' ? { approvedAt: new Date() } : {}),
      ...extra,
    })
    .where(eq(reservations.id, id));
}

/**
 * Decision 034: the item came back early; the booking ends on the return day, so the days after it are
 * free for every availability check (they all read end_date), and the end it had is kept.
 */
export async function endEarly(
  db: Db,
  id: string,
  values: { endDate: string; bookedEndDate: string; earlyRefundCents: number },
) {
  await db
    .update(reservations)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(reservations.id, id));
}

/** Pending requests nobody answered in time, or whose start day has come: they expire. */
export async function findExpiredPending(
  db: Db,
  createdBefore: Date,
  today: string,
  /** Requests whose card was authorised before this are past the time an authorisation is kept for. */
  authorisedBefore: Date,
) {
  return db
    .select({ id: reservations.id })
    .from(reservations)
    .where(
      and(
        eq(reservations.status, 'pending'),
        or(
          lt(reservations.createdAt, createdBefore),
          lt(reservations.startDate, today),
          lte(reservations.authorisedAt, authorisedBefore),
        ),
      ),
    )
    .limit(500);
}

/** Returned reservations whose lender did not answer before `returnedBefore` (the release job). */
export async function findUnansweredReturns(db: Db, returnedBefore: Date) {
  return db
    .select({ id: reservations.id })
    .from(reservations)
    .where(and(eq(reservations.status, 'returned'), lt(reservations.returnedAt, returnedBefore)))
    .limit(500);
}

function buildBookingChecks(db: Db, name: string) {
  const p = sql.placeholder;
  // A borrow of this borrower still out after its end day, the one due back first.
  const overdue = jsonRow({ id: reservations.id, endDate: reservations.endDate, title: items.title });
  const item = jsonRow(bookableColumns);
  const firstOverdue = subqueries
    .select({ row: overdue.row })
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .where(
      and(
        eq(reservations.borrowerId, p('borrowerId')),
        eq(reservations.status, 'active'),
        lt(reservations.endDate, p('today')),
      ),
    )
    .orderBy(reservations.endDate)
    .limit(1);
  const bookable = subqueries
    .select({ row: item.row })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(eq(items.id, p('itemId')))
    .limit(1);
  const overlapping = subqueries
    .select({ one: sql`1` })
    .from(reservations)
    .where(bookedOverlapping(p('itemId'), p('startDate'), p('endDate')));
  const statement = db
    .select({
      overdue: sql`(${firstOverdue})`,
      item: sql`(${bookable})`,
      overlaps: sql<boolean>`exists (${overlapping})`.mapWith(Boolean),
    })
    // The borrower's own row (they are signed in): a select list needs a row to stand on.
    .from(users)
    .where(eq(users.id, p('borrowerId')))
    .prepare(name);
  return { statement, overdue, item };
}

/**
 * The three things a booking request checks, in one statement (one round trip, prepared once): the
 * borrower's first overdue borrowing, the item (as findBookableItem reads it) and whether these days
 * overlap a booked reservation of it (as findOverlapping). No row: the borrower is gone.
 */
export async function findBookingChecks(
  db: Db,
  input: { borrowerId: string; itemId: string; today: string; startDate: string; endDate: string },
) {
  const { statement, overdue, item } = preparedOnce(db, 'reservation_booking_checks', (name) =>
    buildBookingChecks(db, name),
  );
  const [row] = await statement.execute(input);
  if (!row) return undefined;
  return {
    overdue: row.overdue === null ? undefined : overdue.decodeOne(row.overdue),
    item: row.item === null ? undefined : item.decodeOne(row.item),
    overlaps: row.overlaps,
  };
}

/** Disputed claims for the moderators' queue, oldest dispute first. */
export async function listDisputed(db: Db): Promise<ReservationRow[]> {
  const rows = await selectReservations(db)
    .where(eq(reservations.status, 'disputed'))
    .orderBy(reservations.disputedAt)
    .limit(200);
  return rows as ReservationRow[];
}

/** The booking's new last day, an approved extension's (the exclusion constraint is the last word on overlaps). */
export async function moveEndDate(db: Db, reservationId: string, endDate: string) {
  await db
    .update(reservations)
    .set({ endDate, updatedAt: new Date() })
    .where(eq(reservations.id, reservationId));
}

/** One of the borrower's saved cards (decision 062: the card a booking far ahead is held with later). */
export async function savedCardOf(db: Db, userId: string, id: string) {
  const [row] = await db
    .select({
      stripePaymentMethodId: savedPaymentMethods.stripePaymentMethodId,
      type: savedPaymentMethods.type,
      last4: savedPaymentMethods.last4,
    })
    .from(savedPaymentMethods)
    .where(and(eq(savedPaymentMethods.id, id), eq(savedPaymentMethods.userId, userId)));
  return row;
}

/** The borrower's customer at the provider (their saved cards belong to it). */
export async function customerIdOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ id: users.stripeCustomerId }).from(users).where(eq(users.id, userId));
  return row?.id ?? null;
}

/** Bookings whose card-fix deadline has passed with the card still not held (decision 062). */
export async function findUnfixedCards(db: Db, now: Date) {
  return db
    .select({ id: reservations.id })
    .from(reservations)
    .where(
      and(
        lte(reservations.cardFixBy, now),
        sql`${reservations.cardProblem} is not null`,
        inArray(reservations.status, ['pending', 'approved']),
      ),
    )
    .limit(200);
}

/** The saved card a booking far ahead is held with (the borrower gave another to fix it). */
export async function setOffSessionCard(db: Db, id: string, paymentMethod: string): Promise<void> {
  await db
    .update(reservations)
    .set({ offSessionPaymentMethod: paymentMethod, updatedAt: new Date() })
    .where(eq(reservations.id, id));
}
