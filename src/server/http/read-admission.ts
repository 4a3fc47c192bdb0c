import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
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

/** A read waiting for its turn. */
interface Waiting {
  /** Its turn came: it is worked on, with a place unless its connection is gone. */
  turn(): void;
  /** It went ahead without a place (waited MAX_WAIT_MS): its turn, when it comes, passes on. */
  wentAhead: boolean;
}

/**
 * At most `concurrency` reads worked on at once (READ_CONCURRENCY); 0 admits every read at once.
 * Returns the plugin and its counts.
 *
 * A read that finds a place free takes it there and then: no timer, no promise, no turn on a later
 * tick. Nearly every read of a campus day finds one (most are answered from the read caches in well
 * under a millisecond), and p-limit, which this replaces, admitted each on a later microtask through
 * two promises and a timer: about 5 % of the server's thread for a remembered answer (decision 090).
 */
export function readAdmission(concurrency: number, maxWaitMs = MAX_WAIT_MS) {
  let active = 0;
  let overdue = 0;
  const queue: Waiting[] = [];
  const counts: ReadAdmissionCounts = {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    get overdue() {
      return overdue;
    },
  };
  /** Hands free places to the reads waiting, in order of arrival. */
  const admitWaiting = () => {
    while (active < concurrency && queue.length > 0) {
      const next = queue.shift()!;
      if (!next.wentAhead) next.turn();
    }
  };
  /** Each read's way to give its place back, once: when its answer is ready or its connection closes. */
  const places = new WeakMap<object, () => void>();
  const holdPlace = (request: FastifyRequest, reply: FastifyReply) => {
    active++;
    let held = true;
    const giveBack = () => {
      if (!held) return;
      held = false;
      active--;
      admitWaiting();
    };
    places.set(request, giveBack);
    reply.raw.once('close', giveBack);
  };
  const plugin = fp(
    async function admitReads(app: FastifyInstance) {
      if (concurrency <= 0) return;
      app.addHook('onRequest', (request, reply, done) => {
        if (
          MUTATING.has(request.method) ||
          request.headers.upgrade ||
          request.routeOptions.config?.longLived
        ) {
          return done();
        }
        if (active < concurrency && queue.length === 0) {
          holdPlace(request, reply);
          return done();
        }
        // A phone that loses its signal while its read waits: the read takes no place when its turn
        // comes (it still runs then, as the others would have before it).
        let connected = true;
        const cut = () => {
          connected = false;
        };
        reply.raw.once('close', cut);
        const waiting: Waiting = {
          wentAhead: false,
          turn() {
            clearTimeout(late);
            reply.raw.off('close', cut);
            if (connected) holdPlace(request, reply);
            // It goes on from a microtask of its own: admitted from inside the hooks of the read that
            // gave its place back, a queue of reads answered at once would nest as deep as it is long.
            void Promise.resolve().then(() => done());
          },
        };
        const late = setTimeout(() => {
          overdue++;
          waiting.wentAhead = true;
          reply.raw.off('close', cut);
          done();
        }, maxWaitMs);
        queue.push(waiting);
      });
      // The answer is ready: sending it is the socket's work.
      app.addHook('onSend', (request, _reply, payload, done) => {
        places.get(request)?.();
        done(null, payload);
      });
    },
    { name: 'read-admission' },
  );
  return { plugin, counts };
}
