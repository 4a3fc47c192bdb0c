import { and, desc, eq, sql } from 'drizzle-orm';
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

/** A lender's transfers, newest first, with the item they were for. */
export async function transfersOf(db: Db, lenderId: string, limit = 200) {
  return db
    .select({ transfer: payoutTransfers, itemTitle: items.title })
    .from(payoutTransfers)
    .leftJoin(reservations, eq(reservations.id, payoutTransfers.reservationId))
    .leftJoin(items, eq(items.id, reservations.itemId))
    .where(eq(payoutTransfers.lenderId, lenderId))
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
