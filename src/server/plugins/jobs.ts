import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PaymentProvider } from '../adapters/payments/provider.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { reservationService } from '../features/reservations/service.ts';
import { reviewService } from '../features/reviews/service.ts';

// Background jobs. Several server instances may run them on one PostgreSQL: a session-level advisory
// lock lets one instance at a time do each job, the others skip that round (ARCHITECTURE §1).

const JOB_LOCKS = { expireReservations: 72_061_002, revealedReviewBadges: 72_061_003 } as const;

/** After a start, the badge job looks this far back for reviews that began to show meanwhile. */
const REVEAL_CATCH_UP_MS = 7 * 24 * 60 * 60 * 1000;

/** Runs `job` unless another instance holds its lock; answers whether it ran. */
export async function withJobLock(
  database: Database,
  lockId: number,
  job: () => Promise<void>,
): Promise<boolean> {
  if (!database.pool) {
    // The embedded database belongs to this one process.
    await job();
    return true;
  }
  const client = await database.pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
      lockId,
    ]);
    if (!rows[0]?.locked) return false;
    try {
      await job();
      return true;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [lockId]);
    }
  } finally {
    client.release();
  }
}

export default fp(
  async function jobs(
    app: FastifyInstance,
    opts: { database: Database; config: Config; payments: PaymentProvider },
  ) {
    if (!opts.config.jobs.enabled) return;
    const deps = {
      db: opts.database.db,
      payments: opts.payments,
      timeZone: opts.config.campusTimeZone,
      log: app.log,
    };
    let running: Promise<unknown> | null = null;
    // Reviews that start to show when their waiting time runs out may complete a 'top_rated' badge;
    // each round looks at the span since the last one (awarding twice is impossible, so overlap is fine).
    let revealedThrough = new Date(Date.now() - REVEAL_CATCH_UP_MS);
    const awardRevealedReviewBadges = async () => {
      const now = new Date();
      const awarded = await reviewService.awardRevealedByTime(deps.db, revealedThrough, now);
      revealedThrough = now;
      if (awarded) app.log.info({ awarded }, 'awarded badges for reviews revealed by time');
    };
    const tick = () => {
      if (running) return;
      running = withJobLock(opts.database, JOB_LOCKS.expireReservations, async () => {
        const expired = await reservationService.expirePending(deps, opts.config.jobs.reservationExpiryHours);
        if (expired) app.log.info({ expired }, 'expired unanswered reservation requests');
      })
        .catch((error) => app.log.error({ err: error }, 'reservation expiry job failed'))
        .then(() => withJobLock(opts.database, JOB_LOCKS.revealedReviewBadges, awardRevealedReviewBadges))
        .catch((error) => app.log.error({ err: error }, 'revealed review badge job failed'))
        .finally(() => {
          running = null;
        });
    };
    const timer = setInterval(tick, opts.config.jobs.intervalMs);
    timer.unref();
    app.addHook('onReady', async () => tick());
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: 'jobs' },
);
