import { and, eq, inArray, sql } from 'drizzle-orm';
import type { BillingKind, BillingStatus } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { billingHistory } from '../../db/schema/payments.ts';

// Every money event writes billing_history rows for the people it concerns (ARCHITECTURE §4):
// the borrower's payment and refunds, the lender's earning. Called inside the event's transaction.
// A row waits as 'pending' until the provider has done what it records (decision 012): the payment
// step that settles it (features/payment-steps) makes it 'completed' or 'refunded'.

export interface BillingRecord {
  kind: BillingKind;
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

/**
 * Issue 18 item 3: a booking's extension holds its own payment, so a reservation's rows belong to more
 * than one intent; a change of one payment (a capture, a release) names its intent and leaves the
 * other's rows alone.
 */
interface IntentScope {
  stripePaymentIntentId?: string | null;
}

const ofIntent = (where: IntentScope) =>
  where.stripePaymentIntentId
    ? eq(billingHistory.stripePaymentIntentId, where.stripePaymentIntentId)
    : undefined;

export const billingService = {
  /** Moves a user's rows for a reservation from one status to the next (an authorisation captured, released, refunded). */
  async settle(
    db: Db,
    where: { reservationId: string; userId: string; fromStatus: BillingStatus } & IntentScope,
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
          ofIntent(where),
        ),
      );
  },

  /** Moves a reservation's rows of these kinds from one of these statuses (a payment step's outcome). */
  async settleKinds(
    db: Db,
    where: { reservationId: string; kinds: BillingKind[]; statuses: BillingStatus[] } & IntentScope,
    values: Partial<typeof billingHistory.$inferInsert>,
  ) {
    await db
      .update(billingHistory)
      .set(values)
      .where(
        and(
          eq(billingHistory.reservationId, where.reservationId),
          inArray(billingHistory.kind, where.kinds),
          inArray(billingHistory.status, where.statuses),
          ofIntent(where),
        ),
      );
  },

  /** Moves one row (a refund, by the id its payment step carries). */
  async settleRow(db: Db, id: string, values: Partial<typeof billingHistory.$inferInsert>) {
    await db.update(billingHistory).set(values).where(eq(billingHistory.id, id));
  },

  /** Charged minus refunded for a payment intent, as the rows say (decision 012's reconciliation). */
  async netCents(db: Db, paymentIntentId: string): Promise<number> {
    const [row] = await db
      .select({
        net: sql<number>`coalesce(sum(case
          when ${billingHistory.kind} = 'payment' and ${billingHistory.status} = 'completed' then ${billingHistory.amountCents}
          when ${billingHistory.kind} = 'refund' and ${billingHistory.status} = 'refunded' then -${billingHistory.amountCents}
          else 0 end), 0)::int`,
      })
      .from(billingHistory)
      .where(eq(billingHistory.stripePaymentIntentId, paymentIntentId));
    return row?.net ?? 0;
  },

  /** Writes the rows that carry an amount; answers their ids in order. */
  async record(db: Db, records: BillingRecord[]): Promise<string[]> {
    const rows = records.filter((r) => r.amountCents > 0 || (r.refundAmountCents ?? 0) > 0);
    if (!rows.length) return [];
    return (await db.insert(billingHistory).values(rows).returning({ id: billingHistory.id })).map(
      (r) => r.id,
    );
  },

  /**
   * The lender keeps part of the deposit (an accepted or decided claim, issue 17): their earning row
   * grows by it, or one is written when the rental was free. It takes the payment's status, so the
   * capture's success settles it like the rest.
   */
  async addToEarning(
    db: Db,
    what: {
      reservationId: string;
      userId: string;
      stripePaymentIntentId: string;
      addCents: number;
      description: string;
    },
  ): Promise<void> {
    const grown = await db
      .update(billingHistory)
      .set({
        amountCents: sql`${billingHistory.amountCents} + ${what.addCents}`,
        description: what.description,
      })
      .where(
        and(
          eq(billingHistory.reservationId, what.reservationId),
          eq(billingHistory.kind, 'earning'),
          // The booking's own payment only: an approved extension's payment has its own earning row.
          eq(billingHistory.stripePaymentIntentId, what.stripePaymentIntentId),
        ),
      )
      .returning({ id: billingHistory.id });
    if (grown.length) return;
    const [payment] = await db
      .select({ status: billingHistory.status })
      .from(billingHistory)
      .where(
        and(
          eq(billingHistory.reservationId, what.reservationId),
          eq(billingHistory.kind, 'payment'),
          eq(billingHistory.stripePaymentIntentId, what.stripePaymentIntentId),
        ),
      )
      .limit(1);
    await db.insert(billingHistory).values({
      kind: 'earning',
      userId: what.userId,
      reservationId: what.reservationId,
      stripePaymentIntentId: what.stripePaymentIntentId,
      amountCents: what.addCents,
      status: payment?.status === 'completed' ? 'completed' : 'pending',
      description: what.description,
    });
  },

  /**
   * The lender keeps less of one payment's rental (an early return's refund, decision 034): that
   * payment's earning row shrinks by it, whatever its status, so rows keep matching the money.
   */
  async reduceEarning(
    db: Db,
    what: { reservationId: string; stripePaymentIntentId: string; byCents: number; description: string },
  ): Promise<void> {
    await db
      .update(billingHistory)
      .set({
        amountCents: sql`greatest(0, ${billingHistory.amountCents} - ${what.byCents})`,
        description: what.description,
      })
      .where(
        and(
          eq(billingHistory.reservationId, what.reservationId),
          eq(billingHistory.kind, 'earning'),
          eq(billingHistory.stripePaymentIntentId, what.stripePaymentIntentId),
        ),
      );
  },

  /** Removes rows that recorded money which will never move (an earning whose charge was called off). */
  async discard(
    db: Db,
    where: { reservationId: string; kind: BillingKind; statuses: BillingStatus[] } & IntentScope,
  ): Promise<void> {
    await db
      .delete(billingHistory)
      .where(
        and(
          eq(billingHistory.reservationId, where.reservationId),
          eq(billingHistory.kind, where.kind),
          inArray(billingHistory.status, where.statuses),
          ofIntent(where),
        ),
      );
  },
};
