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

export const dbLanes = fp(
  async function dbLanes(app: FastifyInstance) {
    app.decorateRequest('dbLane', null);
    // A callback hook, so the rest of the request (later hooks, the handler, the answer's hooks) runs
    // inside the lane's async context.
    app.addHook('onRequest', (request, _reply, done) => {
      const lane = MUTATING.has(request.method)
        ? 'write'
        : request.routeOptions.config.replica
          ? 'replica'
          : 'read';
      withLane(lane, (context) => {
        request.dbLane = context;
        done();
      });
    });
  },
  { name: 'db-lanes' },
);

/**
 * Says in the answer what the request cost the database pools so far: `db;desc="checkouts=N";dur=W`,
 * W the milliseconds spent waiting for connections. Called from the last hook that may use the
 * database before the answer leaves (http/session.ts's onSend).
 */
export function reportDbCost(request: FastifyRequest, reply: FastifyReply) {
  const lane = request.dbLane;
  if (!lane || reply.sent) return;
  reply.header(
    'server-timing',
    `db;desc="${lane.lane} checkouts=${lane.checkouts}";dur=${lane.waitMs.toFixed(1)}`,
  );
}

/** The checkouts a Server-Timing header written by reportDbCost gives (tests, the bench). */
export function checkoutsOf(serverTiming: string | string[] | number | undefined): number | undefined {
  const match = /checkouts=(\d+)/.exec(String(serverTiming ?? ''));
  return match ? Number(match[1]) : undefined;
}
