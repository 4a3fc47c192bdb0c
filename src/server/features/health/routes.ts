import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { RealtimeHub } from '../../db/realtime-hub.ts';
import { publicRoutes } from '../../http/route-scopes.ts';
import type { JobQueue } from '../../jobs/queue.ts';

// Liveness and readiness, apart: a process whose database is away is alive (restarting it
// would not help, and it recovers by itself), but not ready (a load balancer sends no one to it).

/** Longer than a healthy `select 1` ever takes, short enough for a load balancer's probe. */
const READY_CHECK_TIMEOUT_MS = 2000;

const part = z.enum(['up', 'down']);
const readiness = z.object({
  status: z.enum(['ready', 'unavailable']),
  database: part,
  /** The live events' LISTEN connection: down, the app works but live pushes and read caches pause. */
  hub: part,
  /**
   * The job queue (pg-boss): started and its tables answer. Down, a change that moves money cannot
   * write its payment step's job, so the request would fail.
   */
  jobs: part,
});
const notReady = readiness.extend({ message: z.string(), code: z.literal('NOT_READY') });

/** Whether `check` says yes within the probe's time (a check that hangs is a no). */
async function answersInTime(check: () => Promise<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_CHECK_TIMEOUT_MS);
  });
  try {
    const answered = check().then(
      (result) => result !== false,
      () => false,
    );
    return await Promise.race([answered, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const PART_NAMES = { database: 'the database', hub: 'live events', jobs: 'the job queue' } as const;

export const healthRoutes = publicRoutes<{
  database: Database;
  hub: RealtimeHub;
  jobs: JobQueue;
}>(async (app, { database, hub, jobs }) => {
  // Liveness: the process answers. It asks nothing of the database.
  app.get(
    '/health',
    {
      schema: {
        response: { 200: z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) }) },
      },
    },
    async () => ({ status: 'ok' as const, database: database.kind }),
  );

  // Readiness: the database answers, the live events are heard and the job queue works; 503 naming
  // what is down.
  app.get('/ready', { schema: { response: { 200: readiness, 503: notReady } } }, async (_request, reply) => {
    const [databaseUp, jobsUp] = await Promise.all([
      answersInTime(() => database.db.execute(sql`select 1`)),
      answersInTime(() => jobs.ready()),
    ]);
    const parts = {
      database: databaseUp ? ('up' as const) : ('down' as const),
      hub: hub.status,
      jobs: jobsUp ? ('up' as const) : ('down' as const),
    };
    const down = (Object.keys(PART_NAMES) as (keyof typeof PART_NAMES)[])
      .filter((name) => parts[name] === 'down')
      .map((name) => PART_NAMES[name]);
    if (down.length === 0) return { status: 'ready' as const, ...parts };
    const listed = down.length === 1 ? down[0] : `${down.slice(0, -1).join(', ')} and ${down.at(-1)}`;
    reply.header('retry-after', '1');
    return reply.status(503).send({
      status: 'unavailable' as const,
      ...parts,
      message: `Not ready: ${listed} ${down.length === 1 ? 'is' : 'are'} down.`,
      code: 'NOT_READY' as const,
    });
  });
});
