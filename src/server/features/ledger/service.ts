import { randomUUID } from 'node:crypto';
import type { MoneyMovement } from '#shared/booking/money-plan.ts';
import type { PaymentStepKind, PaymentStepPurpose } from '#shared/constants.ts';
import type { Locale } from '#shared/i18n.ts';
import type { Db } from '../../db/client.ts';
import { afterCommit } from '../../db/transaction.ts';
import { type JobQueue, QUEUES } from '../../jobs/queue.ts';
import * as earnings from './earnings.ts';
import { journal } from './journal.ts';
import * as platform from './platform.ts';
import * as queries from './queries.ts';
import * as rows from './rows.ts';
import { type BillingRecord, type Words, written } from './rows.ts';
import * as settlement from './settlement.ts';

export type { BillingRecord, Words };

// The ledger (decision 045): the one writer of billing rows, payment steps and earning entries. A
// booking's event works out its money plan (src/shared/booking/money-plan.ts); the ledger carries it
// out inside the event's transaction, with one verb per movement: `hold` records an authorisation,
// `charge` captures it and the lender earns, `release` lets an authorisation go, `refund` gives back
// charged money, `giveBack` undoes a whole charge, `earn` and `keepFromDeposit` change what the lender
// earns. Each verb writes the rows it concerns (pending until the provider has done it) and the
// provider step that will do it, records which rows that step settles, and wakes the runner once the
// transaction has committed. When the step has run, `stepSucceeded` / `stepFailed` settle exactly the
// rows recorded for it. Earnings are a history of entries that add and subtract; the lender's billing
// row of a payment shows their sum.

export type StepRow = queries.StepRow;
export type EarningsFigure = queries.EarningsFigure;

export interface PlannedStep {
  paymentIntentId: string;
  reservationId: string | null;
  kind: PaymentStepKind;
  purpose: PaymentStepPurpose;
  amountCents: number;
  /** The refund row the step settles. */
  billingId?: string | null;
  /** Not run before then (an off-session authorisation close to the start, decision 062). */
  notBefore?: Date | null;
}

const WAKE_RUNNER = Symbol('wake the payment steps runner');

/** Once the transaction that queued a step commits, this process runs it now rather than at its next poll. */
export function wakeRunnerAfterCommit(tx: Db, jobs: JobQueue): void {
  afterCommit(tx, () => jobs.kick(QUEUES.paymentSteps), WAKE_RUNNER);
}

/** The rows a step settles, decided when it is planned (the runner does not work them out again). */
async function rowsSettledBy(tx: Db, step: PlannedStep): Promise<string[]> {
  const ids = step.billingId ? [step.billingId] : [];
  if (!step.reservationId) return ids;
  const of = { reservationId: step.reservationId, paymentIntentId: step.paymentIntentId };
  if (step.kind === 'capture') {
    const rows = await queries.rowsOf(tx, {
      ...of,
      kinds: ['payment', 'earning'],
      statuses: ['pending', 'failed'],
    });
    ids.push(...rows.map((r) => r.id));
  } else if (step.kind === 'release') {
    const rows = await queries.rowsOf(tx, { ...of, kinds: ['payment'], statuses: ['pending', 'failed'] });
    ids.push(...rows.map((r) => r.id));
  } else if (step.purpose === 'cancellation') {
    // The whole payment goes back, so the lender's earning of it goes too.
    const rows = await queries.rowsOf(tx, { ...of, kinds: ['earning'], statuses: ['completed', 'pending'] });
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

export const ledgerService = {
  recordRows: rows.recordRows,
  earn: earnings.earn,
  keepFromDeposit: earnings.keepFromDeposit,
  dropEarning: earnings.dropEarning,
  takeShare: platform.takeShare,
  stepSucceeded: settlement.stepSucceeded,
  stepFailed: settlement.stepFailed,
  recordOutsideRefund: settlement.recordOutsideRefund,

  /**
   * Inside a status change's transaction: the provider call it needs, the rows that call settles, and
   * the job that will make it. All exist exactly when the change commits.
   */
  async queueStep(
    tx: Db,
    jobs: JobQueue,
    step: PlannedStep,
    options: { idempotencyKey?: string; wakeRunner?: boolean } = {},
  ): Promise<StepRow> {
    // The step's own key: every attempt of this step is the same call to the provider.
    const idempotencyKey = options.idempotencyKey ?? `${step.kind}-${randomUUID()}`;
    const row = await queries.insertStep(tx, { ...step, idempotencyKey });
    await queries.linkRows(tx, row.id, await rowsSettledBy(tx, step));
    await jobs.send(tx, QUEUES.paymentSteps, { paymentIntentId: step.paymentIntentId });
    if (options.wakeRunner ?? true) wakeRunnerAfterCommit(tx, jobs);
    return row;
  },

  /** An authorisation no request used: let go, once (its key is the intent's). */
  releaseAbandoned: (tx: Db, jobs: JobQueue, intent: { id: string; amountCents: number }) =>
    ledgerService.queueStep(
      tx,
      jobs,
      {
        paymentIntentId: intent.id,
        reservationId: null,
        kind: 'release',
        purpose: 'abandoned',
        amountCents: intent.amountCents,
      },
      { idempotencyKey: `release-abandoned-${intent.id}`, wakeRunner: false },
    ),

  /**
   * Decision 062: a booking far ahead holds nothing at the request; its saved card is authorised
   * off-session from `notBefore` on, by a step of its own (one per payment: its key is the intent's).
   * An approval's capture queued later runs after it (steps of one payment run in order).
   */
  authoriseLater: (
    tx: Db,
    jobs: JobQueue,
    what: { reservationId: string; paymentIntentId: string; amountCents: number; notBefore: Date },
  ) =>
    ledgerService.queueStep(
      tx,
      jobs,
      {
        paymentIntentId: what.paymentIntentId,
        reservationId: what.reservationId,
        kind: 'authorise',
        purpose: 'deferred',
        amountCents: what.amountCents,
        notBefore: what.notBefore,
      },
      { idempotencyKey: `authorise-${what.paymentIntentId}`, wakeRunner: false },
    ),

  /** The borrower's card is authorised: their payment row, pending until it is charged or released. */
  async hold(
    tx: Db,
    what: {
      reservationId: string;
      borrowerId: string;
      paymentIntentId: string | null;
      amountCents: number;
      description: Words;
      card?: { type: string; last4: string | null } | null;
      /** The borrower's language, when the request is theirs (their session says it). */
      borrowerLocale?: Locale;
    },
  ): Promise<void> {
    await ledgerService.recordRows(tx, [
      {
        kind: 'payment',
        userId: what.borrowerId,
        reservationId: what.reservationId,
        stripePaymentIntentId: what.paymentIntentId,
        amountCents: what.amountCents,
        status: 'pending',
        ...(await written(tx, what.borrowerId, what.description, what.borrowerLocale)),
        paymentMethodType: what.card?.type ?? null,
        paymentMethodLast4: what.card?.last4 ?? null,
      },
    ]);
  },

  /** The borrower's pending payment row of a payment says what it is now (a payment, no longer a hold). */
  async describePayment(
    tx: Db,
    what: { reservationId: string; paymentIntentId: string; borrowerId: string; description: Words },
  ): Promise<void> {
    await queries.updateRowsOf(
      tx,
      {
        reservationId: what.reservationId,
        paymentIntentId: what.paymentIntentId,
        userId: what.borrowerId,
        statuses: ['pending'],
      },
      await written(tx, what.borrowerId, what.description),
    );
  },

  /**
   * The lender approved: the authorisation is charged (rows pending until the capture step has run,
   * decision 012), the lender earns the rental less the commission and the platform its share
   * (decision 055).
   */
  async charge(
    tx: Db,
    jobs: JobQueue,
    what: {
      reservationId: string;
      paymentIntentId: string;
      amountCents: number;
      borrowerId: string;
      paymentDescription: Words;
      lenderId: string;
      earningCents: number;
      earningDescription: Words;
      serviceFeeCents: number;
      commissionCents: number;
    },
  ): Promise<void> {
    await ledgerService.describePayment(tx, { ...what, description: what.paymentDescription });
    await ledgerService.earn(tx, {
      reservationId: what.reservationId,
      paymentIntentId: what.paymentIntentId,
      lenderId: what.lenderId,
      byCents: what.earningCents,
      reason: 'rental',
      description: what.earningDescription,
    });
    const of = { reservationId: what.reservationId, paymentIntentId: what.paymentIntentId };
    await platform.takeShare(tx, { ...of, part: 'service_fee', byCents: what.serviceFeeCents });
    await platform.takeShare(tx, { ...of, part: 'commission', byCents: what.commissionCents });
    await ledgerService.queueStep(tx, jobs, {
      paymentIntentId: what.paymentIntentId,
      reservationId: what.reservationId,
      kind: 'capture',
      purpose: 'approval',
      amountCents: what.amountCents,
    });
  },

  /** Lets go of an authorisation that was never charged. */
  async release(
    tx: Db,
    jobs: JobQueue,
    what: {
      reservationId: string;
      paymentIntentId: string | null;
      amountCents: number;
      purpose: 'decline' | 'cancellation' | 'expiry' | 'overlap';
    },
  ): Promise<void> {
    if (!what.paymentIntentId) return;
    // An off-session authorisation not made yet (decision 062) is not made at all: the release would
    // otherwise wait behind it, and a card would be held only to be let go.
    await queries.supersede(tx, what.paymentIntentId, 'authorise');
    await ledgerService.queueStep(tx, jobs, {
      paymentIntentId: what.paymentIntentId,
      reservationId: what.reservationId,
      kind: 'release',
      purpose: what.purpose,
      amountCents: what.amountCents,
    });
  },

  /** Gives back charged money: the borrower's refund row (pending until the provider confirms) and its step. */
  async refund(
    tx: Db,
    jobs: JobQueue,
    what: {
      reservationId: string;
      paymentIntentId: string;
      borrowerId: string;
      amountCents: number;
      purpose: 'deposit' | 'claim' | 'cancellation' | 'policy' | 'early_return';
      description: Words;
    },
  ): Promise<void> {
    const [billingId] = await ledgerService.recordRows(tx, [
      {
        kind: 'refund',
        userId: what.borrowerId,
        reservationId: what.reservationId,
        stripePaymentIntentId: what.paymentIntentId,
        amountCents: what.amountCents,
        status: 'pending',
        ...(await written(tx, what.borrowerId, what.description)),
      },
    ]);
    await ledgerService.queueStep(tx, jobs, {
      paymentIntentId: what.paymentIntentId,
      reservationId: what.reservationId,
      kind: 'refund',
      purpose: what.purpose,
      amountCents: what.amountCents,
      billingId: billingId ?? null,
    });
  },

  /**
   * Calls off the intent's captures that have not started (a cancel before the charge ran); answers
   * whether there was one. The earning that waited for it will not happen: its rows go, with an entry.
   */
  async callOffCharge(tx: Db, what: { reservationId: string; paymentIntentId: string }): Promise<boolean> {
    const calledOff = await queries.supersede(tx, what.paymentIntentId, 'capture');
    if (!calledOff.length) return false;
    await ledgerService.dropEarning(tx, { ...what, statuses: ['pending', 'failed'] });
    await platform.dropShare(tx, what);
    return true;
  },

  /**
   * An approved payment given back whole: a charge that has not started is called off and the
   * authorisation released; one that ran (or is running) is refunded in full after it, and the lender's
   * earning of it ends when the refund is made. Answers which of the two it did.
   */
  async giveBack(
    tx: Db,
    jobs: JobQueue,
    what: {
      reservationId: string;
      paymentIntentId: string;
      borrowerId: string;
      amountCents: number;
      description: Words;
    },
  ): Promise<'released' | 'refunded'> {
    if (await ledgerService.callOffCharge(tx, what)) {
      await ledgerService.release(tx, jobs, { ...what, purpose: 'cancellation' });
      return 'released';
    }
    await ledgerService.refund(tx, jobs, { ...what, purpose: 'cancellation' });
    return 'refunded';
  },

  /**
   * Carries out a money plan's movements for a booking, in order. `words` gives each row's description
   * (the borrower's payment and refunds, the lender's earning), written in its reader's language.
   */
  async carryOut(
    tx: Db,
    jobs: JobQueue,
    booking: { reservationId: string; borrowerId: string; lenderId: string },
    plan: readonly MoneyMovement[],
    words: (movement: MoneyMovement) => Words,
  ): Promise<void> {
    const of = { reservationId: booking.reservationId, borrowerId: booking.borrowerId };
    for (const m of plan) {
      if (m.kind === 'hold') {
        await ledgerService.hold(tx, { ...of, ...m, description: words(m) });
      } else if (m.kind === 'capture') {
        await ledgerService.describePayment(tx, { ...of, ...m, description: words(m) });
        await ledgerService.queueStep(tx, jobs, {
          paymentIntentId: m.paymentIntentId,
          reservationId: booking.reservationId,
          kind: 'capture',
          purpose: 'approval',
          amountCents: m.amountCents,
        });
      } else if (m.kind === 'release') {
        await ledgerService.release(tx, jobs, { ...of, ...m });
      } else if (m.kind === 'refund' && m.purpose === 'policy') {
        // A policy keeps part of a charge; a booking far ahead whose card was not charged yet (its hold
        // waits for its day or for the borrower's fix, decision 062) has none: nothing can be kept of
        // money never taken, so the charge is called off, its earning dropped and the intent released.
        if (
          (await queries.holdNotMade(tx, m.paymentIntentId)) &&
          (await ledgerService.callOffCharge(tx, { reservationId: of.reservationId, ...m }))
        ) {
          await ledgerService.release(tx, jobs, { ...of, ...m, purpose: 'cancellation' });
        } else {
          await ledgerService.refund(tx, jobs, { ...of, ...m, description: words(m) });
        }
      } else if (m.kind === 'refund') {
        await ledgerService.refund(tx, jobs, { ...of, ...m, description: words(m) });
      } else if (m.kind === 'giveBack') {
        await ledgerService.giveBack(tx, jobs, { ...of, ...m, description: words(m) });
      } else if (m.kind === 'platform') {
        await platform.takeShare(tx, {
          reservationId: booking.reservationId,
          paymentIntentId: m.paymentIntentId,
          part: m.part,
          byCents: m.amountCents,
        });
      } else {
        await ledgerService.earn(tx, {
          reservationId: booking.reservationId,
          paymentIntentId: m.paymentIntentId,
          lenderId: booking.lenderId,
          byCents: m.amountCents,
          reason: m.reason,
          description: words(m),
        });
      }
    }
  },

  /** Marks the intent's unfinished steps of this kind moot (a cancel before the capture ran). */
  supersede: (tx: Db, paymentIntentId: string, kind: PaymentStepKind) =>
    queries.supersede(tx, paymentIntentId, kind),

  /** Charged minus refunded for a payment intent, as the rows say (decision 012's reconciliation). */
  netCents: (db: Db, paymentIntentId: string) => queries.netCents(db, paymentIntentId),

  /** A booking's earnings: the sum of its entries beside what its earning rows say (they must agree). */
  earningsOfBooking: (db: Db, reservationId: string) => queries.earningsOfBooking(db, reservationId),

  /** A lender's earnings: the sum of their entries beside what their earning rows say. */
  earningsOfLender: (db: Db, lenderId: string) => queries.earningsOfLender(db, lenderId),

  /** The journal's reconciliation of bookings whose payments were compared with the provider (decision 058). */
  reconcileJournal: journal.reconcileBookings,

  /**
   * The journal (decision 058), for features that move money the provider tells them of: transfers to
   * lenders and their reversals, disputes (`journal.transferSent`, `transferReversed`,
   * `disputeFundsWithdrawn`, `disputeFundsReinstated`).
   */
  journal,

  /** Money between a person and CampusLoop, as the journal says (account deletion waits for it). */
  moneyOfPerson: journal.moneyOfPerson,
  /** The platform's share of a booking's payments (decision 055): service fee and commission. */
  platformShareOfBooking: (db: Db, reservationId: string) =>
    queries.platformShareOfBooking(db, reservationId),

  /**
   * Payments whose charged money is not refunds + lender earnings + platform fee + deposit held
   * (none, when the ledger is sound; decision 055).
   */
  unaccountedPayments: (db: Db) => queries.unaccountedPayments(db),

  /** Payments whose earning entries and earning rows disagree (none, when the ledger is sound). */
  earningMismatches: (db: Db) => queries.earningMismatches(db),

  /** A leaving person's name taken out of the rows of the reservations they were part of (the rows stay). */
  forgetName: (db: Db, userId: string, fullName: string, replacement: string) =>
    queries.replaceNameInDescriptions(db, userId, fullName, replacement),
};
