import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PaymentStepKind } from '#shared/constants.ts';
import type { ReadCaches } from '../cache/read-caches.ts';
import type { Database } from '../db/client.ts';
import { LIVE_EVENTS_CHANNEL, type RealtimeHub } from '../db/realtime-hub.ts';
import type { JobQueue } from '../jobs/queue.ts';

// What GET /metrics shows (docs/deploy.md, "Observability"), in Prometheus's text
// format through prom-client. One registry per app, never prom-client's global one: tests build
// several apps in one process, and each app's gauges read that app's own pool, hub and caches.
//
// Every label has a bounded set of values: route patterns (never raw URLs), status codes, cache
// names, job and step states. Counts that live in the database (jobs, unfinished payment steps) are
// read at scrape time, so every instance reports the same shared figures: aggregate them with max(),
// not sum().

/** Seconds. From a cached answer (under a millisecond) to a slow upload (seconds). */
const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds. Most statements take under a millisecond on PGlite and a few on PostgreSQL. */
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
const LIVE_EVENT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** How long a scrape waits to hear its own probe come back through the live events. */
const PROBE_TIMEOUT_MS = 1000;
/** The probe's event type: with no people named, the hub hands it to observers and no socket. */
const PROBE_EVENT = 'metricsProbe';
/** The live events the database announces (migration 0006 on): anything else is counted as other. */
const LIVE_EVENT_TYPES = new Set([
  'newMessage',
  'chatUnreadCount',
  'notification',
  'notificationCount',
  'sessionEnded',
]);

export interface Metrics {
  readonly registry: Registry;
  /** One answered HTTP request; `route` is the route's pattern (`/api/items/:id`), never the URL. */
  requestDone(method: string, route: string, statusCode: number, seconds: number): void;
  /** The number of open live sockets (signed-in people's /ws connections) of this process. */
  socketsOpen(count: number): void;
  /** A job's handler threw in this process (the job is retried, or fails for good after its last try). */
  jobFailed(queue: string): void;
  /** For deliveries/service.ts: an e-mail or push attempt failed, `final` when for good. */
  deliveryFailed(channel: string, final: boolean): void;
  /** For payment-steps/service.ts: an attempt of a step failed, `final` when for good. */
  stepFailed(kind: PaymentStepKind, final: boolean): void;
  /** A promise rejected with no one to hear it (main.ts logs it and keeps serving). */
  unhandledRejection(): void;
  /** Stops observing the database, hub and caches (the app closes; the database may outlive it). */
  close(): void;
}

export interface MetricSources {
  database: Database;
  hub: RealtimeHub;
  caches: ReadCaches;
  jobs: JobQueue;
  /** The features' own figures, read at scrape time: the composition passes their services' reads. */
  reads: FeatureReads;
  /** Where a scrape's failed database reads are reported (the scrape still answers, without them). */
  log: { warn(details: object, message: string): void };
  /** The reads worked on and waiting their turn (http/read-admission.ts). */
  admission?: { readonly waiting: number; readonly overdue: number };
}

/** What the features count in the database, for the gauges read at each scrape. */
export interface FeatureReads {
  /** Unfinished payment steps by status: pending, running, failed. */
  unfinishedSteps(): Promise<{ status: string; count: number }[]>;
  /** Reconciliation findings no moderator has closed. */
  openMismatches(): Promise<number>;
  /** Per channel, the deliveries waiting and how late (seconds) the most overdue one is. */
  deliveryBacklog(now: Date): Promise<{ channel: string; pending: number; overdue_seconds: number }[]>;
}

export function createMetrics({
  database,
  hub,
  caches,
  jobs,
  reads,
  log,
  admission,
}: MetricSources): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // Process CPU, memory, heap, event-loop lag, GC, handles: prom-client's standard set.
  collectDefaultMetrics({ register: registry });
  const stops: (() => void)[] = [];

  /** A scrape-time read of the database; on failure its gauge is emptied rather than left stale. */
  const fromDatabase = <G extends Gauge<string>>(what: string, read: (gauge: G) => Promise<void>) =>
    async function (this: G) {
      try {
        this.reset();
        await read(this);
      } catch (error) {
        this.reset();
        log.warn({ err: error, metric: what }, 'metrics: could not read from the database');
      }
    };

  // HTTP ------------------------------------------------------------------------------------------
  const http = new Histogram({
    name: 'campusloop_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });

  // Database --------------------------------------------------------------------------------------
  const queryDuration = new Histogram({
    name: 'campusloop_db_query_duration_seconds',
    help: 'Time from a statement being sent to its answer, measured at the driver (PGlite: including the wait for its one connection).',
    buckets: QUERY_BUCKETS,
    registers,
  });
  const queryErrors = new Counter({
    name: 'campusloop_db_query_errors_total',
    help: 'Statements that failed (refused, or the connection was lost).',
    registers,
  });
  stops.push(
    database.queries.observe((seconds, failed) => {
      queryDuration.observe(seconds);
      if (failed) queryErrors.inc();
    }),
  );
  new Gauge({
    name: 'campusloop_db_queries_in_flight',
    help: 'Statements sent and not yet answered (PGlite, which runs one at a time: running or waiting their turn).',
    registers,
    collect() {
      this.set(database.queries.inFlight);
    },
  });
  if (admission) {
    new Gauge({
      name: 'campusloop_reads_waiting',
      help: 'Reads waiting for their turn to be worked on (READ_CONCURRENCY).',
      registers,
      collect() {
        this.set(admission.waiting);
      },
    });
    new Gauge({
      name: 'campusloop_reads_overdue_total',
      help: 'Reads that went ahead without a turn, having waited the longest a read waits, since the start.',
      registers,
      collect() {
        this.set(admission.overdue);
      },
    });
  }
  // Per pool (read, write, replica; PGlite: embedded), counted where connections are taken (db/client.ts).
  new Counter({
    name: 'campusloop_db_pool_checkouts_total',
    help: 'Connections taken from each pool: one per statement outside a transaction, one per transaction.',
    labelNames: ['pool'] as const,
    registers,
    collect() {
      this.reset();
      for (const [name, use] of Object.entries(database.poolUse)) this.inc({ pool: name }, use.checkouts);
    },
  });
  new Counter({
    name: 'campusloop_db_pool_wait_seconds_total',
    help: 'Time spent waiting for a free connection of each pool, summed over its checkouts.',
    labelNames: ['pool'] as const,
    registers,
    collect() {
      this.reset();
      for (const [name, use] of Object.entries(database.poolUse)) this.inc({ pool: name }, use.waitSeconds);
    },
  });
  const pool = database.pool;
  if (pool) {
    // node-postgres's own counts. The embedded database has no pool, so these are absent there.
    new Gauge({
      name: 'campusloop_db_pool_connections',
      help: 'Connections the PostgreSQL pool holds (busy and idle).',
      registers,
      collect() {
        this.set(pool.totalCount);
      },
    });
    new Gauge({
      name: 'campusloop_db_pool_idle_connections',
      help: 'Connections of the PostgreSQL pool that no query is using.',
      registers,
      collect() {
        this.set(pool.idleCount);
      },
    });
    new Gauge({
      name: 'campusloop_db_pool_waiting_requests',
      help: 'Queries waiting for a connection of the PostgreSQL pool (all are busy).',
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
    new Gauge({
      name: 'campusloop_db_pool_max_connections',
      help: 'The most connections the PostgreSQL pool may open.',
      registers,
      collect() {
        this.set(pool.options.max ?? 10);
      },
    });
  }

  // Live events and sockets -----------------------------------------------------------------------
  const sockets = new Gauge({
    name: 'campusloop_websockets_open',
    help: "Signed-in people's live sockets (/ws) open on this process.",
    registers,
  });
  new Gauge({
    name: 'campusloop_live_events_listening',
    help: "1 while the hub hears the database's announcements, 0 while its connection is lost (GET /api/ready says hub: down).",
    registers,
    collect() {
      this.set(hub.status === 'up' ? 1 : 0);
    },
  });
  const liveEvents = new Counter({
    name: 'campusloop_live_events_total',
    help: 'Live events the hub heard from the database, by type.',
    labelNames: ['type'] as const,
    registers,
  });
  const probesLost = new Counter({
    name: 'campusloop_live_event_probes_lost_total',
    help: `Scrape probes the hub did not hear back within ${PROBE_TIMEOUT_MS} ms (its connection lost, or the database slow).`,
    registers,
  });
  // The live events carry no time of their own, so each scrape sends one probe down the same road: a
  // NOTIFY on the live events' channel, heard by the hub's LISTEN (another connection on PostgreSQL)
  // and handed to its observers. Its round trip is the delay every live event has on its way to the
  // sockets. Other instances hear it too and ignore it (not their id).
  const probes = new Map<string, () => void>();
  stops.push(
    hub.observeEvents((_people, event) => {
      if (event.type === PROBE_EVENT) {
        if (typeof event.probe === 'string') probes.get(event.probe)?.();
        return;
      }
      liveEvents.inc({ type: LIVE_EVENT_TYPES.has(event.type) ? event.type : 'other' });
    }),
  );
  new Histogram({
    name: 'campusloop_live_event_delay_seconds',
    help: 'Round trip of a probe sent at each scrape: from its NOTIFY to the hub handing it on, as every live event travels.',
    buckets: LIVE_EVENT_BUCKETS,
    registers,
    async collect() {
      const id = randomUUID();
      const started = performance.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const heard = new Promise<boolean>((resolve) => {
        probes.set(id, () => resolve(true));
        timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
      });
      try {
        const payload = JSON.stringify({ userIds: [], event: { type: PROBE_EVENT, probe: id } });
        await database.db.execute(sql`select pg_notify(${LIVE_EVENTS_CHANNEL}, ${payload})`);
        if (await heard) this.observe((performance.now() - started) / 1000);
        else probesLost.inc();
      } catch (error) {
        probesLost.inc();
        log.warn({ err: error }, 'metrics: the live events probe could not be sent');
      } finally {
        clearTimeout(timer);
        probes.delete(id);
      }
    },
  });

  // Read caches -----------------------------------------------------------------------------------
  const hits = new Counter({
    name: 'campusloop_cache_hits_total',
    help: 'Read cache lookups answered without asking the database (stored, or joining a computation under way), by cache.',
    labelNames: ['cache'] as const,
    registers,
  });
  const misses = new Counter({
    name: 'campusloop_cache_misses_total',
    help: 'Read cache lookups that computed the answer (the cache off or paused included), by cache.',
    labelNames: ['cache'] as const,
    registers,
  });
  for (const [name, cache] of Object.entries(caches) as [string, ReadCaches[keyof ReadCaches]][]) {
    // Zero from the start, so a ratio exists before the first lookup.
    hits.inc({ cache: name }, 0);
    misses.inc({ cache: name }, 0);
    cache.observeLookups((hit) => (hit ? hits : misses).inc({ cache: name }));
  }
  new Gauge({
    name: 'campusloop_cache_entries',
    help: 'Answers a read cache holds now, by cache.',
    labelNames: ['cache'] as const,
    registers,
    collect() {
      for (const [name, cache] of Object.entries(caches)) this.set({ cache: name }, cache.size);
    },
  });
  new Gauge({
    name: 'campusloop_cache_bytes',
    help: 'Bytes the answers of a read cache bounded by size hold now (0 for one bounded by count; READ_CACHE_MEGABYTES bounds the catalogue), by cache.',
    labelNames: ['cache'] as const,
    registers,
    collect() {
      for (const [name, cache] of Object.entries(caches)) this.set({ cache: name }, cache.bytes);
    },
  });

  // Jobs and payment steps ------------------------------------------------------------------------
  new Gauge({
    name: 'campusloop_jobs',
    help: "Jobs in pg-boss's table by queue and state: created and retry are waiting, active running; completed and failed are recent (until archived).",
    labelNames: ['queue', 'state'] as const,
    registers,
    collect: fromDatabase('campusloop_jobs', async (gauge) => {
      for (const row of await jobs.counts()) gauge.set({ queue: row.queue, state: row.state }, row.count);
    }),
  });
  const jobFailures = new Counter({
    name: 'campusloop_job_failures_total',
    help: 'Job attempts whose handler threw in this process, by queue (retried later, or failed for good).',
    labelNames: ['queue'] as const,
    registers,
  });
  new Gauge({
    name: 'campusloop_payment_steps',
    help: 'Unfinished payment steps by status: pending and running are on their way; failed ones wait for a moderator (/admin/payments).',
    labelNames: ['status'] as const,
    registers,
    collect: fromDatabase('campusloop_payment_steps', async (gauge) => {
      const counts = await reads.unfinishedSteps();
      // Every status present, so an alert on failed > 0 sees a zero rather than no series.
      for (const status of ['pending', 'running', 'failed']) gauge.set({ status }, 0);
      for (const row of counts) gauge.set({ status: row.status }, row.count);
    }),
  });
  new Gauge({
    name: 'campusloop_payment_mismatches_open',
    help: 'Reconciliation findings (billing rows and the provider disagree) no moderator has closed.',
    registers,
    collect: fromDatabase('campusloop_payment_mismatches_open', async (gauge) => {
      gauge.set(await reads.openMismatches());
    }),
  });
  const stepFailures = new Counter({
    name: 'campusloop_payment_step_failures_total',
    help: 'Failed attempts of payment steps by kind and outcome: retry (tried again later) or failed (for good).',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });

  // E-mail and push deliveries (decision 032) -----------------------------------------------------
  const CHANNELS = ['email', 'push'];
  // Both gauges come from one read: a scrape collects them at once, so they share the read in flight.
  let backlogRead: ReturnType<FeatureReads['deliveryBacklog']> | null = null;
  const backlog = () =>
    (backlogRead ??= reads.deliveryBacklog(new Date()).finally(() => {
      backlogRead = null;
    }));
  new Gauge({
    name: 'campusloop_deliveries_pending',
    help: 'Notification e-mails and pushes waiting to be sent (due now, or later after a failure), by channel.',
    labelNames: ['channel'] as const,
    registers,
    collect: fromDatabase('campusloop_deliveries_pending', async (gauge) => {
      for (const channel of CHANNELS) gauge.set({ channel }, 0);
      for (const row of await backlog()) gauge.set({ channel: row.channel }, row.pending);
    }),
  });
  new Gauge({
    name: 'campusloop_delivery_overdue_seconds',
    help: 'How long the most overdue waiting delivery is past its time, by channel (0: none is due). Grows when rounds stop running or the mail server or push service keeps failing.',
    labelNames: ['channel'] as const,
    registers,
    collect: fromDatabase('campusloop_delivery_overdue_seconds', async (gauge) => {
      for (const channel of CHANNELS) gauge.set({ channel }, 0);
      for (const row of await backlog()) gauge.set({ channel: row.channel }, row.overdue_seconds);
    }),
  });
  const deliveryFailures = new Counter({
    name: 'campusloop_delivery_failures_total',
    help: 'Failed e-mail and push attempts by channel and outcome: retry (tried again later) or failed (for good, after 8 attempts).',
    labelNames: ['channel', 'outcome'] as const,
    registers,
  });

  const unhandledRejections = new Counter({
    name: 'campusloop_unhandled_rejections_total',
    help: 'Promises rejected with no handler in this process: logged, and the process kept serving. Any is a bug to look for in the logs.',
    registers,
  });

  return {
    registry,
    unhandledRejection() {
      unhandledRejections.inc();
    },
    deliveryFailed(channel, final) {
      deliveryFailures.inc({ channel, outcome: final ? 'failed' : 'retry' });
    },
    requestDone(method, route, statusCode, seconds) {
      http.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
    socketsOpen(count) {
      sockets.set(count);
    },
    jobFailed(queue) {
      jobFailures.inc({ queue });
    },
    stepFailed(kind, final) {
      stepFailures.inc({ kind, outcome: final ? 'failed' : 'retry' });
    },
    close() {
      for (const stop of stops.splice(0)) stop();
    },
  };
}
