import type { BillingStatus, EarningReason } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { journal } from './journal.ts';
import * as queries from './queries.ts';
import { type Words, written } from './rows.ts';

// The lender's earnings (decision 045): every change is an entry of the append-only history, and the
// lender's billing row of the payment (the statement line) shows their sum.

/**
 * The lender's earning on a payment grows or shrinks by `byCents` (never below zero): an entry of the
 * history, and the statement line (their billing row of the payment) showing the new figure with
 * `description`. A first earning on a payment gets its line, pending until the payment is charged.
 */
export async function earn(
  tx: Db,
  what: {
    reservationId: string;
    paymentIntentId: string;
    lenderId: string;
    byCents: number;
    reason: EarningReason;
    description: Words;
  },
): Promise<void> {
  const of = { reservationId: what.reservationId, paymentIntentId: what.paymentIntentId };
  const lines = await queries.rowsOf(tx, { ...of, kinds: ['earning'] });
  const described = await written(tx, what.lenderId, what.description);
  if (lines.length) {
    for (const line of lines) {
      const amount = Math.max(0, line.amountCents + what.byCents);
      await queries.setRowAmount(tx, line.id, amount, described);
      await queries.insertEntries(tx, [
        {
          lenderId: line.userId,
          reservationId: what.reservationId,
          paymentIntentId: what.paymentIntentId,
          billingId: line.id,
          amountCents: amount - line.amountCents,
          reason: what.reason,
        },
      ]);
    }
    await journal.earningsChanged(tx, what.paymentIntentId);
    return;
  }
  if (what.byCents <= 0) return;
  // The line takes the payment's status, so the charge's success settles it like the rest.
  const [payment] = await queries.rowsOf(tx, { ...of, kinds: ['payment'] });
  const status = payment?.status === 'completed' ? 'completed' : 'pending';
  const [line] = await queries.insertRows(tx, [
    {
      kind: 'earning',
      userId: what.lenderId,
      reservationId: what.reservationId,
      stripePaymentIntentId: what.paymentIntentId,
      amountCents: what.byCents,
      status,
      ...described,
    },
  ]);
  await queries.insertEntries(tx, [
    {
      lenderId: what.lenderId,
      reservationId: what.reservationId,
      paymentIntentId: what.paymentIntentId,
      billingId: line!.id,
      amountCents: what.byCents,
      reason: what.reason,
    },
  ]);
  await journal.earningsChanged(tx, what.paymentIntentId);
  if (status === 'pending') {
    for (const capture of await queries.unfinishedSteps(tx, what.paymentIntentId, 'capture')) {
      await queries.linkRows(tx, capture.id, [line!.id]);
    }
  }
}

/** The lender keeps part of the deposit (an accepted or decided claim): their earning grows by it. */
export const keepFromDeposit = (
  tx: Db,
  what: {
    reservationId: string;
    paymentIntentId: string;
    lenderId: string;
    keptCents: number;
    description: Words;
  },
) => earn(tx, { ...what, byCents: what.keptCents, reason: 'deposit_kept' });

/** An earning whose charge was called off will never happen: its lines go, and an entry takes it back. */
export async function dropEarning(
  tx: Db,
  what: { reservationId: string; paymentIntentId: string; statuses: BillingStatus[] },
): Promise<void> {
  const lines = await queries.rowsOf(tx, { ...what, kinds: ['earning'] });
  await queries.insertEntries(
    tx,
    lines.map((line) => ({
      lenderId: line.userId,
      reservationId: what.reservationId,
      paymentIntentId: what.paymentIntentId,
      billingId: line.id,
      amountCents: -line.amountCents,
      reason: 'cancelled' as const,
    })),
  );
  await queries.deleteRows(
    tx,
    lines.map((line) => line.id),
  );
  await journal.earningsChanged(tx, what.paymentIntentId);
}
