import { setTimeout as sleep } from 'node:timers/promises';
import { msg } from '@lingui/core/macro';
import { cardFixBy } from '#shared/booking/booking-deadlines.ts';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import type { PaymentStepKind, PaymentStepPurpose, PaymentStepStatus } from '#shared/constants.ts';
import type { AdminPayments } from '#shared/schemas/payment-steps.ts';
import type { PaymentProvider } from '../../adapters/payments/provider.ts';
import { campusMomentWritten } from '../../booking-words.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { type JobQueue, QUEUES } from '../../jobs/queue.ts';
import { ledgerService, wakeRunnerAfterCommit } from '../ledger/service.ts';
import { moderationService } from '../moderation/service.ts';
import { notificationService } from '../notifications/service.ts';
import * as queries from './queries.ts';
import { providerReported, reconcile, releaseAbandoned, resendStuck } from './upkeep.ts';

// The payment outbox (decision 012). A status change that moves money (approve, decline, cancel,
// expiry, return) writes a step here in its own transaction and sends a job in that same transaction;
// the job queue runs the intent's steps in order afterwards, retrying with backoff, and a step that
// keeps failing is left for moderators. Each step first asks the provider where the intent stands,
// then makes only the call still missing, with the step's own idempotency key, so a crash at any
// point, a lost answer, or a duplicate job never moves money twice. Billing rows follow what the
// provider confirmed: a payment is 'completed' when the capture succeeded, a refund 'refunded' when
// the refund was made.

export interface PaymentStepDeps {
  db: Db;
  payments: PaymentProvider;
  jobs: JobQueue;
  payment: { retryLimit: number; stepLeaseMs: number };
  log?: { error: (obj: object, msg: string) => void; warn?: (obj: object, msg: string) => void };
  /** Told of every failed attempt (GET /metrics), when metrics are on. */
  metrics?: PaymentStepMetrics;
  /** The moderators (ADMIN_EMAILS): whether someone else can look at a problem a moderator is party to. */
  adminEmails?: readonly string[];
  /** The campus time zone: a card-fix deadline never runs past the start day's beginning (decision 062). */
  timeZone?: string;
}

export interface PaymentStepMetrics {
  /** An attempt of a step failed: `final` when it failed for good (a moderator must look). */
  stepFailed(kind: PaymentStepKind, final: boolean): void;
}

/**
 * The provider refused in a way a retry cannot change: moderators must look. Its message is the step's
 * diagnostic record (last_error), kept in English beside the provider's own English errors.
 */
class PermanentStepError extends Error {}

/**
 * The bank refused an off-session authorisation (decision 062): no retry can change it, the borrower
 * must (authenticate, or give another card). The step waits for them; moderators need not look.
 */
class OffSessionRefused extends Error {
  constructor(
    readonly problem: 'declined' | 'authentication_required',
    message: string,
  ) {
    super(message);
  }
}

/** Another runner holds the step (its lease has not run out): try again later. */
export class StepBusyError extends Error {}

/** Declines, missing objects and wrong states come back from the provider as 4xx AppErrors. */
function isPermanent(error: unknown): boolean {
  return (
    error instanceof PermanentStepError ||
    (error instanceof AppError && error.statusCode >= 400 && error.statusCode < 500)
  );
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 500);
}

/** Asks the provider where the intent stands, then makes only the call still missing. */
async function perform(deps: PaymentStepDeps, step: queries.StepRow): Promise<string | null> {
  const intent = await deps.payments.retrievePaymentIntent(step.paymentIntentId);
  await queries.setProviderStatus(deps.db, intent.id, { providerStatus: intent.status });
  if (step.kind === 'authorise') {
    // Looked up first: an authorisation made before a crash (or by the borrower's own fix) is not
    // made twice.
    if (intent.status === 'requires_capture' || intent.status === 'succeeded') return null;
    if (intent.status === 'canceled') {
      throw new PermanentStepError('The payment was cancelled: it can no longer be authorised.');
    }
    if (intent.status === 'requires_action') {
      throw new OffSessionRefused('authentication_required', 'The bank asks the cardholder to authenticate.');
    }
    const card = step.reservationId ? await queries.offSessionCardOf(deps.db, step.reservationId) : undefined;
    if (!card?.paymentMethod || !card.customerId) {
      throw new OffSessionRefused('declined', 'No saved card to authorise off-session.');
    }
    try {
      await deps.payments.authoriseOffSession({
        paymentIntentId: intent.id,
        paymentMethodId: card.paymentMethod,
        customerId: card.customerId,
        // A fresh key per attempt: a provider replays a refusal for its key, and a card fixed since
        // must be asked again. The look-up above keeps a retry from holding twice.
        idempotencyKey: `${step.idempotencyKey}-${step.attempts}`,
      });
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 402) {
        const problem = error.code === 'AUTHENTICATION_REQUIRED' ? 'authentication_required' : 'declined';
        throw new OffSessionRefused(problem, describe(error));
      }
      throw error;
    }
    return null;
  }
  if (step.kind === 'capture') {
    if (intent.status === 'succeeded') return null;
    if (intent.status !== 'requires_capture') {
      throw new PermanentStepError(
        `The card authorisation is ${intent.status.replaceAll('_', ' ')}: it can no longer be charged.`,
      );
    }
    await deps.payments.capturePaymentIntent(intent.id, step.idempotencyKey);
    return null;
  }
  if (step.kind === 'release') {
    if (intent.status === 'canceled') return null;
    if (intent.status === 'succeeded') {
      throw new PermanentStepError('The payment was already charged: it must be refunded, not released.');
    }
    await deps.payments.cancelPaymentIntent(intent.id, step.idempotencyKey);
    return null;
  }
  if (intent.status !== 'succeeded') {
    throw new PermanentStepError(
      `The payment is ${intent.status.replaceAll('_', ' ')}: only a charged payment can be refunded.`,
    );
  }
  // A refund whose answer was lost (a crash after the call) is already counted by the provider.
  const ours = await queries.refundCents(deps.db, intent.id, ['succeeded']);
  if (intent.amountRefundedCents >= ours + step.amountCents) return null;
  const refund = await deps.payments.refund(intent.id, step.amountCents, step.idempotencyKey);
  return refund.id;
}

/** The billing rows a succeeded step settles (the ledger recorded them when it planned the step). */
const applySuccess = (tx: Db, step: queries.StepRow, providerRef: string | null) =>
  ledgerService.stepSucceeded(tx, step, providerRef);

/** A step that failed for good: its rows say so, and the people whose money it is are told. */
async function applyFailure(tx: Db, step: queries.StepRow) {
  const parties = step.reservationId ? await queries.reservationParties(tx, step.reservationId) : undefined;
  await ledgerService.stepFailed(tx, step);
  if (step.kind === 'capture' && step.reservationId) {
    if (parties) {
      const item = parties.title;
      await notificationService.notify(tx, {
        userId: parties.providerId,
        type: 'system',
        text: () => ({
          title: msg`Payment problem`,
          message: msg`We could not charge the card for ${item}. Our team has been told; please wait for the payment before handing the item over.`,
        }),
        relatedReservationId: step.reservationId,
        relatedItemId: parties.itemId,
      });
    }
  } else if (step.kind === 'refund') {
    if (parties) {
      const item = parties.title;
      await notificationService.notify(tx, {
        userId: parties.borrowerId,
        type: 'system',
        text: () => {
          const amount = `$${centsToDecimal(step.amountCents)}`;
          return {
            title: msg`Refund delayed`,
            message: msg`Your ${amount} refund for ${item} is delayed. Our team has been told and will make sure it reaches your card.`,
          };
        },
        relatedReservationId: step.reservationId,
        relatedItemId: parties.itemId,
      });
    }
  }
}

async function markFailedForGood(deps: PaymentStepDeps, step: queries.StepRow, error: string) {
  await transaction(deps.db, async (tx) => {
    if (await queries.recordFailure(tx, step.id, error, true)) await applyFailure(tx, step);
  });
  deps.log?.error(
    { stepId: step.id, intentId: step.paymentIntentId, kind: step.kind, error },
    'payment step failed for good',
  );
}

/**
 * The runner's own writes after a provider call (done, failed) can fail too: a cut connection. The
 * step would stay `running` under its lease, for minutes, while the provider already moved the money
 * and reconciliation saw the two disagree. So the claim is given back at once, on a fresh connection
 * (the pool replaces a cut one), a few times if need be; the next attempt asks the provider first
 * (`perform`), so it never moves money twice. If even that fails, the lease ends the claim.
 */
async function orReleaseClaim(deps: PaymentStepDeps, step: queries.StepRow, write: () => Promise<void>) {
  try {
    await write();
  } catch (error) {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await queries.releaseClaim(deps.db, step.id, step.attempts);
        break;
      } catch (releaseError) {
        if (attempt === 3) {
          deps.log?.error({ err: releaseError, stepId: step.id }, 'payment step claim not released');
        } else await sleep(50 * attempt);
      }
    }
    throw error;
  }
}

async function complete(deps: PaymentStepDeps, step: queries.StepRow, providerRef: string | null) {
  await transaction(deps.db, async (tx) => {
    const done = await queries.finishStep(tx, step.id, providerRef);
    if (done) await applySuccess(tx, done, providerRef);
    // The card is held now: the booking's six days of a hold run from here (decision 057).
    if (done?.kind === 'authorise' && done.reservationId) {
      await queries.markAuthorised(tx, done.reservationId, new Date());
    }
  });
}

/**
 * The bank refused the off-session authorisation: the step waits, the booking records why and by
 * when the borrower fixes it, and the borrower is told (bell and e-mail) with a link to the booking.
 */
async function waitForBorrower(deps: PaymentStepDeps, step: queries.StepRow, refused: OffSessionRefused) {
  await transaction(deps.db, async (tx) => {
    const waiting = await queries.waitForBorrower(tx, step.id, refused.message);
    if (!waiting?.reservationId) return;
    const card = await queries.offSessionCardOf(tx, waiting.reservationId);
    const parties = await queries.reservationParties(tx, waiting.reservationId);
    if (!card || !parties) return;
    const fixBy = cardFixBy(new Date(), card.startDate, deps.timeZone ?? 'UTC');
    await queries.markCardProblem(tx, waiting.reservationId, refused.problem, fixBy);
    const item = parties.title;
    const authenticate = refused.problem === 'authentication_required';
    await notificationService.notify(tx, {
      userId: parties.borrowerId,
      type: 'system',
      text: () => {
        const by = campusMomentWritten(fixBy, deps.timeZone ?? 'UTC');
        return authenticate
          ? {
              title: msg`Confirm your card`,
              message: msg`Your bank asks you to confirm the payment for ${item}. Please confirm it, or give another card, by ${by}, or the booking is cancelled.`,
            }
          : {
              title: msg`Your card was declined`,
              message: msg`Your card was declined for ${item}. Please give another card by ${by}, or the booking is cancelled.`,
            };
      },
      relatedReservationId: waiting.reservationId,
      relatedItemId: parties.itemId,
    });
  });
}

/** Once the transaction that queued a step commits, this process runs it now (the ledger's, re-exported). */
export { wakeRunnerAfterCommit };

export const paymentStepService = {
  /** What a checkout authorised, as asked of the provider: a request must match it. */
  recordIntent: (db: Db, values: Parameters<typeof queries.insertIntent>[1]) =>
    queries.insertIntent(db, values),

  /** The recorded intent, locked for the rest of the transaction (a request taking it, or the sweeper). */
  lockIntent: (tx: Db, id: string) => queries.lockIntent(tx, id),

  /** An extension's authorisation taken by its request (decision 031): used, with no reservation of its own. */
  markExtensionIntentUsed: (tx: Db, id: string) => queries.markIntentUsedByExtension(tx, id),

  findIntent: (db: Db, id: string) => queries.findIntent(db, id),

  releaseAbandoned,
  resendStuck,
  reconcile,
  providerReported,

  /**
   * Runs the intent's steps in order until none is left, one fails, or another runner holds one.
   * `lastTry`: the job queue will not call again, so a step that fails now fails for good.
   * Throws when a step should be tried again later (the job queue retries with backoff).
   */
  async runIntent(deps: PaymentStepDeps, paymentIntentId: string, lastTry = false): Promise<void> {
    for (let guard = 0; guard < 50; guard++) {
      const next = await queries.firstUnfinishedStep(deps.db, paymentIntentId);
      // Nothing left, or a step waits for a moderator or the borrower: the later ones wait behind it.
      if (!next || next.status === 'failed' || next.status === 'waiting') return;
      // Due later (an off-session authorisation close to the start): its time's round runs it.
      if (next.status === 'pending' && next.notBefore && next.notBefore > new Date()) return;
      const step = await queries.claimStep(deps.db, next.id, deps.payment.stepLeaseMs);
      if (!step) throw new StepBusyError(`step ${next.id} is being run elsewhere`);
      let providerRef: string | null;
      try {
        providerRef = await perform(deps, step);
      } catch (error) {
        if (error instanceof OffSessionRefused) {
          await orReleaseClaim(deps, step, () => waitForBorrower(deps, step, error));
          return;
        }
        const message = describe(error);
        const final = isPermanent(error) || lastTry || step.attempts > deps.payment.retryLimit;
        deps.metrics?.stepFailed(step.kind as PaymentStepKind, final);
        if (final) {
          await orReleaseClaim(deps, step, () => markFailedForGood(deps, step, message));
          return;
        }
        await orReleaseClaim(deps, step, async () => {
          await queries.recordFailure(deps.db, step.id, message, false);
        });
        throw error;
      }
      await orReleaseClaim(deps, step, () => complete(deps, step, providerRef));
    }
  },

  /**
   * Runs every step that is waiting now, in this process (tests; the sweeper for steps whose job was
   * lost). Errors are logged: the steps stay in the outbox for their retries.
   */
  async drain(deps: PaymentStepDeps): Promise<void> {
    for (const intentId of await queries.intentsWithRunnableSteps(deps.db, 500)) {
      try {
        await paymentStepService.runIntent(deps, intentId);
      } catch (error) {
        if (!(error instanceof StepBusyError))
          deps.log?.warn?.({ err: error, intentId }, 'payment step will be retried');
      }
    }
  },

  /**
   * Off-session authorisations that have come due (decision 062), run now: each round of the timed
   * jobs. Errors are logged; a step that failed stays in the outbox for its retries.
   */
  async authoriseDue(deps: PaymentStepDeps, now = new Date()): Promise<number> {
    const due = await queries.dueAuthorisations(deps.db, now, 200);
    for (const intentId of due) {
      try {
        await paymentStepService.runIntent(deps, intentId);
      } catch (error) {
        if (!(error instanceof StepBusyError))
          deps.log?.warn?.({ err: error, intentId }, 'off-session authorisation will be retried');
      }
    }
    return due.length;
  },

  /**
   * The borrower fixed the card (authenticated, or gave another that was authorised): the waiting
   * authorisation step runs again, finds the intent authorised, and the steps behind it follow.
   * Inside the caller's transaction; answers whether a step was waiting.
   */
  async resumeAuthorisation(tx: Db, jobs: JobQueue, paymentIntentId: string): Promise<boolean> {
    if (!(await queries.reopenWaiting(tx, paymentIntentId))) return false;
    await jobs.send(tx, QUEUES.paymentSteps, { paymentIntentId });
    wakeRunnerAfterCommit(tx, jobs);
    return true;
  },

  /** Unfinished steps by status: pending, running, failed (GET /metrics). */
  unfinishedCounts: (db: Db) => queries.countUnfinishedSteps(db),

  /** Reconciliation findings still open (GET /metrics). */
  openMismatchCount: (db: Db) => queries.countOpenMismatches(db),

  /**
   * Moderators' view: steps that failed for good or are failing now, and open reconciliation findings,
   * but for those of a reservation the moderator lent or borrowed in (the other moderators see those).
   */
  async attention(
    deps: Pick<PaymentStepDeps, 'db' | 'adminEmails'>,
    moderatorId: string,
  ): Promise<AdminPayments> {
    const { db } = deps;
    const isParty = (row: { borrowerId: string | null; lenderId: string | null }) =>
      row.borrowerId === moderatorId || row.lenderId === moderatorId;
    const allSteps = await queries.stepsNeedingAttention(db, 200);
    const allMismatches = await queries.openMismatches(db, 200);
    const steps = allSteps.filter((row) => !isParty(row));
    const mismatches = allMismatches.filter((row) => !isParty(row));
    const withheld = allSteps.length - steps.length + allMismatches.length - mismatches.length;
    return {
      ownCases: await moderationService.ownCases(db, deps.adminEmails ?? [], moderatorId, withheld),
      steps: steps.map(({ step, itemTitle, borrowerName, lenderName }) => ({
        id: step.id,
        paymentIntentId: step.paymentIntentId,
        reservationId: step.reservationId,
        kind: step.kind as PaymentStepKind,
        purpose: step.purpose as PaymentStepPurpose,
        status: step.status as PaymentStepStatus,
        amount: centsToDecimal(step.amountCents)!,
        attempts: step.attempts,
        lastError: step.lastError,
        itemTitle,
        borrowerName,
        lenderName,
        createdAt: step.createdAt.toISOString(),
        updatedAt: step.updatedAt.toISOString(),
      })),
      mismatches: mismatches.map(({ mismatch, itemTitle }) => ({
        id: mismatch.id,
        paymentIntentId: mismatch.paymentIntentId,
        reservationId: mismatch.reservationId,
        itemTitle,
        billingNet: signedDecimal(mismatch.billingNetCents),
        providerNet: signedDecimal(mismatch.providerNetCents),
        detectedAt: mismatch.detectedAt.toISOString(),
      })),
    };
  },

  /** A moderator's retry of a step that failed for good: it goes back to the queue with fresh retries. */
  async retry(deps: PaymentStepDeps, moderatorId: string, stepId: string): Promise<void> {
    const step = await queries.findStep(deps.db, stepId);
    const parties = step?.reservationId
      ? await queries.reservationParties(deps.db, step.reservationId)
      : undefined;
    moderationService.refuseOwnCase(moderatorId, [parties?.borrowerId, parties?.providerId]);
    const retried = await transaction(deps.db, async (tx) => {
      const step = await queries.reopenFailed(tx, stepId);
      if (step) {
        await deps.jobs.send(tx, QUEUES.paymentSteps, { paymentIntentId: step.paymentIntentId });
        wakeRunnerAfterCommit(tx, deps.jobs);
      }
      return Boolean(step);
    });
    if (!retried) {
      if (!(await queries.findStep(deps.db, stepId))) throw notFound(msg`Payment step not found.`);
      throw conflict(msg`Only a step that failed can be retried.`, 'STEP_NOT_FAILED');
    }
  },

  /** A moderator closes a reconciliation finding, saying what was done. */
  async resolveMismatch(db: Db, moderatorId: string, id: string, note: string): Promise<void> {
    const parties = await queries.mismatchParties(db, id);
    moderationService.refuseOwnCase(moderatorId, [parties?.borrowerId, parties?.lenderId]);
    if (!(await queries.resolveMismatch(db, id, moderatorId, note))) {
      throw notFound(msg`Finding not found, or already resolved.`);
    }
  },
};

/** -1250 → "-12.50": a billing net can be negative only by mistake, which is what a finding shows. */
function signedDecimal(cents: number): string {
  return `${cents < 0 ? '-' : ''}${centsToDecimal(Math.abs(cents))}`;
}
