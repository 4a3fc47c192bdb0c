import { aliasedTable, and, count, desc, eq, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import { CLOSED_DISPUTE_STATUSES } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { disputes, lenderReceivables } from '../../db/schema/disputes.ts';
import { items } from '../../db/schema/items.ts';
import { paymentIntents } from '../../db/schema/payments.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about card disputes and what lenders owe.

export type DisputeRow = typeof disputes.$inferSelect;

/** A dispute list is short (a handful a term); capped all the same. */
const LIST_LIMIT = 200;

/** The reservation a payment paid for, with its two people (null: not a payment of ours, or of no booking). */
export async function bookingOfPayment(db: Db, paymentIntentId: string) {
  const [row] = await db
    .select({
      reservationId: reservations.id,
      borrowerId: reservations.borrowerId,
      lenderId: reservations.providerId,
      itemId: reservations.itemId,
      itemTitle: items.title,
    })
    .from(paymentIntents)
    .innerJoin(reservations, eq(reservations.id, paymentIntents.reservationId))
    .innerJoin(items, eq(items.id, reservations.itemId))
    .where(eq(paymentIntents.id, paymentIntentId));
  return row;
}

/** Inserts the dispute unless it is known; answers whether this call inserted it. */
export async function insertDispute(
  db: Db,
  values: Omit<typeof disputes.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>,
): Promise<boolean> {
  const inserted = await db
    .insert(disputes)
    .values(values)
    .onConflictDoNothing({ target: disputes.providerDisputeId })
    .returning({ id: disputes.id });
  return inserted.length > 0;
}

/** The dispute, locked for the rest of the transaction: one event or moderator changes it at a time. */
export async function lockByProviderId(db: Db, providerDisputeId: string): Promise<DisputeRow | undefined> {
  const [row] = await db
    .select()
    .from(disputes)
    .where(eq(disputes.providerDisputeId, providerDisputeId))
    .for('update');
  return row;
}

export async function lockDispute(db: Db, id: string): Promise<DisputeRow | undefined> {
  const [row] = await db.select().from(disputes).where(eq(disputes.id, id)).for('update');
  return row;
}

export async function findDispute(db: Db, id: string): Promise<DisputeRow | undefined> {
  const [row] = await db.select().from(disputes).where(eq(disputes.id, id));
  return row;
}

export async function updateDispute(
  db: Db,
  id: string,
  values: Partial<Omit<DisputeRow, 'id' | 'createdAt'>>,
): Promise<DisputeRow> {
  const [row] = await db
    .update(disputes)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(disputes.id, id))
    .returning();
  return row!;
}

/**
 * Whether a dispute of the reservation holds its money: open, or lost with no finding yet (who bears
 * the loss is not decided).
 */
export async function holdingDisputes(db: Db, reservationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(disputes)
    .where(
      and(
        eq(disputes.reservationId, reservationId),
        or(
          notInArray(disputes.status, [...CLOSED_DISPUTE_STATUSES]),
          and(eq(disputes.status, 'lost'), isNull(disputes.finding)),
        ),
      ),
    );
  return Number(row?.n ?? 0);
}

const borrower = aliasedTable(users, 'dispute_borrower');
const lender = aliasedTable(users, 'dispute_lender');

/** Disputes newest first, with the item and the two people's names (the moderators' list). */
export function listDisputes(db: Db) {
  return db
    .select({
      dispute: disputes,
      itemTitle: items.title,
      borrowerName: borrower.fullName,
      lenderName: lender.fullName,
    })
    .from(disputes)
    .leftJoin(reservations, eq(reservations.id, disputes.reservationId))
    .leftJoin(items, eq(items.id, reservations.itemId))
    .leftJoin(borrower, eq(borrower.id, disputes.borrowerId))
    .leftJoin(lender, eq(lender.id, disputes.lenderId))
    .orderBy(desc(disputes.createdAt), desc(disputes.id))
    .limit(LIST_LIMIT);
}

/** What a dispute's evidence is made of: the booking, its item and its two people. */
export async function bookingForEvidence(db: Db, reservationId: string) {
  const [row] = await db
    .select({
      reservation: reservations,
      item: {
        id: items.id,
        title: items.title,
        description: items.description,
        category: items.category,
        condition: items.condition,
      },
      borrower: { fullName: borrower.fullName, email: borrower.email },
      lender: { fullName: lender.fullName },
    })
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .innerJoin(borrower, eq(borrower.id, reservations.borrowerId))
    .innerJoin(lender, eq(lender.id, reservations.providerId))
    .where(eq(reservations.id, reservationId));
  return row;
}

/** Moderators' accounts (ADMIN_EMAILS) that can read a notice: not suspended, not deleted. */
export async function moderatorIds(db: Db, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        inArray(sql`lower(${users.email})`, [...emails]),
        isNull(users.suspendedAt),
        isNull(users.deletedAt),
      ),
    );
  return rows.map((r) => r.id);
}

/** Takes the lender's row lock: what they owe changes one transaction at a time. */
export async function lockLender(db: Db, lenderId: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, lenderId)).for('update');
  return Boolean(row);
}

export async function receivableCents(db: Db, lenderId: string): Promise<number> {
  const [row] = await db
    .select({ cents: sql<number>`coalesce(sum(${lenderReceivables.amountCents}), 0)::int` })
    .from(lenderReceivables)
    .where(eq(lenderReceivables.lenderId, lenderId));
  return row?.cents ?? 0;
}

/** What was recorded as owed for one dispute so far. */
export async function owedForDispute(db: Db, disputeId: string): Promise<number> {
  const [row] = await db
    .select({ cents: sql<number>`coalesce(sum(${lenderReceivables.amountCents}), 0)::int` })
    .from(lenderReceivables)
    .where(and(eq(lenderReceivables.disputeId, disputeId), eq(lenderReceivables.reason, 'dispute_reversal')));
  return row?.cents ?? 0;
}

export async function insertReceivable(
  db: Db,
  values: Omit<typeof lenderReceivables.$inferInsert, 'id' | 'createdAt'>,
): Promise<void> {
  await db.insert(lenderReceivables).values(values);
}

export async function faultOf(db: Db, reservationId: string, lenderId: string) {
  const [row] = await db
    .select({ id: disputes.id })
    .from(disputes)
    .where(
      and(
        eq(disputes.reservationId, reservationId),
        eq(disputes.lenderId, lenderId),
        eq(disputes.finding, 'lender_at_fault'),
      ),
    )
    .orderBy(desc(disputes.foundAt))
    .limit(1);
  return row;
}
