import type { BillingKind, BillingStatus } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { type BillingRecord, ledgerService } from '../ledger/service.ts';

// The reservation and extension code's way to the ledger while it is reshaped around the ledger's
// verbs (decision 045): each call below is one of the ledger's, and writes nothing itself. Billing rows,
// payment steps and earning entries are written by features/ledger alone.

export type { BillingRecord };

interface IntentScope {
  stripePaymentIntentId?: string | null;
}

export const billingService = {
  /** The borrower's pending payment row gets its new description (an approval: a payment, not a hold). */
  async settle(
    db: Db,
    where: { reservationId: string; userId: string; fromStatus: BillingStatus } & IntentScope,
    values: { description: string },
  ) {
    await ledgerService.describePayment(db, {
      reservationId: where.reservationId,
      paymentIntentId: where.stripePaymentIntentId!,
      borrowerId: where.userId,
      description: values.description,
    });
  },

  /** The lender's earning becomes what they keep of a cancelled booking's rental. */
  async settleKinds(
    db: Db,
    where: { reservationId: string; kinds: BillingKind[]; statuses: BillingStatus[] } & IntentScope,
    values: { amountCents: number; description: string },
  ) {
    await ledgerService.restateEarning(db, {
      reservationId: where.reservationId,
      paymentIntentId: where.stripePaymentIntentId!,
      statuses: where.statuses,
      amountCents: values.amountCents,
      reason: 'cancellation_fee',
      description: values.description,
    });
  },

  /** Writes the rows that carry an amount; answers their ids in order. */
  record: (db: Db, records: BillingRecord[]) => ledgerService.recordRows(db, records),

  /** The lender keeps part of the deposit: their earning grows by it. */
  addToEarning: (
    db: Db,
    what: {
      reservationId: string;
      userId: string;
      stripePaymentIntentId: string;
      addCents: number;
      description: string;
    },
  ) =>
    ledgerService.keepFromDeposit(db, {
      reservationId: what.reservationId,
      paymentIntentId: what.stripePaymentIntentId,
      lenderId: what.userId,
      keptCents: what.addCents,
      description: what.description,
    }),

  /** The lender keeps less of one payment's rental (an early return's refund, decision 034). */
  async reduceEarning(
    db: Db,
    what: { reservationId: string; stripePaymentIntentId: string; byCents: number; description: string },
  ): Promise<void> {
    const [line] = await ledgerService.earningLines(db, what.reservationId, what.stripePaymentIntentId);
    if (!line) return;
    await ledgerService.earn(db, {
      reservationId: what.reservationId,
      paymentIntentId: what.stripePaymentIntentId,
      lenderId: line.userId,
      byCents: -what.byCents,
      reason: 'early_return',
      description: what.description,
    });
  },

  /** An earning whose charge was called off: its rows go, an entry takes it back. */
  discard: (
    db: Db,
    where: { reservationId: string; kind: BillingKind; statuses: BillingStatus[] } & IntentScope,
  ) =>
    ledgerService.dropEarning(db, {
      reservationId: where.reservationId,
      paymentIntentId: where.stripePaymentIntentId!,
      statuses: where.statuses,
    }),
};
