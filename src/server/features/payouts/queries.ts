import { and, asc, desc, eq, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { PayoutAccountStatus } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { items } from '../../db/schema/items.ts';
import { connectedAccounts, payoutTransfers } from '../../db/schema/payouts.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';
import { transaction } from '../../db/transaction.ts';

// Every query of the payouts feature (decision 056).

export type AccountRow = typeof connectedAccounts.$inferSelect;
export type TransferRow = typeof payoutTransfers.$inferSelect;

export async function findAccount(db: Db, userId: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.userId, userId));
  return row;
}

export async function findAccountById(db: Db, accountId: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.accountId, accountId));
  return row;
}

export async function findUser(db: Db, userId: string) {
  const [row] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
  return row;
}

export async function insertAccount(
  db: Db,
  values: { userId: string; accountId: string; status: PayoutAccountStatus; requirementsDue: string[] },
): Promise<void> {
  await db.insert(connectedAccounts).values(values).onConflictDoNothing();
}

/** The status as just read from the provider; answers the row before and after. */
export async function setAccountStatus(
  db: Db,
  accountId: string,
  values: { status: PayoutAccountStatus; requirementsDue: string[]; deauthorisedAt?: Date },
): Promise<{ before: PayoutAccountStatus; after: AccountRow } | undefined> {
  return transaction(db, async (tx) => {
    const [before] = await tx
      .select({ status: connectedAccounts.status })
      .from(connectedAccounts)
      .where(eq(connectedAccounts.accountId, accountId))
      .for('update');
    if (!before) return undefined;
    const [after] = await tx
      .update(connectedAccounts)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(connectedAccounts.accountId, accountId))
      .returning();
    return { before: before.status as PayoutAccountStatus, after: after! };
  });
}

/** A lender's transfers, newest first, with the item they were for (none that had nothing to send). */
export async function transfersOf(db: Db, lenderId: string, limit = 200) {
  return db
    .select({ transfer: payoutTransfers, itemTitle: items.title })
    .from(payoutTransfers)
    .leftJoin(reservations, eq(reservations.id, payoutTransfers.reservationId))
    .leftJoin(items, eq(items.id, reservations.itemId))
    .where(and(eq(payoutTransfers.lenderId, lenderId), ne(payoutTransfers.status, 'cancelled')))
    .orderBy(desc(payoutTransfers.releaseAt), desc(payoutTransfers.createdAt))
    .limit(limit);
}

/** A lender's earnings (the sum of their earning entries) and what was sent of them, in cents. */
export async function lenderTotals(db: Db, lenderId: string) {
  const { rows } = await db.execute<{ earned: number; sent: number }>(sql`
    select coalesce((select sum(amount_cents) from earning_entries where lender_id = ${lenderId}), 0)::int as earned,
           coalesce((select sum(amount_cents - reversed_cents) from payout_transfers
                     where lender_id = ${lenderId} and status in ('sent', 'reversed')), 0)::int as sent`);
  return rows[0] ?? { earned: 0, sent: 0 };
}

export async function transfersWhere(db: Db, lenderId: string, status: string) {
  return db
    .select()
    .from(payoutTransfers)
    .where(and(eq(payoutTransfers.lenderId, lenderId), eq(payoutTransfers.status, status)));
}

// The transfer outbox (decision 056, "Transfers").

/** The payments of a booking the lender earned on (each is its own transfer, from its own charge). */
export async function earnedIntentsOf(db: Db, reservationId: string, lenderId: string): Promise<string[]> {
  const { rows } = await db.execute<{ payment_intent_id: string }>(sql`
    select distinct payment_intent_id from earning_entries
    where reservation_id = ${reservationId} and lender_id = ${lenderId} and payment_intent_id is not null`);
  return rows.map((r) => r.payment_intent_id);
}

export async function insertTransfers(
  db: Db,
  values: (typeof payoutTransfers.$inferInsert)[],
): Promise<void> {
  if (values.length) await db.insert(payoutTransfers).values(values).onConflictDoNothing();
}

/** The rows of these payments for this purpose that still wait (their jobs are sent again). */
export async function openTransfersOf(db: Db, intents: string[], purpose: string) {
  if (!intents.length) return [];
  return db
    .select({ id: payoutTransfers.id })
    .from(payoutTransfers)
    .where(
      and(
        inArray(payoutTransfers.paymentIntentId, intents),
        eq(payoutTransfers.purpose, purpose),
        inArray(payoutTransfers.status, ['scheduled', 'waiting_account']),
      ),
    );
}

/**
 * Every transfer row of one payment, locked: a transfer's amount is decided against its siblings (the
 * secured part and the rest come from the same earning), so two are never decided at once.
 */
export async function lockTransfersOfIntent(db: Db, paymentIntentId: string): Promise<TransferRow[]> {
  return db
    .select()
    .from(payoutTransfers)
    .where(eq(payoutTransfers.paymentIntentId, paymentIntentId))
    .orderBy(asc(payoutTransfers.createdAt))
    .for('update');
}

export async function findTransfer(db: Db, id: string): Promise<TransferRow | undefined> {
  const [row] = await db.select().from(payoutTransfers).where(eq(payoutTransfers.id, id));
  return row;
}

/** The lender's earning on one payment, in cents (the sum of its entries). */
export async function earnedOnIntent(db: Db, paymentIntentId: string, lenderId: string): Promise<number> {
  const { rows } = await db.execute<{ cents: number }>(sql`
    select coalesce(sum(amount_cents), 0)::int as cents from earning_entries
    where payment_intent_id = ${paymentIntentId} and lender_id = ${lenderId}`);
  return rows[0]?.cents ?? 0;
}

export async function updateTransfer(
  db: Db,
  id: string,
  values: Partial<typeof payoutTransfers.$inferInsert>,
  onlyIfStatus?: string[],
): Promise<TransferRow | undefined> {
  const [row] = await db
    .update(payoutTransfers)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(payoutTransfers.id, id),
        onlyIfStatus ? inArray(payoutTransfers.status, onlyIfStatus) : undefined,
      ),
    )
    .returning();
  return row;
}

/** Rows whose time came and that no runner holds: the sweep sends their jobs again. */
export async function dueTransfers(db: Db, now: Date, limit = 100) {
  return db
    .select({ id: payoutTransfers.id })
    .from(payoutTransfers)
    .where(
      and(
        inArray(payoutTransfers.status, ['scheduled', 'waiting_account']),
        lte(payoutTransfers.releaseAt, now),
        or(isNull(payoutTransfers.leaseUntil), lt(payoutTransfers.leaseUntil, now)),
      ),
    )
    .orderBy(asc(payoutTransfers.releaseAt))
    .limit(limit);
}

/** A booking's secured parts not sent and not being sent: the settlement's transfer sends it all. */
export async function cancelOpenSecured(db: Db, reservationId: string, now: Date): Promise<void> {
  await db
    .update(payoutTransfers)
    .set({ status: 'cancelled', updatedAt: new Date() })
    .where(
      and(
        eq(payoutTransfers.reservationId, reservationId),
        eq(payoutTransfers.purpose, 'rental_secured'),
        inArray(payoutTransfers.status, ['scheduled', 'waiting_account']),
        or(isNull(payoutTransfers.leaseUntil), lt(payoutTransfers.leaseUntil, now)),
      ),
    );
}

/** A lender's transfers waiting for their account: scheduled again when it is active. */
export async function rescheduleWaiting(db: Db, lenderId: string) {
  return db
    .update(payoutTransfers)
    .set({ status: 'scheduled', updatedAt: new Date() })
    .where(and(eq(payoutTransfers.lenderId, lenderId), eq(payoutTransfers.status, 'waiting_account')))
    .returning({ id: payoutTransfers.id });
}

export async function itemTitleOf(db: Db, reservationId: string | null): Promise<string | null> {
  if (!reservationId) return null;
  const [row] = await db
    .select({ title: items.title })
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .where(eq(reservations.id, reservationId));
  return row?.title ?? null;
}
