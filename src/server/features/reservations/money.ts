import type { MessageDescriptor } from '@lingui/core';
import { writtenFor } from '../../booking-words.ts';
import type { Db } from '../../db/client.ts';
import { billingService } from '../billing/service.ts';
import { paymentStepService } from '../payment-steps/service.ts';
import type { ReservationDeps } from './deps.ts';

// The money a booking's transitions move: billing rows and payment steps, written in the status
// change's transaction (decision 012). One home for a reservation's and an extension's payments alike.

type StepDeps = Pick<ReservationDeps, 'jobs'>;

/** An authorisation held for a booking (or one of its extensions) and not charged yet. */
export interface Hold {
  reservationId: string;
  paymentIntentId: string | null;
  amountCents: number;
}

/** What a reservation's own payment holds: its deposit and its rental. */
export function heldBy(row: {
  id: string;
  stripePaymentIntentId: string | null;
  depositCents: number;
  rentalCents: number;
}): Hold {
  return {
    reservationId: row.id,
    paymentIntentId: row.stripePaymentIntentId,
    amountCents: row.depositCents + row.rentalCents,
  };
}

/** Lets go of an authorisation that was never charged (decline, cancel, expiry, an overlapping approval). */
export async function release(
  tx: Db,
  deps: StepDeps,
  hold: Hold,
  purpose: 'decline' | 'cancellation' | 'expiry' | 'overlap',
) {
  if (!hold.paymentIntentId) return;
  await paymentStepService.enqueue(tx, deps.jobs, {
    paymentIntentId: hold.paymentIntentId,
    reservationId: hold.reservationId,
    kind: 'release',
    purpose,
    amountCents: hold.amountCents,
  });
}

/** Gives back charged money: its own billing row (pending until the provider confirms) and its step. */
export async function refund(
  tx: Db,
  deps: StepDeps,
  row: { id: string; borrowerId: string; stripePaymentIntentId: string | null },
  what: {
    purpose: 'deposit' | 'claim' | 'cancellation' | 'policy' | 'early_return';
    amountCents: number;
    /** The refund row's description, written in the borrower's language. */
    description: () => MessageDescriptor;
    /** Another payment of the booking than its own (an extension's). */
    paymentIntentId?: string;
  },
) {
  const intentId = what.paymentIntentId ?? row.stripePaymentIntentId!;
  const [billingId] = await billingService.record(tx, [
    {
      kind: 'refund',
      userId: row.borrowerId,
      reservationId: row.id,
      stripePaymentIntentId: intentId,
      amountCents: what.amountCents,
      status: 'pending',
      description: await writtenFor(tx, row.borrowerId, what.description),
    },
  ]);
  await paymentStepService.enqueue(tx, deps.jobs, {
    paymentIntentId: intentId,
    reservationId: row.id,
    kind: 'refund',
    purpose: what.purpose,
    amountCents: what.amountCents,
    billingId: billingId ?? null,
  });
}

/**
 * The lender approved (a booking or more days of it): the borrower's payment row becomes the charge,
 * the lender's earning is written, and the capture step is queued. Rows wait as pending until the
 * capture step has charged the card (decision 012).
 */
export async function chargeApproved(
  tx: Db,
  deps: StepDeps,
  charge: {
    reservationId: string;
    borrowerId: string;
    providerId: string;
    paymentIntentId: string;
    earningCents: number;
    captureCents: number;
    /** The borrower's payment row, in their language. */
    payment: () => MessageDescriptor;
    /** The lender's earning row, in theirs. */
    earning: () => MessageDescriptor;
  },
) {
  await billingService.settle(
    tx,
    {
      reservationId: charge.reservationId,
      userId: charge.borrowerId,
      fromStatus: 'pending',
      stripePaymentIntentId: charge.paymentIntentId,
    },
    { description: await writtenFor(tx, charge.borrowerId, charge.payment) },
  );
  await billingService.record(tx, [
    {
      kind: 'earning',
      userId: charge.providerId,
      reservationId: charge.reservationId,
      stripePaymentIntentId: charge.paymentIntentId,
      amountCents: charge.earningCents,
      status: 'pending',
      description: await writtenFor(tx, charge.providerId, charge.earning),
    },
  ]);
  await paymentStepService.enqueue(tx, deps.jobs, {
    paymentIntentId: charge.paymentIntentId,
    reservationId: charge.reservationId,
    kind: 'capture',
    purpose: 'approval',
    amountCents: charge.captureCents,
  });
}

/**
 * A cancellation gives back all of an approved payment (a booking's, or an extension's extra rental):
 * charged, or about to be. A capture that has not started is called off and the authorisation
 * released; one that ran (or is running) is refunded in full after it.
 */
export async function giveBackApproved(
  tx: Db,
  deps: StepDeps,
  payment: { reservationId: string; borrowerId: string; paymentIntentId: string; amountCents: number },
  /** The refund row's description, in the borrower's language. */
  description: () => MessageDescriptor,
) {
  const { reservationId, paymentIntentId, amountCents } = payment;
  const calledOff = await paymentStepService.supersede(tx, paymentIntentId, 'capture');
  if (calledOff.length) {
    await billingService.discard(tx, {
      reservationId,
      stripePaymentIntentId: paymentIntentId,
      kind: 'earning',
      statuses: ['pending', 'failed'],
    });
    await release(tx, deps, { reservationId, paymentIntentId, amountCents }, 'cancellation');
    return;
  }
  await refund(
    tx,
    deps,
    { id: reservationId, borrowerId: payment.borrowerId, stripePaymentIntentId: paymentIntentId },
    { purpose: 'cancellation', amountCents, description },
  );
}
