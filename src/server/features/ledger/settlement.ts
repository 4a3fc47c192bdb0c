import type { Db } from '../../db/client.ts';
import { journal } from './journal.ts';
import { dropShare } from './platform.ts';
import * as queries from './queries.ts';
import { recordRows } from './rows.ts';

// What a payment step's outcome does to the billing rows the ledger recorded for it when it planned the
// step (payment_step_rows): the runner settles exactly those, without working them out again.

type StepRow = queries.StepRow;

/** A step the provider has done: the rows recorded for it say so, and the journal (in the transaction marking it done). */
export async function stepSucceeded(tx: Db, step: StepRow, providerRef: string | null): Promise<void> {
  // An off-session authorisation (decision 062) holds money and moves none: no rows, no journal.
  if (step.kind === 'authorise') return;
  const now = new Date();
  if (step.kind === 'capture') {
    await queries.settleRowsOfStep(
      tx,
      step.id,
      { kinds: ['payment', 'earning'], statuses: ['pending', 'failed'] },
      { status: 'completed' },
    );
  } else if (step.kind === 'release') {
    await queries.settleRowsOfStep(
      tx,
      step.id,
      { kinds: ['payment'], statuses: ['pending', 'failed'] },
      { status: 'refunded', refundAmountCents: step.amountCents, refundedAt: now },
    );
  } else {
    await queries.settleRowsOfStep(
      tx,
      step.id,
      { kinds: ['refund'] },
      {
        status: 'refunded',
        refundAmountCents: step.amountCents,
        refundedAt: now,
        providerRefundId: providerRef,
      },
    );
    // A payment given back whole: the lender's earning of it did not happen.
    const ended = await queries.settleRowsOfStep(
      tx,
      step.id,
      { kinds: ['earning'], statuses: ['completed', 'pending'] },
      (row) => ({ status: 'refunded', refundAmountCents: row.amountCents, refundedAt: now }),
    );
    await queries.insertEntries(
      tx,
      ended.map((line) => ({
        lenderId: line.userId,
        reservationId: line.reservationId,
        paymentIntentId: line.stripePaymentIntentId,
        billingId: line.id,
        amountCents: -line.amountCents,
        reason: 'cancelled' as const,
      })),
    );
    // The platform's service fee and commission of it go back with it (decision 055).
    if (step.purpose === 'cancellation') {
      await dropShare(tx, { reservationId: step.reservationId, paymentIntentId: step.paymentIntentId });
    }
  }
  // The money the provider moved, journalled now that it has (decision 058).
  await journal.stepSucceeded(tx, step);
}

/** A step that failed for good: the rows recorded for it say so. */
export async function stepFailed(tx: Db, step: StepRow): Promise<void> {
  if (step.kind === 'capture') {
    await queries.settleRowsOfStep(
      tx,
      step.id,
      { kinds: ['payment', 'earning'], statuses: ['pending'] },
      { status: 'failed' },
    );
  } else if (step.kind === 'refund') {
    await queries.settleRowsOfStep(tx, step.id, { kinds: ['refund'] }, { status: 'failed' });
  }
}

/**
 * A refund made outside CampusLoop (the provider's dashboard): its row, and a step recorded as done
 * (nothing more to call), so our rows keep saying what the card saw. `key` makes a repeat harmless.
 */
export async function recordOutsideRefund(
  tx: Db,
  what: {
    paymentIntentId: string;
    reservationId: string;
    borrowerId: string;
    amountCents: number;
    description: string;
    key: string;
  },
): Promise<void> {
  const [billingId] = await recordRows(tx, [
    {
      kind: 'refund',
      userId: what.borrowerId,
      reservationId: what.reservationId,
      stripePaymentIntentId: what.paymentIntentId,
      amountCents: what.amountCents,
      status: 'pending',
      description: what.description,
    },
  ]);
  const step = await queries.insertFinishedStep(tx, {
    paymentIntentId: what.paymentIntentId,
    reservationId: what.reservationId,
    kind: 'refund',
    purpose: 'support',
    amountCents: what.amountCents,
    idempotencyKey: what.key,
    billingId: billingId ?? null,
  });
  await queries.linkRows(tx, step.id, billingId ? [billingId] : []);
  await stepSucceeded(tx, step, null);
}
