import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type LaneContext, withLane } from '../db/lanes.ts';
import { MUTATING } from './security.ts';

// Each request runs in a database lane (db/lanes.ts): a changing request on the writing pool from its
// first statement (the session it resumes) to its last (the cache announcement's mark), a catalogue read
// on the replica when one is set, everything else on the reading pool. The lane also counts the
// request's checkouts and its wait for connections, which the answer reports in a Server-Timing header
// (a standard browsers' developer tools show, and what the bench and the tests read).

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A catalogue read (Home, Browse, search, item page): it may be answered from DATABASE_REPLICA_URL. */
    replica?: boolean;
  }
  interface FastifyRequest {
    /** This request's lane and its costs so far. */
    dbLane: LaneContext | null;
  }
}

/**
 * How long after a write its writer's catalogue reads stay on the primary: far above a healthy
 * replica's lag (milliseconds), and what DATABASE_REPLICA_URL's documentation asks the replica to keep.
 */
export const REPLICA_GRACE_MS = 10_000;
/** People remembered as recent writers, oldest forgotten first. */
const MAX_RECENT_WRITERS = 10_000;
/** Per process, like the read caches: who wrote when, in order of their last write. */
const recentWriters = new Map<string, number>();

/** Whether this person changed something within REPLICA_GRACE_MS. */
function wroteLately(userId: string | undefined): boolean {
  const wrote = userId ? recentWriters.get(userId) : undefined;
  return wrote !== undefined && Date.now() - wrote < REPLICA_GRACE_MS;
}

export const dbLanes = fp(
  async function dbLanes(app: FastifyInstance) {
    app.decorateRequest('dbLane', null);
    // A callback hook, so the rest of the request (later hooks, the handler, the answer's hooks) runs
    // inside the lane's async context.
    app.addHook('onRequest', (request, _reply, done) => {
      withLane(MUTATING.has(request.method) ? 'write' : 'read', (context) => {
        request.dbLane = context;
        done();
      });
    });
    // The replica from the handler on, never for the session (a sign-in the replica has not received
    // yet would look signed out), and never for someone who wrote moments ago: their own change
    // may not have reached it, and a writer reads what they wrote (decision 049).
    app.addHook('preHandler', (request, _reply, done) => {
      const lane = request.dbLane;
      if (lane?.lane === 'read' && request.routeOptions.config.replica && !wroteLately(request.user?.id)) {
        lane.lane = 'replica';
      }
      done();
    });
    app.addHook('onResponse', (request, _reply, done) => {
      if (request.dbLane?.lane === 'write' && request.user) {
        recentWriters.delete(request.user.id);
        recentWriters.set(request.user.id, Date.now());
        if (recentWriters.size > MAX_RECENT_WRITERS) {
          const oldest = recentWriters.keys().next().value;
          if (oldest !== undefined) recentWriters.delete(oldest);
        }
      }
      done();
    });
  },
  { name: 'db-lanes' },
);

/**
 * Says in the answer what the request cost the database pools so far:
 * `db;desc="<lane> checkouts=N statements=S";dur=W`, S the statements sent (round trips), W the
 * milliseconds spent waiting for connections; and `app;dur=T`, the milliseconds from the
 * request's arrival to its answer being ready, which tells a client's own delays (a busy load
 * generator) from the server's. Called from the last hook that may use the database before the answer
 * leaves (http/session.ts's onSend).
 */
export function reportDbCost(request: FastifyRequest, reply: FastifyReply) {
  const lane = request.dbLane;
  if (!lane || reply.sent) return;
  reply.header(
    'server-timing',
    `db;desc="${lane.lane} checkouts=${lane.checkouts} statements=${lane.statements}";dur=${lane.waitMs.toFixed(1)}, ` +
      `app;dur=${reply.elapsedTime.toFixed(1)}`,
  );
}

/** A count reportDbCost wrote into a Server-Timing header (`checkouts=N`, `statements=S`). */
function countIn(serverTiming: string | string[] | number | undefined, what: 'checkouts' | 'statements') {
  const match = new RegExp(`\\b${what}=(\\d+)`).exec(String(serverTiming ?? ''));
  return match ? Number(match[1]) : undefined;
}

/** The checkouts a Server-Timing header written by reportDbCost gives (tests, the bench). */
export const checkoutsOf = (serverTiming: string | string[] | number | undefined) =>
  countIn(serverTiming, 'checkouts');

/** The statements a Server-Timing header written by reportDbCost gives (tests, the bench). */
export const statementsOf = (serverTiming: string | string[] | number | undefined) =>
  countIn(serverTiming, 'statements');

/** The server's own milliseconds in a Server-Timing header reportDbCost wrote (`app;dur=T`). */
export function serverMsOf(serverTiming: string | string[] | number | undefined): number | undefined {
  const match = /\bapp;dur=([\d.]+)/.exec(String(serverTiming ?? ''));
  return match ? Number(match[1]) : undefined;
}
