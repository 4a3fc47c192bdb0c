import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { PayoutAccountStatus } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { items } from '../../db/schema/items.ts';
import {
  bankPayouts,
  connectedAccounts,
  formerConnectedAccounts,
  payoutReversals,
  payoutTransfers,
} from '../../db/schema/payouts.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { paymentEvents } from '../../db/schema/test-payments.ts';
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

/**
 * A disconnected account replaced by a new one: the old one goes to the history, the person's row names
 * the new one. Only if the row still names the old, disconnected account (a racing call did it first:
 * nothing). Answers whether this call did it.
 */
export async function replaceAccount(
  db: Db,
  userId: string,
  oldAccountId: string,
  values: { accountId: string; status: PayoutAccountStatus; requirementsDue: string[] },
): Promise<boolean> {
  return transaction(db, async (tx) => {
    const [old] = await tx
      .select()
      .from(connectedAccounts)
      .where(
        and(
          eq(connectedAccounts.userId, userId),
          eq(connectedAccounts.accountId, oldAccountId),
          isNotNull(connectedAccounts.deauthorisedAt),
        ),
      )
      .for('update');
    if (!old) return false;
    await tx
      .insert(formerConnectedAccounts)
      .values({
        accountId: old.accountId,
        userId,
        deauthorisedAt: old.deauthorisedAt,
        connectedAt: old.createdAt,
      })
      .onConflictDoNothing();
    await tx
      .update(connectedAccounts)
      .set({ ...values, deauthorisedAt: null, createdAt: new Date(), updatedAt: new Date() })
      .where(eq(connectedAccounts.userId, userId));
    return true;
  });
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

// Reversals and what a booking's transfers kept (decision 061).

export type ReversalRow = typeof payoutReversals.$inferSelect;

/** Every transfer row of a lender's booking, locked in the order the per-payment lock takes them. */
export async function lockTransfersOfBooking(
  db: Db,
  reservationId: string,
  lenderId: string,
): Promise<TransferRow[]> {
  return db
    .select()
    .from(payoutTransfers)
    .where(and(eq(payoutTransfers.reservationId, reservationId), eq(payoutTransfers.lenderId, lenderId)))
    .orderBy(asc(payoutTransfers.createdAt))
    .for('update');
}

/**
 * A lender's booking in cents: what they earned on it (their entries), what moderators charged them
 * for lost disputes (lender at fault), and what its transfers kept (sent less taken back or owed
 * instead, plus what was netted from a receivable). `unsent` counts reversals decided and not yet made.
 */
export async function bookingFigures(db: Db, reservationId: string, lenderId: string) {
  const { rows } = await db.execute<{ earned: number; charged: number; kept: number; unsent: number }>(sql`
    select
      coalesce((select sum(amount_cents) from earning_entries
                where reservation_id = ${reservationId} and lender_id = ${lenderId}), 0)::int as earned,
      coalesce((select sum(reversal_cents) from disputes
                where reservation_id = ${reservationId} and lender_id = ${lenderId}
                  and finding = 'lender_at_fault'), 0)::int as charged,
      coalesce((select sum(netted_cents + case when status in ('sent', 'reversed')
                  then coalesce(amount_cents, 0) - reversed_cents - owed_cents else 0 end)
                from payout_transfers where reservation_id = ${reservationId} and lender_id = ${lenderId}), 0)::int as kept,
      coalesce((select sum(v.amount_cents - v.reversed_cents - v.owed_cents) from payout_reversals v
                join payout_transfers p on p.id = v.transfer_id
                where p.reservation_id = ${reservationId} and p.lender_id = ${lenderId}
                  and v.status = 'scheduled'), 0)::int as unsent`);
  return rows[0] ?? { earned: 0, charged: 0, kept: 0, unsent: 0 };
}

/** The reversals of these transfers, oldest first. */
export async function reversalsOf(db: Db, transferIds: string[]): Promise<ReversalRow[]> {
  if (!transferIds.length) return [];
  return db
    .select()
    .from(payoutReversals)
    .where(inArray(payoutReversals.transferId, transferIds))
    .orderBy(asc(payoutReversals.createdAt));
}

export async function insertReversal(
  db: Db,
  values: Omit<typeof payoutReversals.$inferInsert, 'id'>,
): Promise<ReversalRow> {
  const [row] = await db.insert(payoutReversals).values(values).returning();
  return row!;
}

export async function updateReversal(
  db: Db,
  id: string,
  values: Partial<typeof payoutReversals.$inferInsert>,
  onlyIfStatus?: string[],
): Promise<ReversalRow | undefined> {
  const [row] = await db
    .update(payoutReversals)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(payoutReversals.id, id),
        onlyIfStatus ? inArray(payoutReversals.status, onlyIfStatus) : undefined,
      ),
    )
    .returning();
  return row;
}

/**
 * Lenders' bookings whose transfers kept more than is theirs now (an earning given back after a
 * transfer, a lender found at fault), none of whose reversals failed for good (those wait for a
 * moderator): the upkeep round reverses them.
 */
export async function bookingsKeepingTooMuch(db: Db, limit = 100) {
  const { rows } = await db.execute<{ reservation_id: string; lender_id: string }>(sql`
    with b as (
      select p.reservation_id, p.lender_id,
        sum(p.netted_cents + case when p.status in ('sent', 'reversed')
          then coalesce(p.amount_cents, 0) - p.reversed_cents - p.owed_cents else 0 end) as kept
      from payout_transfers p where p.reservation_id is not null
      group by p.reservation_id, p.lender_id)
    select b.reservation_id, b.lender_id from b
    where not exists (select 1 from payout_reversals v join payout_transfers p on p.id = v.transfer_id
                      where p.reservation_id = b.reservation_id and p.lender_id = b.lender_id
                        and v.status = 'failed')
      and b.kept > greatest(0,
      coalesce((select sum(e.amount_cents) from earning_entries e
                where e.reservation_id = b.reservation_id and e.lender_id = b.lender_id), 0)
      - coalesce((select sum(d.reversal_cents) from disputes d
                  where d.reservation_id = b.reservation_id and d.lender_id = b.lender_id
                    and d.finding = 'lender_at_fault'), 0))
    limit ${limit}`);
  return rows.map((r) => ({ reservationId: r.reservation_id, lenderId: r.lender_id }));
}

export async function setTransferAvailable(db: Db, id: string, availableAt: Date): Promise<void> {
  await db.update(payoutTransfers).set({ availableAt }).where(eq(payoutTransfers.id, id));
}

// Bank payouts (decision 061).

export async function upsertBankPayout(db: Db, values: typeof bankPayouts.$inferInsert): Promise<void> {
  await db
    .insert(bankPayouts)
    .values(values)
    .onConflictDoUpdate({
      target: bankPayouts.id,
      set: {
        status: values.status,
        amountCents: values.amountCents,
        arrivalAt: values.arrivalAt,
        failureMessage: values.failureMessage ?? null,
        updatedAt: new Date(),
      },
    });
}

/**
 * When each of the lender's transfers reached their bank: the first paid payout of their account that
 * arrived at or after the transfer's money became available (its availability as the provider
 * reported it, else when it was sent).
 */
export async function paidOutAtOf(db: Db, lenderId: string): Promise<Map<string, Date>> {
  const { rows } = await db.execute<{ id: string; paid_out_at: string | Date }>(sql`
    select p.id, (select min(b.arrival_at) from bank_payouts b
                  where b.account_id = coalesce(p.destination_account_id, a.account_id) and b.status = 'paid'
                    and b.arrival_at >= coalesce(p.available_at, p.sent_at)) as paid_out_at
    from payout_transfers p join connected_accounts a on a.user_id = p.lender_id
    where p.lender_id = ${lenderId} and p.sent_at is not null and p.provider_transfer_id is not null`);
  return new Map(
    rows.filter((r) => r.paid_out_at).map((r) => [r.id, new Date(r.paid_out_at)] as [string, Date]),
  );
}

// Connect events, recorded once as the platform's webhook events are (decision 061).

export async function eventSeen(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: paymentEvents.id }).from(paymentEvents).where(eq(paymentEvents.id, id));
  return Boolean(row);
}

export async function recordEvent(db: Db, id: string, type: string): Promise<void> {
  await db.insert(paymentEvents).values({ id, type }).onConflictDoNothing();
}

/** A lender's unsent transfers wait for an account that can receive them again. */
export async function holdScheduled(db: Db, lenderId: string): Promise<number> {
  const rows = await db
    .update(payoutTransfers)
    .set({ status: 'waiting_account', updatedAt: new Date() })
    .where(
      and(
        eq(payoutTransfers.lenderId, lenderId),
        eq(payoutTransfers.status, 'scheduled'),
        or(isNull(payoutTransfers.leaseUntil), lt(payoutTransfers.leaseUntil, new Date())),
      ),
    )
    .returning({ id: payoutTransfers.id });
  return rows.length;
}

export async function findTransferByProviderId(db: Db, providerTransferId: string) {
  const [row] = await db
    .select()
    .from(payoutTransfers)
    .where(eq(payoutTransfers.providerTransferId, providerTransferId));
  return row;
}

/** Marks the account disconnected once; answers whether this call did (the lender is told once). */
export async function markDeauthorised(db: Db, accountId: string): Promise<AccountRow | undefined> {
  const [row] = await db
    .update(connectedAccounts)
    .set({ status: 'restricted', deauthorisedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(connectedAccounts.accountId, accountId), isNull(connectedAccounts.deauthorisedAt)))
    .returning();
  return row;
}

/** The lender bookings a payment's sent transfers belong to (a refund of it may need a reversal). */
export async function paidBookingsOfIntent(db: Db, paymentIntentId: string) {
  return db
    .selectDistinct({ reservationId: payoutTransfers.reservationId, lenderId: payoutTransfers.lenderId })
    .from(payoutTransfers)
    .where(
      and(
        eq(payoutTransfers.paymentIntentId, paymentIntentId),
        inArray(payoutTransfers.status, ['sent', 'reversed']),
      ),
    );
}

// Moderators' list of payouts that failed for good (decision 061, as built).

export type PayoutProblemRow = {
  kind: 'transfer' | 'reversal';
  id: string;
  reservation_id: string | null;
  lender_id: string;
  lender_name: string | null;
  item_title: string | null;
  amount_cents: number;
  last_error: string | null;
  attempts: number;
  at: string | Date;
};

/**
 * Failed transfers and failed reversals, newest first. A transfer's amount is decided when it is sent:
 * one that never went shows what its lender earned on its payment.
 */
export async function payoutProblems(db: Db, limit = 200): Promise<PayoutProblemRow[]> {
  const { rows } = await db.execute<PayoutProblemRow>(sql`
    select * from (
      select 'transfer' as kind, p.id, p.reservation_id, p.lender_id, u.full_name as lender_name,
             i.title as item_title,
             coalesce(p.amount_cents, (select coalesce(sum(e.amount_cents), 0) from earning_entries e
               where e.payment_intent_id = p.payment_intent_id and e.lender_id = p.lender_id))::int as amount_cents,
             p.last_error, p.attempts, p.updated_at as at
      from payout_transfers p
      join users u on u.id = p.lender_id
      left join reservations r on r.id = p.reservation_id
      left join items i on i.id = r.item_id
      where p.status = 'failed'
      union all
      select 'reversal' as kind, v.id, p.reservation_id, p.lender_id, u.full_name as lender_name,
             i.title as item_title, v.amount_cents, v.last_error, v.attempts, v.updated_at as at
      from payout_reversals v
      join payout_transfers p on p.id = v.transfer_id
      join users u on u.id = p.lender_id
      left join reservations r on r.id = p.reservation_id
      left join items i on i.id = r.item_id
      where v.status = 'failed'
    ) x order by x.at desc limit ${limit}`);
  return rows;
}

/** A failed transfer scheduled again (only if it is still failed: a second call changes nothing). */
export async function retryFailedTransfer(db: Db, id: string) {
  const [row] = await db
    .update(payoutTransfers)
    .set({ status: 'scheduled', leaseUntil: null, updatedAt: new Date() })
    .where(and(eq(payoutTransfers.id, id), eq(payoutTransfers.status, 'failed')))
    .returning({ id: payoutTransfers.id });
  return row;
}

/** A failed reversal scheduled again (only if it is still failed); answers its booking. */
export async function retryFailedReversal(db: Db, id: string) {
  return transaction(db, async (tx) => {
    const [row] = await tx
      .update(payoutReversals)
      .set({ status: 'scheduled', leaseUntil: null, updatedAt: new Date() })
      .where(and(eq(payoutReversals.id, id), eq(payoutReversals.status, 'failed')))
      .returning({ transferId: payoutReversals.transferId });
    if (!row) return undefined;
    const [transfer] = await tx
      .select({ reservationId: payoutTransfers.reservationId, lenderId: payoutTransfers.lenderId })
      .from(payoutTransfers)
      .where(eq(payoutTransfers.id, row.transferId));
    return transfer;
  });
}

export async function findReversal(db: Db, id: string): Promise<ReversalRow | undefined> {
  const [row] = await db.select().from(payoutReversals).where(eq(payoutReversals.id, id));
  return row;
}
