import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { fixedClock } from '../../src/server/clock.ts';
import { buildApp } from '../../src/server/composition/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { notificationDeliveries } from '../../src/server/db/schema/deliveries.ts';
import { deliveryService } from '../../src/server/features/deliveries/service.ts';
import { notificationService } from '../../src/server/features/notifications/service.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { flakyProvider } from '../helpers/flaky-provider.ts';
import { settlePayments } from '../helpers/money.ts';
import { noticeText } from '../helpers/notice.ts';
import { day, reserve, scenario } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

// Observable: every request has an id (answer header, log lines), background jobs log theirs,
// and GET /metrics shows Prometheus figures to the holder of METRICS_TOKEN only. On both databases.

const TOKEN = 'test-metrics-token-0123456789abcdef';
const base = testConfig();
const lines: string[] = [];
let flaky!: ReturnType<typeof flakyProvider>;
const t = setupTestApp(
  {
    metrics: { token: TOKEN },
    // One retry, so a step fails for good within a test.
    payments: { ...base.payments, retryLimit: 1 },
  },
  {
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    payments: (db) => {
      flaky = flakyProvider(new TestPaymentProvider(db));
      return flaky.provider;
    },
  },
);

type LogLine = { reqId?: string; job?: string; jobId?: string; msg: string; [key: string]: unknown };
const logged = (): LogLine[] => lines.map((line) => JSON.parse(line) as LogLine);

async function scrape(token = TOKEN) {
  return t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
}

/** The samples of one metric in Prometheus's text format, with their labels. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const found = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!;
    found.push({ labels, value: Number(match[3]) });
  }
  return found;
}

/** The value of the one sample of `name` whose labels include `labels` (undefined when none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  return samples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

describe('request ids', () => {
  it('echoes a sane X-Request-Id and puts it on the request’s log lines', async () => {
    lines.length = 0;
    const id = 'edge-7f3a.2b:91_c-04';
    const response = await t.request({ method: 'GET', url: '/api/health', headers: { 'x-request-id': id } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-request-id']).toBe(id);
    const mine = logged().filter((line) => line.reqId === id);
    expect(mine.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('replaces one that is too long, has unsafe characters, or came twice', async () => {
    for (const given of ['a'.repeat(129), 'id with spaces', 'id"}{"admin":true', 'ünïcode', '']) {
      const response = await t.request({
        method: 'GET',
        url: '/api/health',
        headers: { 'x-request-id': given },
      });
      const id = response.headers['x-request-id'];
      expect(id, given).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    // Two headers arrive joined by a comma: not a token.
    const twice = await t.request({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': ['first', 'second'] },
    });
    expect(twice.headers['x-request-id']).not.toContain('first');
    expect(twice.headers['x-request-id']).toHaveLength(36);
  });

  it('gives every request one, refused ones too, each its own', async () => {
    const a = await t.get('/api/nothing-here');
    const b = await t.request({
      method: 'POST',
      url: '/api/items',
      headers: { origin: 'https://evil.example' },
    });
    expect(a.statusCode).toBe(404);
    expect(b.statusCode).toBe(403);
    expect(a.headers['x-request-id']).toHaveLength(36);
    expect(b.headers['x-request-id']).toHaveLength(36);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('is on what a service logs while serving the request (the verification e-mail)', async () => {
    lines.length = 0;
    const id = 'register-request-1';
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'x-request-id': id },
      payload: {
        fullName: 'Logged Person',
        username: 'logged_person',
        email: 'logged.person@stanford.edu',
        campus: 'stanford.edu',
        password: 'a-long-enough-password-1',
      },
    });
    expect(response.statusCode).toBe(202);
    // The e-mail goes out after the answer (decision 023): wait for its log line.
    const deadline = Date.now() + 10_000;
    while (!logged().some((line) => /verification e-mail/.test(line.msg)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const fromService = logged().filter(
      (line) => !['incoming request', 'request completed'].includes(line.msg),
    );
    expect(fromService.length).toBeGreaterThan(0);
    for (const line of fromService) expect(line.reqId, line.msg).toBe(id);
  });
});

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN: the same 404 as any unknown path', async () => {
    const app = await buildApp({
      config: { ...t.config, metrics: { token: undefined } },
      database: t.database,
      logger: false,
    });
    try {
      const unknown = await app.inject({ method: 'GET', url: '/no-such-page' });
      const metrics = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(metrics.statusCode).toBe(404);
      expect(metrics.json()).toEqual({ ...unknown.json(), message: 'No API route for GET /metrics.' });
      expect(app.metrics).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('answers 404 without the token or with a wrong one, and the figures with the right one', async () => {
    // What any unknown path answers: nothing says that something is here.
    const without = await t.get('/metrics');
    expect(without.statusCode).toBe(404);
    expect(without.json()).toEqual({ message: 'No API route for GET /metrics.', code: 'NOT_FOUND' });
    expect((await scrape('wrong-token-0123456789abcdef')).statusCode).toBe(404);
    expect((await scrape(`${TOKEN}x`)).statusCode).toBe(404);
    const basic = await t.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
    });
    expect(basic.statusCode).toBe(404);

    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    // prom-client's process figures are there.
    expect(sample(response.body, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(sample(response.body, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('times requests by route pattern and status, never by raw URL', async () => {
    const owner = await createSignedInUser(t.database.db);
    const item = await createItem(t.database.db, { userId: owner.user.id, title: 'Label check' });
    expect((await t.get(`/api/items/${item.id}`)).statusCode).toBe(200);
    expect((await t.get('/api/items/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    await t.get('/definitely/not/a/route');

    const text = (await scrape()).body;
    const route = { method: 'GET', route: '/api/items/:id' };
    const ok = sample(text, 'campusloop_http_request_duration_seconds_count', {
      ...route,
      status_code: '200',
    });
    expect(ok).toBeGreaterThanOrEqual(1);
    const missing = sample(text, 'campusloop_http_request_duration_seconds_count', {
      ...route,
      status_code: '404',
    });
    expect(missing).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'campusloop_http_request_duration_seconds_count', {
        route: '(unmatched)',
        status_code: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(item.id);
    expect(text).not.toContain('/definitely/not');
  });

  it('counts read cache hits: the second identical list is a hit', async () => {
    const before = sample((await scrape()).body, 'campusloop_cache_hits_total', { cache: 'catalogue' }) ?? 0;
    const missesBefore =
      sample((await scrape()).body, 'campusloop_cache_misses_total', { cache: 'catalogue' }) ?? 0;
    const url = '/api/items?campus=all&category=tools&limit=7';
    expect((await t.get(url)).statusCode).toBe(200);
    expect((await t.get(url)).statusCode).toBe(200);
    const text = (await scrape()).body;
    expect(sample(text, 'campusloop_cache_hits_total', { cache: 'catalogue' })).toBe(before + 1);
    expect(sample(text, 'campusloop_cache_misses_total', { cache: 'catalogue' })).toBe(missesBefore + 1);
    // What the catalogue holds: at least that list's answer, as bytes and as an entry.
    const list = (await t.get(url)).body;
    expect(sample(text, 'campusloop_cache_bytes', { cache: 'catalogue' })).toBeGreaterThanOrEqual(
      list.length,
    );
    expect(sample(text, 'campusloop_cache_entries', { cache: 'catalogue' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'campusloop_cache_bytes', { cache: 'sessions' })).toBe(0);
    // Every cache has its pair from the start, so ratios exist before the first lookup.
    for (const cache of ['catalogue', 'sessions', 'notificationsUnread', 'chatUnread', 'pages']) {
      expect(sample(text, 'campusloop_cache_misses_total', { cache }), cache).toBeGreaterThanOrEqual(0);
    }
  });

  it('times database statements, and shows the pool on PostgreSQL', async () => {
    const text = (await scrape()).body;
    expect(sample(text, 'campusloop_db_query_duration_seconds_count')).toBeGreaterThan(0);
    expect(sample(text, 'campusloop_db_query_duration_seconds_sum')).toBeGreaterThan(0);
    expect(sample(text, 'campusloop_db_queries_in_flight')).toBeGreaterThanOrEqual(0);
    // Reads take turns (decision 084): nobody waits between requests, and none went ahead without one.
    expect(sample(text, 'campusloop_reads_waiting')).toBe(0);
    expect(sample(text, 'campusloop_reads_overdue_total')).toBe(0);
    if (t.database.kind === 'postgres') {
      expect(sample(text, 'campusloop_db_pool_connections')).toBeGreaterThan(0);
      expect(sample(text, 'campusloop_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'campusloop_db_pool_waiting_requests')).toBe(0);
      expect(sample(text, 'campusloop_db_pool_max_connections')).toBe(5);
    } else {
      expect(sample(text, 'campusloop_db_pool_connections')).toBeUndefined();
    }
  });

  it('counts a failing statement', async () => {
    const before = sample((await scrape()).body, 'campusloop_db_query_errors_total') ?? 0;
    await expect(t.database.db.execute(sql.raw('select * from no_such_table'))).rejects.toThrow();
    expect(sample((await scrape()).body, 'campusloop_db_query_errors_total')).toBe(before + 1);
  });

  it('counts unhandled rejections the process kept serving through (main.ts)', async () => {
    expect(sample((await scrape()).body, 'campusloop_unhandled_rejections_total')).toBe(0);
    t.app.metrics!.unhandledRejection();
    expect(sample((await scrape()).body, 'campusloop_unhandled_rejections_total')).toBe(1);
  });

  it('measures the live events’ delay with a probe at each scrape', async () => {
    const text = (await scrape()).body;
    expect(sample(text, 'campusloop_live_events_listening')).toBe(1);
    expect(sample(text, 'campusloop_live_event_delay_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'campusloop_live_event_delay_seconds_sum')).toBeLessThan(1);
    expect(sample(text, 'campusloop_live_event_probes_lost_total')).toBe(0);
  });

  it('counts open live sockets', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const person = await createSignedInUser(t.database.db);
    const open = () => scrape().then((r) => sample(r.body, 'campusloop_websockets_open') ?? 0);
    const before = await open();
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { cookie: person.cookie } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    await waitFor(async () => (await open()) === before + 1, 5000, 'the socket to be counted');
    socket.close();
    await waitFor(async () => (await open()) === before, 5000, 'the socket to be let go');
  });

  it('counts payment step failures, and shows the failed steps waiting for a moderator', async () => {
    const s = await scenario(t);
    const r = await reserve(t, s.borrower.cookie, s.item.id, day(1), day(3));
    expect(
      (await t.post(`/api/reservations/${r.reservation.id}/approve`, {}, s.lender.cookie)).statusCode,
    ).toBe(200);
    const before = (await scrape()).body;
    const failures = (outcome: string, text: string) =>
      sample(text, 'campusloop_payment_step_failures_total', { kind: 'capture', outcome }) ?? 0;
    expect(sample(before, 'campusloop_payment_steps', { status: 'pending' })).toBeGreaterThanOrEqual(1);
    expect(
      sample(before, 'campusloop_jobs', { queue: 'payment-steps', state: 'created' }),
    ).toBeGreaterThanOrEqual(1);

    flaky.failNext('capturePaymentIntent', 1000);
    await settlePayments(t);
    const once = (await scrape()).body;
    expect(failures('retry', once)).toBe(failures('retry', before) + 1);
    expect(failures('failed', once)).toBe(failures('failed', before));

    await settlePayments(t);
    const after = (await scrape()).body;
    expect(failures('failed', after)).toBe(failures('failed', before) + 1);
    expect(sample(after, 'campusloop_payment_steps', { status: 'failed' })).toBe(
      (sample(before, 'campusloop_payment_steps', { status: 'failed' }) ?? 0) + 1,
    );
    expect(sample(after, 'campusloop_payment_mismatches_open')).toBe(0);
    flaky.heal();
  });
});

describe('e-mail and push deliveries', () => {
  it('shows what waits to be sent, how late it is, and counts failed attempts', async () => {
    const { user } = await createSignedInUser(t.database.db);
    const failures = (text: string) =>
      sample(text, 'campusloop_delivery_failures_total', { channel: 'email', outcome: 'retry' }) ?? 0;
    const before = (await scrape()).body;
    // A request's e-mail (wanted by default), then a round whose mail server is down.
    await t.database.db.transaction((tx) =>
      notificationService.notify(tx, {
        userId: user.id,
        type: 'reservation_request',
        text: noticeText('New reservation request', 'Someone wants to borrow your drill.'),
      }),
    );
    const [row] = await t.database.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.userId, user.id));
    const counts = await deliveryService.runRound({
      db: t.database.db,
      mailer: {
        send: async () => {
          throw new Error('the mail server is down');
        },
      } as unknown as Parameters<typeof deliveryService.runRound>[0]['mailer'],
      push: null,
      appUrl: t.config.appUrl,
      clock: fixedClock(new Date(Date.now() + 60_000)),
      log: { info() {}, warn() {}, error() {} },
      metrics: t.app.metrics,
    });
    expect(counts.retried).toBeGreaterThanOrEqual(1);
    // Its retry was due ten minutes ago: the round is that late.
    await t.database.db
      .update(notificationDeliveries)
      .set({ dueAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(notificationDeliveries.id, row!.id));
    const after = (await scrape()).body;
    expect(failures(after)).toBeGreaterThanOrEqual(failures(before) + 1);
    expect(sample(after, 'campusloop_deliveries_pending', { channel: 'email' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'campusloop_deliveries_pending', { channel: 'push' })).toBe(0);
    expect(sample(after, 'campusloop_delivery_overdue_seconds', { channel: 'email' })).toBeGreaterThanOrEqual(
      600,
    );
    await t.database.db.delete(notificationDeliveries).where(eq(notificationDeliveries.userId, user.id));
  });
});

describe('background work', () => {
  it('logs a payment step job with its job id', async () => {
    const jobLines: string[] = [];
    const failing = flakyProvider(new TestPaymentProvider(t.database.db));
    failing.failNext('capturePaymentIntent', 1000);
    const worker = await buildApp({
      config: { ...t.config, jobs: { ...t.config.jobs, enabled: true } },
      database: t.database,
      payments: failing.provider,
      logger: { level: 'info', stream: { write: (line: string) => void jobLines.push(line) } },
    });
    try {
      await worker.ready();
      const s = await scenario(t);
      const r = await reserve(t, s.borrower.cookie, s.item.id, day(1), day(3));
      await t.post(`/api/reservations/${r.reservation.id}/approve`, {}, s.lender.cookie);
      const retried = () =>
        jobLines
          .map((line) => JSON.parse(line) as LogLine)
          .find((line) => line.msg === 'payment step will be retried');
      await waitFor(() => Boolean(retried()), 15_000, 'the worker to try the capture');
      expect(retried()).toMatchObject({ job: 'payment-steps', jobId: expect.any(String) });
      expect(retried()?.jobId).not.toBe('');
    } finally {
      await worker.close();
    }
  });
});
