import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import pLimit from 'p-limit';
import { MUTATING } from './security.ts';

// A busy server runs every request that has arrived a step at a time, each step after the steps of all
// the others: a write of many steps (a paid request makes 16 round trips to the database over its three
// calls) waited, at each of them, behind the reads in progress, and on a saturated server its latency
// grew with them (decision 084). So only so many reads are worked on at once; the others wait their
// turn, in order of arrival, before any work is done for them. Changing requests are never held: they
// are the ones people wait on, and they are few. A read's place is given back once its answer is ready
// (sending it to a slow phone takes no place), and a read that has waited MAX_WAIT_MS goes ahead
// anyway, so a few slow reads can never hold up the rest. Long-lived reads (the chat's socket) never
// take a place.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Never waits for a place among the reads worked on (a connection that stays open). */
    longLived?: boolean;
  }
}

/** A read waits at most this long for a place, then goes ahead without one. */
export const MAX_WAIT_MS = 250;

export interface ReadAdmissionCounts {
  /** Reads holding a place now. */
  readonly active: number;
  /** Reads waiting for one. */
  readonly waiting: number;
  /** Reads that went ahead without a place, having waited MAX_WAIT_MS, since the start. */
  readonly overdue: number;
}

/**
 * At most `concurrency` reads worked on at once (READ_CONCURRENCY); 0 admits every read at once.
 * Returns the plugin and its counts.
 */
export function readAdmission(concurrency: number, maxWaitMs = MAX_WAIT_MS) {
  const limit = concurrency > 0 ? pLimit(concurrency) : undefined;
  let overdue = 0;
  const counts: ReadAdmissionCounts = {
    get active() {
      return limit?.activeCount ?? 0;
    },
    get waiting() {
      return limit?.pendingCount ?? 0;
    },
    get overdue() {
      return overdue;
    },
  };
  /** Each read's way to give its place back (or, still waiting, to take none), once. */
  const places = new WeakMap<object, () => void>();
  const plugin = fp(
    async function admitReads(app: FastifyInstance) {
      if (!limit) return;
      app.addHook('onRequest', async (request, reply) => {
        if (
          MUTATING.has(request.method) ||
          request.headers.upgrade ||
          request.routeOptions.config?.longLived
        ) {
          return;
        }
        let finished = false;
        let giveBack: (() => void) | undefined;
        const finish = () => {
          finished = true;
          giveBack?.();
        };
        places.set(request, finish);
        // A connection gone before the answer was ready (while waiting, too) ends the read.
        reply.raw.once('close', finish);
        await new Promise<void>((admitted) => {
          const late = setTimeout(() => {
            overdue++;
            finish(); // its place, when it comes, is given back at once
            admitted();
          }, maxWaitMs);
          void limit(
            () =>
              new Promise<void>((done) => {
                clearTimeout(late);
                if (finished) done();
                else giveBack = done;
                admitted();
              }),
          );
        });
      });
      // The answer is ready: sending it is the socket's work.
      app.addHook('onSend', async (request) => {
        places.get(request)?.();
      });
    },
    { name: 'read-admission' },
  );
  return { plugin, counts };
}
