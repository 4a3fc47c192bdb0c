import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import type { PayoutPurpose } from '#shared/constants.ts';
import type { PAYOUT_PROBLEM_KINDS, PayoutProblemsResponse } from '#shared/schemas/payouts.ts';
import type { PaymentProvider, Transfer } from '../../adapters/payments/provider.ts';
import type { Db } from '../../db/client.ts';
import { afterCommit, transaction } from '../../db/transaction.ts';
import { notFound } from '../../errors.ts';
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

/**
 * What transfers kept of a payment: what was sent, less what was taken back or is owed instead, plus
 * what a receivable was netted from (the lender had that value as a debt paid off).
 */
function keptBy(rows: queries.TransferRow[]): number {
  return rows.reduce(
    (sum, r) =>
      sum +
      r.nettedCents +
      (r.status === 'sent' || r.status === 'reversed'
        ? (r.amountCents ?? 0) - r.reversedCents - r.owedCents
        : 0),
    0,
  );
}

/** What is left to send on a payment: earned less what its transfers kept, never below zero. */
function leftToSend(earned: number, siblings: queries.TransferRow[]): number {
  return Math.max(0, earned - keptBy(siblings));
}

/** Of a lender's booking, what is theirs now: earned less what a lost dispute charged them. */
const dueOf = (f: { earned: number; charged: number }) => Math.max(0, f.earned - f.charged);

type Claim = { row: queries.TransferRow; accountId: string; amountCents: number };

const transferReversedText = wording(
  'payouts.transferReversedText',
  (
    title: string | null,
    cents: number,
    atFault: boolean,
  ): { title: MessageDescriptor; message: MessageDescriptor } => {
    const amount = `$${centsToDecimal(cents)}`;
    return {
      title: msg`Payout taken back`,
      message: atFault
        ? title
          ? msg`${amount} of your payout for ${title} was taken back from your Stripe account: a moderator found you responsible for the card dispute.`
          : msg`${amount} of a payout was taken back from your Stripe account: a moderator found you responsible for the card dispute.`
        : title
          ? msg`${amount} of your payout for ${title} was taken back from your Stripe account after a refund to the borrower.`
          : msg`${amount} of a payout was taken back from your Stripe account after a refund to the borrower.`,
    };
  },
);

type PayoutProblemKind = (typeof PAYOUT_PROBLEM_KINDS)[number];

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
    const later = what.releaseAt > what.now;
    // Due later: the job waits in the queue until then (start-after), so it goes at its time and not
    // at the next upkeep round; the round still sends any whose job was lost.
    for (const { id } of await queries.openTransfersOf(tx, intents, what.purpose)) {
      await jobs.send(
        tx,
        QUEUES.payoutTransfers,
        { transferId: id },
        later ? { startAfter: what.releaseAt } : {},
      );
    }
    if (!later) afterCommit(tx, () => jobs.kick(QUEUES.payoutTransfers), QUEUES.payoutTransfers);
  },

  /** The lender's account became active: what waited for it goes now. */
  async accountActive(deps: Pick<TransferDeps, 'db' | 'jobs'>, lenderId: string): Promise<void> {
    const ids = await queries.rescheduleWaiting(deps.db, lenderId);
    for (const { id } of ids) await deps.jobs.sendNow(QUEUES.payoutTransfers, { transferId: id });
    if (ids.length) deps.jobs.kick(QUEUES.payoutTransfers);
  },

  /**
   * The timed round: every transfer whose time came and that no runner holds gets its job again, and
   * every booking whose transfers kept more than the lender's due gets a reversal job.
   */
  async sendDue(deps: TransferDeps): Promise<number> {
    const due = await queries.dueTransfers(deps.db, deps.now?.() ?? new Date());
    for (const { id } of due) await deps.jobs.sendNow(QUEUES.payoutTransfers, { transferId: id });
    const over = await queries.bookingsKeepingTooMuch(deps.db);
    for (const booking of over) await deps.jobs.sendNow(QUEUES.payoutTransfers, booking);
    if (due.length || over.length) deps.jobs.kick(QUEUES.payoutTransfers);
    return due.length + over.length;
  },

  /**
   * After a payment's steps ran (a refund may have lowered the lender's earning of a paid booking):
   * the bookings its sent transfers belong to are reconciled now rather than at the next upkeep round.
   */
  async afterPaymentSteps(deps: TransferDeps, paymentIntentId: string): Promise<number> {
    let reversed = 0;
    for (const { reservationId, lenderId } of await queries.paidBookingsOfIntent(deps.db, paymentIntentId)) {
      if (reservationId) reversed += await transferService.reconcileBooking(deps, reservationId, lenderId);
    }
    return reversed;
  },

  /**
   * A lender's booking may have kept more than is theirs (a refund after a transfer, a lender found at
   * fault): its reversal job is sent after the caller's commit.
   */
  async reconcileLater(tx: Db, jobs: JobQueue, booking: { reservationId: string; lenderId: string }) {
    await jobs.send(tx, QUEUES.payoutTransfers, booking);
    afterCommit(tx, () => jobs.kick(QUEUES.payoutTransfers), QUEUES.payoutTransfers);
  },

  /**
   * Takes back from the lender's account what the booking's sent transfers kept beyond the lender's due
   * (decision 061). Decided under the booking's transfers' lock as reversal rows (newest transfer
   * first); each is made outside any transaction, with its idempotency key, after looking the transfer
   * up at the provider (a lost answer is found, not repeated). For a lender at fault, what their
   * balance cannot cover becomes a receivable instead, netted from their later transfers.
   */
  async reconcileBooking(
    deps: TransferDeps,
    reservationId: string,
    lenderId: string,
    lastAttempt = false,
  ): Promise<number> {
    let reversed = 0;
    // Each round makes one reversal; a booking never needs many.
    for (let round = 0; round < 10; round++) {
      const account = await queries.findAccount(deps.db, lenderId);
      const now = deps.now?.() ?? new Date();
      const balance = account ? await deps.payments.balance(account.accountId) : null;
      const claim = await transaction(deps.db, (tx) =>
        claimReversal(tx, deps, reservationId, lenderId, now, balance),
      );
      if (!claim) return reversed;
      reversed += await makeReversal(deps, claim, lastAttempt);
    }
    return reversed;
  },

  /** Moderators' list of transfers and reversals that failed on every retry, newest first. */
  async problems(db: Db): Promise<PayoutProblemsResponse> {
    const rows = await queries.payoutProblems(db);
    return {
      problems: rows.map((r) => ({
        kind: r.kind,
        id: r.id,
        reservationId: r.reservation_id,
        itemTitle: r.item_title,
        lenderId: r.lender_id,
        lenderName: r.lender_name,
        amount: centsToDecimal(r.amount_cents)!,
        lastError: r.last_error,
        attempts: r.attempts,
        failedAt: new Date(r.at).toISOString(),
      })),
    };
  },

  /**
   * A moderator's "Try again": the failed row is scheduled again and its job sent. Only a row still
   * failed changes, so two clicks (or two moderators) send it once; the job itself never moves money
   * twice (it looks the transfer or reversal up at the provider first).
   */
  async retryProblem(
    deps: Pick<TransferDeps, 'db' | 'jobs'>,
    kind: PayoutProblemKind,
    id: string,
  ): Promise<{ requeued: boolean }> {
    if (kind === 'transfer') {
      if (!(await queries.findTransfer(deps.db, id))) throw notFound(msg`No such transfer.`);
      const row = await queries.retryFailedTransfer(deps.db, id);
      if (!row) return { requeued: false };
      await deps.jobs.sendNow(QUEUES.payoutTransfers, { transferId: row.id });
    } else {
      if (!(await queries.findReversal(deps.db, id))) throw notFound(msg`No such reversal.`);
      const booking = await queries.retryFailedReversal(deps.db, id);
      if (!booking) return { requeued: false };
      if (booking.reservationId) {
        await deps.jobs.sendNow(QUEUES.payoutTransfers, {
          reservationId: booking.reservationId,
          lenderId: booking.lenderId,
        });
      }
    }
    deps.jobs.kick(QUEUES.payoutTransfers);
    return { requeued: true };
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
          // The provider's word: a transfer made before the account was replaced went to the old one.
          destinationAccountId: transfer.destination,
          sentAt: now,
          availableAt: transfer.availableAt ? new Date(transfer.availableAt) : null,
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
  let amountCents = leftToSend(earned, siblings);
  // Never more than the booking leaves the lender: a lost dispute they were found at fault for is theirs.
  if (row.reservationId) {
    const figures = await queries.bookingFigures(tx, row.reservationId, row.lenderId);
    amountCents = Math.min(amountCents, Math.max(0, dueOf(figures) - figures.kept));
  }
  if (amountCents <= 0) {
    await queries.updateTransfer(tx, row.id, { status: 'cancelled', leaseUntil: null });
    return null;
  }
  // What the lender owes (a reversal their balance could not cover) is taken from it first, once: the
  // netted part is kept on the row, so a retry after a failed call finds it already netted.
  const { nettedCents, payableCents } = await disputeService.netAgainstReceivable(
    tx,
    row.lenderId,
    amountCents,
  );
  if (payableCents <= 0) {
    await queries.updateTransfer(tx, row.id, {
      status: 'sent',
      nettedCents: row.nettedCents + nettedCents,
      sentAt: now,
      leaseUntil: null,
      lastError: null,
    });
    return null;
  }
  const held = await queries.updateTransfer(tx, row.id, {
    status: 'scheduled',
    nettedCents: row.nettedCents + nettedCents,
    destinationAccountId: account.accountId,
    leaseUntil: new Date(now.getTime() + (deps.leaseMs ?? LEASE_MS)),
    attempts: row.attempts + 1,
  });
  return { row: held!, accountId: account.accountId, amountCents: payableCents };
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

type ReversalClaim = {
  reversal: queries.ReversalRow;
  transfer: queries.TransferRow;
  /** What is taken back this time (the rest of the reversal is owed instead). */
  coverCents: number;
};

/**
 * Under the lock of the booking's transfers: decides the reversals the booking needs (none under way),
 * then holds the first one not made for this runner, its cover decided on its first attempt.
 */
async function claimReversal(
  tx: Db,
  deps: TransferDeps,
  reservationId: string,
  lenderId: string,
  now: Date,
  balance: { availableCents: number; pendingCents: number } | null,
): Promise<ReversalClaim | null> {
  const rows = await queries.lockTransfersOfBooking(tx, reservationId, lenderId);
  if (!rows.length) return null;
  const reversals = await queries.reversalsOf(
    tx,
    rows.map((r) => r.id),
  );
  if (reversals.some((v) => v.status === 'scheduled' && v.leaseUntil && v.leaseUntil > now)) {
    throw new TransferBusyError('another runner holds this booking’s reversals');
  }
  // A reversal that failed for good waits for a moderator's "Try again": none is decided beside it, so
  // the same money is never asked for twice.
  if (reversals.some((v) => v.status === 'failed')) return null;
  let open = reversals.filter((v) => v.status === 'scheduled');
  if (!open.length) {
    const figures = await queries.bookingFigures(tx, reservationId, lenderId);
    let excess = figures.kept - figures.unsent - dueOf(figures);
    if (excess <= 0) return null;
    const fault = await disputeService.faultOf(tx, reservationId, lenderId);
    // Newest transfer first: the rest of a rental goes back before its secured part.
    const sent = rows
      .filter((r) => (r.status === 'sent' || r.status === 'reversed') && r.providerTransferId)
      .reverse();
    for (const transfer of sent) {
      const room = (transfer.amountCents ?? 0) - transfer.reversedCents - transfer.owedCents;
      const cents = Math.min(room, excess);
      if (cents <= 0) continue;
      excess -= cents;
      const id = crypto.randomUUID();
      open.push(
        await queries.insertReversal(tx, {
          transferId: transfer.id,
          reason: fault ? 'lender_at_fault' : 'refund',
          disputeId: fault?.id ?? null,
          amountCents: cents,
          idempotencyKey: `payout-reversal-${id}`,
        }),
      );
    }
    open = open.filter((v) => v.status === 'scheduled');
    if (!open.length) return null;
  }
  const reversal = open[0]!;
  const transfer = rows.find((r) => r.id === reversal.transferId)!;
  // Decided once, on the first attempt: a retry must ask the provider for the same amount.
  let owedCents = reversal.owedCents;
  if (reversal.attempts === 0 && reversal.reason === 'lender_at_fault' && reversal.disputeId) {
    const covered = balance ? Math.max(0, balance.availableCents + balance.pendingCents) : 0;
    owedCents = Math.max(0, reversal.amountCents - covered);
  }
  const held = await queries.updateReversal(tx, reversal.id, {
    owedCents,
    attempts: reversal.attempts + 1,
    leaseUntil: new Date(now.getTime() + (deps.leaseMs ?? LEASE_MS)),
  });
  return { reversal: held!, transfer, coverCents: held!.amountCents - owedCents };
}

/** Makes the held reversal at the provider (unless a lost answer shows it made) and books it. */
async function makeReversal(deps: TransferDeps, claim: ReversalClaim, lastAttempt: boolean): Promise<number> {
  const { reversal, transfer, coverCents } = claim;
  let providerReversalId: string | null = null;
  if (coverCents > 0) {
    try {
      const atProvider = await deps.payments.retrieveTransfer(transfer.providerTransferId!);
      // Taken back already beyond what our row says: this reversal's answer was lost.
      const made = atProvider.amountReversedCents - transfer.reversedCents >= coverCents;
      if (!made) {
        providerReversalId = (
          await deps.payments.reverseTransfer(
            transfer.providerTransferId!,
            coverCents,
            reversal.idempotencyKey,
          )
        ).id;
      }
    } catch (error) {
      // The job's last attempt leaves it failed for a moderator: a failed reversal holds the booking's
      // later ones back and is no longer sent again by the upkeep round.
      await queries.updateReversal(
        deps.db,
        reversal.id,
        {
          lastError: error instanceof Error ? error.message.slice(0, 500) : String(error),
          leaseUntil: null,
          ...(lastAttempt ? { status: 'failed' } : {}),
        },
        ['scheduled'],
      );
      throw error;
    }
  }
  await transaction(deps.db, async (tx) => {
    const done = await queries.updateReversal(
      tx,
      reversal.id,
      {
        status: 'sent',
        reversedCents: coverCents,
        providerReversalId,
        leaseUntil: null,
        lastError: null,
      },
      ['scheduled'],
    );
    if (!done) return;
    const [row] = await queries
      .lockTransfersOfIntent(tx, transfer.paymentIntentId)
      .then((rows) => rows.filter((r) => r.id === transfer.id));
    await queries.updateTransfer(tx, transfer.id, {
      status: 'reversed',
      reversedCents: row!.reversedCents + coverCents,
      owedCents: row!.owedCents + reversal.owedCents,
    });
    if (coverCents > 0) {
      await ledgerService.journal.transferReversed(tx, {
        reservationId: transfer.reservationId,
        paymentIntentId: transfer.paymentIntentId,
        lenderId: transfer.lenderId,
        amountCents: coverCents,
        source: `payout-reversal:${reversal.id}`,
      });
    }
    if (reversal.owedCents > 0 && reversal.disputeId) {
      await disputeService.reversalShortfall(tx, reversal.disputeId, reversal.owedCents);
    }
    const title = await queries.itemTitleOf(tx, transfer.reservationId);
    await notificationService.notify(tx, {
      userId: transfer.lenderId,
      type: 'system',
      text: () => transferReversedText(title, reversal.amountCents, reversal.reason === 'lender_at_fault'),
      relatedReservationId: transfer.reservationId,
    });
  });
  return coverCents;
}
