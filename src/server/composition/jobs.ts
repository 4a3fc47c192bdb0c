import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Mailer } from '../adapters/mail/mailer.ts';
import type { PaymentProvider } from '../adapters/payments/provider.ts';
import { TestPaymentProvider } from '../adapters/payments/test-provider.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { sendDigests } from '../features/asks/digest.ts';
import { askService } from '../features/asks/service.ts';
import type { PushSender } from '../features/deliveries/push-sender.ts';
import { deliveryService } from '../features/deliveries/service.ts';
import { sendReceipts } from '../features/ledger/receipts.ts';
import {
  type PaymentStepDeps,
  paymentStepService,
  StepBusyError,
} from '../features/payment-steps/service.ts';
import { TransferBusyError, transferService } from '../features/payouts/transfers.ts';
import { reminderService } from '../features/reminders/service.ts';
import { extensionService, reservationService } from '../features/reservations/service.ts';
import { reviewService } from '../features/reviews/service.ts';
import { savedSearchService } from '../features/saved-searches/service.ts';
import { waitlistService } from '../features/waitlist/service.ts';
import { idempotencyService } from '../http/idempotency-keys.ts';
import { withJobLock } from '../jobs/job-lock.ts';
import { type JobQueue, QUEUES } from '../jobs/queue.ts';
import type { Metrics } from '../metrics/metrics.ts';

// Background jobs. The payment steps are the durable queue's (jobs/queue.ts): each is taken by one
// instance, retried with backoff. The rest run on a timer; several server instances may run them on
// one PostgreSQL, so a session-level advisory lock lets one instance at a time do each job, the
// others skip that round (jobs/job-lock.ts). Every log line of a job carries `job` (its name) and
// `jobId` (pg-boss's id, the same on each attempt; a new id for each round of a timed job), as a
// request's lines carry `reqId`.

const JOB_LOCKS = {
  expireReservations: 72_061_002,
  revealedReviewBadges: 72_061_003,
  paymentUpkeep: 72_061_004,
  reminders: 72_061_006,
  waitlist: 72_061_007,
  releaseDeposits: 72_061_008,
  deliveries: 72_061_009,
  forgetDeliveries: 72_061_010,
  forgetIdempotencyKeys: 72_061_039,
  askDigests: 72_061_066,
} as const;

/** A payment step left pending this long without running had its job lost: it is sent again. */
const STUCK_STEP_MS = 10 * 60 * 1000;

/** How long after a start the first round of timed jobs waits. */
const FIRST_ROUND_DELAY_MS = 5000;

/** After a start, the badge job looks this far back for reviews that began to show meanwhile. */
const REVEAL_CATCH_UP_MS = 7 * 24 * 60 * 60 * 1000;

export default fp(
  async function jobs(
    app: FastifyInstance,
    opts: {
      database: Database;
      config: Config;
      payments: PaymentProvider;
      jobs: JobQueue;
      metrics?: Metrics;
      clock: Clock;
      mailer: Mailer;
      push: PushSender | null;
    },
  ) {
    if (!opts.config.jobs.enabled) return;
    /** A timed job's round: its own id, so its lines can be told from the last round's. */
    const roundLog = (job: string) => app.log.child({ job, jobId: randomUUID() });
    const deps = {
      db: opts.database.db,
      payments: opts.payments,
      jobs: opts.jobs,
      timeZone: opts.config.campusTimeZone,
      fees: opts.config.fees,
    };
    const stepDeps = (log: PaymentStepDeps['log']): PaymentStepDeps => ({
      db: opts.database.db,
      payments: opts.payments,
      jobs: opts.jobs,
      payment: opts.config.payments,
      log,
      metrics: opts.metrics,
      timeZone: opts.config.campusTimeZone,
    });
    // Transfers to lenders (decision 056) and their reversals (decision 061).
    const transferDeps = {
      db: opts.database.db,
      payments: opts.payments,
      jobs: opts.jobs,
      timeZone: opts.config.campusTimeZone,
      mostAnEarlyReturnTakes: reservationService.mostAnEarlyReturnTakes,
      leaseMs: opts.config.payments.stepLeaseMs,
      now: () => opts.clock.now(),
    };
    await opts.jobs.work<{ paymentIntentId: string }>(QUEUES.paymentSteps, async (job) => {
      const log = app.log.child({ job: QUEUES.paymentSteps, jobId: job.id });
      try {
        await paymentStepService.runIntent(
          stepDeps(log),
          job.data.paymentIntentId,
          job.retryCount >= job.retryLimit,
        );
        // A refund of a paid booking takes back what the lender was sent of it (decision 061); a failure
        // here is left to the upkeep round, which finds the booking keeping too much.
        await transferService
          .afterPaymentSteps(transferDeps, job.data.paymentIntentId)
          .catch((error: unknown) => log.warn({ err: error }, 'a reversal waits for the upkeep round'));
        // The receipts the steps just made owed (decision 058); one not sent now waits for the next round.
        await sendReceipts({ db: opts.database.db, mailer: opts.mailer, log }).catch((error: unknown) =>
          log.warn({ err: error }, 'receipts will be sent on a later round'),
        );
      } catch (error) {
        if (!(error instanceof StepBusyError)) {
          opts.metrics?.jobFailed(QUEUES.paymentSteps);
          log.warn(
            { err: error, data: job.data, retryCount: job.retryCount },
            'payment step will be retried',
          );
        }
        throw error;
      }
    });
    // Decision 037: a deleted account's customer at the card provider, forgotten after the deletion's
    // commit; pg-boss retries a failure with backoff, and a job that keeps failing ends `failed` (logged,
    // counted), never holding the deletion back.
    await opts.jobs.work<{ customerId: string }>(QUEUES.forgetCustomers, async (job) => {
      const log = app.log.child({ job: QUEUES.forgetCustomers, jobId: job.id });
      try {
        await opts.payments.forgetCustomer(job.data.customerId);
        log.info({ customerId: job.data.customerId }, 'forgot a deleted account’s customer at the provider');
      } catch (error) {
        opts.metrics?.jobFailed(QUEUES.forgetCustomers);
        log.warn({ err: error, retryCount: job.retryCount }, 'forgetting a customer will be retried');
        throw error;
      }
    });
    // Transfers to lenders (decision 056): one job per transfer, retried with backoff; the last attempt's
    // failure leaves the row failed for a moderator.
    // The same queue takes a booking's reversals (decision 061): { reservationId, lenderId }.
    await opts.jobs.work<{ transferId: string } | { reservationId: string; lenderId: string }>(
      QUEUES.payoutTransfers,
      async (job) => {
        const log = app.log.child({ job: QUEUES.payoutTransfers, jobId: job.id });
        try {
          if ('transferId' in job.data) {
            await transferService.run(transferDeps, job.data.transferId, job.retryCount >= job.retryLimit);
          } else {
            await transferService.reconcileBooking(
              transferDeps,
              job.data.reservationId,
              job.data.lenderId,
              job.retryCount >= job.retryLimit,
            );
          }
        } catch (error) {
          if (!(error instanceof TransferBusyError)) {
            opts.metrics?.jobFailed(QUEUES.payoutTransfers);
            log.warn({ err: error, data: job.data, retryCount: job.retryCount }, 'transfer will be retried');
          }
          throw error;
        }
      },
    );
    // New listings against the saved searches of their campus (decision 067), one job per listing,
    // retried with backoff; what was told is recorded with the telling, so a retry tells nobody twice.
    const matchDeps = {
      db: opts.database.db,
      batchMs: opts.config.savedSearches.batchMs,
      now: () => opts.clock.now(),
    };
    await opts.jobs.work<{ itemId: string }>(QUEUES.savedSearchMatches, async (job) => {
      const log = app.log.child({ job: QUEUES.savedSearchMatches, jobId: job.id });
      try {
        const told = await savedSearchService.matchListing(matchDeps, job.data.itemId);
        if (told) log.info({ itemId: job.data.itemId, told }, 'told saved searches of a new listing');
      } catch (error) {
        opts.metrics?.jobFailed(QUEUES.savedSearchMatches);
        log.warn({ err: error, data: job.data, retryCount: job.retryCount }, 'matching will be retried');
        throw error;
      }
    });
    // A new ask's matching lenders are told off the request (features/asks); told once each, so a retry
    // repeats nobody.
    await opts.jobs.work<{ askId: string }>(QUEUES.askMatches, async (job) => {
      const log = app.log.child({ job: QUEUES.askMatches, jobId: job.id });
      try {
        const told = await askService.tellMatches(
          { db: deps.db, clock: opts.clock, timeZone: deps.timeZone },
          job.data.askId,
        );
        if (told)
          log.info({ told, askId: job.data.askId }, 'told lenders of an ask that matches their listings');
      } catch (error) {
        opts.metrics?.jobFailed(QUEUES.askMatches);
        log.warn(
          { err: error, data: job.data, retryCount: job.retryCount },
          'telling lenders of an ask will be retried',
        );
        throw error;
      }
    });
    // The evening's digest of the campus's asks, once a day per person (features/asks/digest.ts).
    const askDigests = async (log: FastifyBaseLogger) => {
      const sent = await sendDigests({
        db: deps.db,
        mailer: opts.mailer,
        clock: opts.clock,
        timeZone: deps.timeZone,
        appUrl: opts.config.appUrl,
      });
      if (sent) log.info({ sent }, 'sent the daily digests of asks');
    };
    // The built-in provider's stand-in for Stripe's daily automatic payouts (decision 061): once a UTC
    // day, each lender's available balance goes to their (pretend) bank, announced as payout events.
    let paidOutOn = '';
    const paymentUpkeep = async (log: FastifyBaseLogger) => {
      // Transfers whose time came (after pickup's delay), or left by a lost job, or frozen until now.
      const due = await transferService.sendDue(transferDeps);
      if (due) log.info({ due }, 'sent the jobs of transfers that are due');
      const today = opts.clock.now().toISOString().slice(0, 10);
      if (opts.payments instanceof TestPaymentProvider && paidOutOn !== today) {
        const payouts = await opts.payments.payOutBalances(opts.clock.now());
        paidOutOn = today;
        if (payouts.length) log.info({ payouts: payouts.length }, 'paid lenders’ balances to their banks');
      }
      const upkeepDeps = stepDeps(log);
      const released = await paymentStepService.releaseAbandoned(
        upkeepDeps,
        opts.config.payments.abandonedAfterMs,
      );
      if (released) log.info({ released }, 'released card authorisations no request used');
      const resent = await paymentStepService.resendStuck(upkeepDeps, STUCK_STEP_MS);
      if (resent) log.warn({ resent }, 'sent payment steps whose job was lost again');
      const { checked, mismatched } = await paymentStepService.reconcile(upkeepDeps);
      if (mismatched) log.error({ checked, mismatched }, 'billing rows and the provider disagree');
      // Receipts the mailer refused before: tried again each round.
      await sendReceipts({ db: opts.database.db, mailer: opts.mailer, log });
    };
    let running: Promise<unknown> | null = null;
    // Reviews that start to show when their waiting time runs out may complete a 'top_rated' badge;
    // each round looks at the span since the last one (awarding twice is impossible, so overlap is fine).
    let revealedThrough = new Date(Date.now() - REVEAL_CATCH_UP_MS);
    const awardRevealedReviewBadges = async (log: FastifyBaseLogger) => {
      const now = new Date();
      // The caches keep a list, an item page or a profile until a change is announced to it: a review
      // revealed by time is announced here. Only reveals since the oldest answer kept anywhere can
      // have made one stale (a first round would otherwise announce a week of them at once).
      const keptSince = new Date(now.getTime() - opts.config.readCacheAnnouncedMs);
      await reviewService.announceRevealedByTime(
        deps.db,
        revealedThrough > keptSince ? revealedThrough : keptSince,
        now,
      );
      const awarded = await reviewService.awardRevealedByTime(deps.db, revealedThrough, now);
      revealedThrough = now;
      if (awarded) log.info({ awarded }, 'awarded badges for reviews revealed by time');
    };
    // Pickup, return and last-call reminders, by the campus clock (features/reminders).
    const sendReminders = async (log: FastifyBaseLogger) => {
      const sent = await reminderService.sendDue({
        db: deps.db,
        clock: opts.clock,
        timeZone: deps.timeZone,
        expiryHours: opts.config.jobs.reservationExpiryHours,
      });
      if (sent) log.info({ sent }, 'sent reminders');
      // Lenders of requests for more days that lapse within half a day (decision 057).
      const lapsing = await extensionService.remindLapsing({ ...deps, clock: opts.clock });
      if (lapsing) log.info({ lapsing }, 'reminded lenders of requests for more days that lapse soon');
    };
    // Past dates leave the waitlist; the next in line hears of dates still free after
    // the first one's head start (features/waitlist).
    const waitlistRound = async (log: FastifyBaseLogger) => {
      const { dropped, told } = await waitlistService.runRound({
        db: deps.db,
        clock: opts.clock,
        timeZone: deps.timeZone,
      });
      if (dropped || told) log.info({ dropped, told }, 'waitlist round');
    };
    // Returns the lender did not answer within 48 hours release their deposits, by the same
    // clock as the reminders (tests move it). The state is in the reservation rows, so a round missed
    // while the server was down is made up by the next one.
    const releaseDeposits = async (log: FastifyBaseLogger) => {
      const released = await reservationService.releaseUnansweredReturns({ ...deps, clock: opts.clock, log });
      if (released) log.info({ released }, 'released deposits of returns the lender did not answer');
    };
    // Finished e-mail and push deliveries past their keeping time (decision 032) leave the outbox.
    const forgetDeliveries = async (log: FastifyBaseLogger) => {
      const forgotten = await deliveryService.forgetFinished({ db: deps.db, clock: opts.clock });
      if (forgotten) log.info({ forgotten }, 'forgot finished deliveries');
    };
    // Idempotency keys and their answers past their 24 hours (decision 039).
    const forgetIdempotencyKeys = async (log: FastifyBaseLogger) => {
      const forgotten = await idempotencyService.forgetExpired(deps.db, opts.clock.now());
      if (forgotten) log.info({ forgotten }, 'forgot expired idempotency keys');
    };
    const tick = () => {
      if (running) return;
      const keysLog = roundLog('forget-idempotency-keys');
      const forgetLog = roundLog('forget-deliveries');
      const depositLog = roundLog('release-deposits');
      const expiryLog = roundLog('expire-reservations');
      const badgeLog = roundLog('revealed-review-badges');
      const upkeepLog = roundLog('payment-upkeep');
      const reminderLog = roundLog('reminders');
      const waitlistLog = roundLog('waitlist');
      const digestLog = roundLog('ask-digests');
      running = withJobLock(opts.database, JOB_LOCKS.expireReservations, async () => {
        const expired = await reservationService.expirePending(
          { ...deps, log: expiryLog },
          opts.config.jobs.reservationExpiryHours,
        );
        if (expired) expiryLog.info({ expired }, 'expired unanswered reservation requests');
        // Requests for more days lapse when the booking's last day is over.
        const lapsed = await extensionService.expirePending(deps);
        if (lapsed) expiryLog.info({ lapsed }, 'expired unanswered requests for more days');
        // Decision 062: bookings far ahead have their saved cards held close to the start; those whose
        // card was refused and not fixed by the deadline end with nothing charged.
        const authorised = await paymentStepService.authoriseDue(stepDeps(expiryLog));
        if (authorised) expiryLog.info({ authorised }, 'held saved cards of bookings that start soon');
        const unpaid = await reservationService.cancelUnfixedCards({ ...deps, log: expiryLog });
        if (unpaid) expiryLog.info({ unpaid }, 'cancelled bookings whose card was not fixed in time');
      })
        .catch((error) => expiryLog.error({ err: error }, 'reservation expiry job failed'))
        .then(() =>
          withJobLock(opts.database, JOB_LOCKS.revealedReviewBadges, () =>
            awardRevealedReviewBadges(badgeLog),
          ),
        )
        .catch((error) => badgeLog.error({ err: error }, 'revealed review badge job failed'))
        .then(() => withJobLock(opts.database, JOB_LOCKS.paymentUpkeep, () => paymentUpkeep(upkeepLog)))
        .catch((error) => upkeepLog.error({ err: error }, 'payment upkeep job failed'))
        .then(() => withJobLock(opts.database, JOB_LOCKS.reminders, () => sendReminders(reminderLog)))
        .catch((error) => reminderLog.error({ err: error }, 'reminder job failed'))
        .then(() => withJobLock(opts.database, JOB_LOCKS.waitlist, () => waitlistRound(waitlistLog)))
        .catch((error) => waitlistLog.error({ err: error }, 'waitlist job failed'))
        .then(() => withJobLock(opts.database, JOB_LOCKS.releaseDeposits, () => releaseDeposits(depositLog)))
        .catch((error) => depositLog.error({ err: error }, 'deposit release job failed'))
        .then(() => withJobLock(opts.database, JOB_LOCKS.forgetDeliveries, () => forgetDeliveries(forgetLog)))
        .catch((error) => forgetLog.error({ err: error }, 'forgetting finished deliveries failed'))
        .then(() =>
          withJobLock(opts.database, JOB_LOCKS.forgetIdempotencyKeys, () => forgetIdempotencyKeys(keysLog)),
        )
        .catch((error) => keysLog.error({ err: error }, 'forgetting expired idempotency keys failed'))
        .then(() => withJobLock(opts.database, JOB_LOCKS.askDigests, () => askDigests(digestLog)))
        .catch((error) => digestLog.error({ err: error }, 'the daily digest of asks failed'))
        .finally(() => {
          running = null;
        });
    };
    const timer = setInterval(tick, opts.config.jobs.intervalMs);
    timer.unref();
    // Notification e-mails and pushes (features/deliveries), on their own shorter timer,
    // so a request's e-mail does not wait for the hourly jobs; one instance at a time.
    let delivering: Promise<unknown> | null = null;
    const deliveryRound = () => {
      if (delivering) return;
      const log = roundLog('deliveries');
      delivering = withJobLock(opts.database, JOB_LOCKS.deliveries, async () => {
        const counts = await deliveryService.runRound({
          db: deps.db,
          mailer: opts.mailer,
          push: opts.push,
          appUrl: opts.config.appUrl,
          clock: opts.clock,
          log,
          metrics: opts.metrics,
        });
        if (counts.sent || counts.retried || counts.failed) log.info(counts, 'delivered notifications');
      })
        .catch((error) => log.error({ err: error }, 'delivery round failed'))
        .finally(() => {
          delivering = null;
        });
    };
    const deliveryTimer = setInterval(deliveryRound, opts.config.deliveryIntervalMs);
    deliveryTimer.unref();
    // The first round a few seconds after the server listens: a start answers its first requests (a load
    // balancer's readiness checks among them) without waiting for it; on the embedded database its
    // queries run on this process's one thread, about a second of a restart's. With inject, which never
    // listens (tests), rounds come from the timer only.
    let firstRound: NodeJS.Timeout | undefined;
    app.addHook('onListen', async () => {
      firstRound = setTimeout(tick, FIRST_ROUND_DELAY_MS);
      firstRound.unref();
    });
    app.addHook('onClose', async () => {
      clearTimeout(firstRound);
      clearInterval(timer);
      clearInterval(deliveryTimer);
      await running;
      await delivering;
    });
  },
  { name: 'jobs' },
);
