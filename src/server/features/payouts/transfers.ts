import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import type { PayoutPurpose } from '#shared/constants.ts';
import type { PaymentProvider, Transfer } from '../../adapters/payments/provider.ts';
import type { Db } from '../../db/client.ts';
import { afterCommit, transaction } from '../../db/transaction.ts';
import { type JobQueue, QUEUES } from '../../jobs/queue.ts';
import { wording } from '../../wordings.ts';
import { disputeService } from '../disputes/service.ts';
import { ledgerService } from '../ledger/service.ts';
import { notificationService } from '../notifications/service.ts';
import * as queries from './queries.ts';

// Transfers to lenders (decision 056, "Transfers"): an outbox. A booking's event writes a row per
// payment and purpose in its own transaction, with a job; the job decides the amount when it sends (the
// lender's earning entries on that payment less what was already sent of them, never below zero), so a
// cancellation or an early return before it leaves less or nothing. The provider's call is made outside
// any transaction, after looking the transfer up in its group (a lost answer never makes a second one),
// and the row is marked sent in the same transaction as the journal's posting.

export interface TransferDeps {
  db: Db;
  payments: PaymentProvider;
  jobs: JobQueue;
  /** The campus's time zone: the earliest day an early return could still be. */
  timeZone: string;
  /**
   * Of a payment, the most an early return could still give back (the reservations feature's rule,
   * `reservationService.mostAnEarlyReturnTakes`): a secured part leaves it out.
   */
  mostAnEarlyReturnTakes: (
    tx: Db,
    reservationId: string,
    paymentIntentId: string,
    now: Date,
    timeZone: string,
  ) => Promise<number>;
  /** A runner holds a transfer this long; after it, a crashed runner's transfer is taken again. */
  leaseMs?: number;
  now?: () => Date;
}

/** Thrown to have the job retried later: another runner holds the payment's transfers. */
export class TransferBusyError extends Error {}

const LEASE_MS = 120_000;
const CURRENCY = 'usd';

const transferSentText = wording(
  'payouts.transferSentText',
  (title: string | null, cents: number): { title: MessageDescriptor; message: MessageDescriptor } => {
    const amount = `$${centsToDecimal(cents)}`;
    return {
      title: msg`Payout sent`,
      message: title
        ? msg`${amount} for ${title} is on its way to your Stripe account.`
        : msg`${amount} is on its way to your Stripe account.`,
    };
  },
);

/** The group of a booking's transfers at the provider (looked up before one is made). */
const groupOf = (reservationId: string) => `booking-${reservationId}`;

/** What is left to send on a payment: earned less what its sent transfers kept, never below zero. */
function leftToSend(earned: number, siblings: queries.TransferRow[]): number {
  const sent = siblings
    .filter((s) => s.status === 'sent' || s.status === 'reversed')
    .reduce((sum, s) => sum + (s.amountCents ?? 0) - s.reversedCents, 0);
  return Math.max(0, earned - sent);
}

type Claim = { row: queries.TransferRow; accountId: string; amountCents: number };

export const transferService = {
  /**
   * In the caller's transaction: a transfer for each payment of the booking the lender earned on, due
   * at `releaseAt` (a second event scheduling the same purpose finds it). Due now: its job is sent now and
   * the worker woken after the commit.
   */
  async schedule(
    tx: Db,
    jobs: JobQueue,
    what: { reservationId: string; lenderId: string; purpose: PayoutPurpose; releaseAt: Date; now: Date },
  ): Promise<void> {
    const intents = await queries.earnedIntentsOf(tx, what.reservationId, what.lenderId);
    if (what.purpose === 'rental_rest') await queries.cancelOpenSecured(tx, what.reservationId, what.now);
    await queries.insertTransfers(
      tx,
      intents.map((paymentIntentId) => ({
        reservationId: what.reservationId,
        lenderId: what.lenderId,
        paymentIntentId,
        purpose: what.purpose,
        releaseAt: what.releaseAt,
        transferGroup: groupOf(what.reservationId),
        idempotencyKey: `payout-${paymentIntentId}-${what.purpose}`,
      })),
    );
    if (what.releaseAt > what.now) return;
    for (const { id } of await queries.openTransfersOf(tx, intents, what.purpose)) {
      await jobs.send(tx, QUEUES.payoutTransfers, { transferId: id });
    }
    afterCommit(tx, () => jobs.kick(QUEUES.payoutTransfers), QUEUES.payoutTransfers);
  },

  /** The lender's account became active: what waited for it goes now. */
  async accountActive(deps: Pick<TransferDeps, 'db' | 'jobs'>, lenderId: string): Promise<void> {
    const ids = await queries.rescheduleWaiting(deps.db, lenderId);
    for (const { id } of ids) await deps.jobs.sendNow(QUEUES.payoutTransfers, { transferId: id });
    if (ids.length) deps.jobs.kick(QUEUES.payoutTransfers);
  },

  /** The timed round: every transfer whose time came and that no runner holds gets its job again. */
  async sendDue(deps: TransferDeps): Promise<number> {
    const due = await queries.dueTransfers(deps.db, deps.now?.() ?? new Date());
    for (const { id } of due) await deps.jobs.sendNow(QUEUES.payoutTransfers, { transferId: id });
    if (due.length) deps.jobs.kick(QUEUES.payoutTransfers);
    return due.length;
  },

  /**
   * One transfer's job. Nothing happens to a row not due, already sent, frozen by a dispute (it stays
   * scheduled for a later round), or whose lender's account cannot receive it (waiting_account). A
   * failure is kept on the row and thrown for a retry; the last attempt's failure marks it failed, for a
   * moderator to look at.
   */
  async run(deps: TransferDeps, transferId: string, lastAttempt: boolean): Promise<void> {
    const now = deps.now?.() ?? new Date();
    const claim = await transaction(deps.db, (tx) => claimTransfer(tx, deps, transferId, now));
    if (!claim) return;
    let transfer: Transfer;
    try {
      transfer = await makeTransfer(deps.payments, claim);
    } catch (error) {
      await queries.updateTransfer(
        deps.db,
        claim.row.id,
        {
          lastError: error instanceof Error ? error.message.slice(0, 500) : String(error),
          leaseUntil: null,
          ...(lastAttempt ? { status: 'failed' } : {}),
        },
        ['scheduled'],
      );
      throw error;
    }
    await transaction(deps.db, async (tx) => {
      const sent = await queries.updateTransfer(
        tx,
        claim.row.id,
        {
          status: 'sent',
          amountCents: transfer.amountCents,
          providerTransferId: transfer.id,
          sentAt: now,
          leaseUntil: null,
          lastError: null,
        },
        ['scheduled', 'failed'],
      );
      if (!sent) return;
      await ledgerService.journal.transferSent(tx, {
        reservationId: sent.reservationId,
        paymentIntentId: sent.paymentIntentId,
        lenderId: sent.lenderId,
        amountCents: transfer.amountCents,
        source: transfer.id,
      });
      const title = await queries.itemTitleOf(tx, sent.reservationId);
      await notificationService.notify(tx, {
        userId: sent.lenderId,
        type: 'payout_sent',
        text: () => transferSentText(title, transfer.amountCents),
        relatedReservationId: sent.reservationId,
      });
    });
  },
};

/** Decides the transfer under the payment's lock and holds it for this runner (null: nothing to send now). */
async function claimTransfer(
  tx: Db,
  deps: TransferDeps,
  transferId: string,
  now: Date,
): Promise<Claim | null> {
  const first = await queries.findTransfer(tx, transferId);
  if (!first) return null;
  const siblings = await queries.lockTransfersOfIntent(tx, first.paymentIntentId);
  const row = siblings.find((s) => s.id === transferId)!;
  if (row.status !== 'scheduled' && row.status !== 'waiting_account') return null;
  if (row.releaseAt > now) return null;
  if (siblings.some((s) => s.leaseUntil && s.leaseUntil > now)) {
    throw new TransferBusyError('another runner holds this payment’s transfers');
  }
  if (row.reservationId && (await disputeService.freezesTransfers(tx, row.reservationId))) return null;
  const account = await queries.findAccount(tx, row.lenderId);
  if (account?.status !== 'active' || account.deauthorisedAt) {
    if (row.status !== 'waiting_account')
      await queries.updateTransfer(tx, row.id, { status: 'waiting_account' });
    return null;
  }
  let earned = await queries.earnedOnIntent(tx, row.paymentIntentId, row.lenderId);
  // Before the deposit is settled, only what no early return can take back is certain.
  if (row.purpose === 'rental_secured' && row.reservationId) {
    earned -= await deps.mostAnEarlyReturnTakes(
      tx,
      row.reservationId,
      row.paymentIntentId,
      now,
      deps.timeZone,
    );
  }
  const amountCents = leftToSend(earned, siblings);
  if (amountCents <= 0) {
    await queries.updateTransfer(tx, row.id, { status: 'cancelled', leaseUntil: null });
    return null;
  }
  const held = await queries.updateTransfer(tx, row.id, {
    status: 'scheduled',
    leaseUntil: new Date(now.getTime() + (deps.leaseMs ?? LEASE_MS)),
    attempts: row.attempts + 1,
  });
  return { row: held!, accountId: account.accountId, amountCents };
}

/** The provider's transfer: the one already made for this row when an answer was lost, else a new one. */
async function makeTransfer(payments: PaymentProvider, claim: Claim): Promise<Transfer> {
  const { row } = claim;
  const made = (await payments.listTransfers(row.transferGroup)).find(
    (t) => t.metadata.payoutTransferId === row.id,
  );
  if (made) return made;
  const charge = await payments.chargeOf(row.paymentIntentId);
  // The money comes from the booking's own charge: none captured yet means nothing to send from.
  if (!charge) throw new Error('the payment has no captured charge yet');
  return payments.createTransfer({
    amountCents: claim.amountCents,
    currency: CURRENCY,
    destination: claim.accountId,
    sourceTransaction: charge,
    transferGroup: row.transferGroup,
    metadata: { payoutTransferId: row.id, paymentIntentId: row.paymentIntentId },
    idempotencyKey: row.idempotencyKey,
  });
}
