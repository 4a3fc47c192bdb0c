import { and, eq } from 'drizzle-orm';
import type { BillingStatus } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { billingHistory } from '../../db/schema/payments.ts';

// Every money event writes billing_history rows for the people it concerns (ARCHITECTURE §4):
// the borrower's charge and refund, the lender's earning. Called inside the event's transaction.

export interface BillingRecord {
  userId: string;
  reservationId: string;
  stripePaymentIntentId: string | null;
  amountCents: number;
  status: BillingStatus;
  description: string;
  paymentMethodType?: string | null;
  paymentMethodLast4?: string | null;
  refundAmountCents?: number | null;
  refundedAt?: Date | null;
}

export const billingService = {
  /** Moves a user's rows for a reservation from one status to the next (an authorisation captured, released, refunded). */
  async settle(
    db: Db,
    where: { reservationId: string; userId: string; fromStatus: BillingStatus },
    values: Partial<typeof billingHistory.$inferInsert>,
  ) {
    await db
      .update(billingHistory)
      .set(values)
      .where(
        and(
          eq(billingHistory.reservationId, where.reservationId),
          eq(billingHistory.userId, where.userId),
          eq(billingHistory.status, where.fromStatus),
        ),
      );
  },

  async record(db: Db, records: BillingRecord[]) {
    const rows = records.filter((r) => r.amountCents > 0 || (r.refundAmountCents ?? 0) > 0);
    if (rows.length) await db.insert(billingHistory).values(rows);
  },
};
