import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/composition/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { startSession } from '../../src/server/features/auth/service.ts';
import { campusToday } from '../../src/shared/calendar.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import {
  type Fixtures,
  mutationsFor,
  type RouteUnderTest,
  routeUnderTest,
  toHttp,
  validRequests,
} from '../helpers/hostile-requests.ts';
import { rowCounts } from '../helpers/row-counts.ts';
import { ORIGIN } from '../helpers/test-app.ts';
import { createTestDatabase } from '../helpers/test-database.ts';

// Every route, found as the app is built (so a route added later is fuzzed too), gets
// requests that are malformed by construction from its own zod schemas (tests/helpers/hostile-requests.ts).
// Every answer must be a 4xx (never a 2xx/3xx: the request was bad; never a 5xx) and afterwards every
// table holds as many rows as before. Most requests come from an ordinary verified student (moderators'
// routes from a moderator), so sign-in does not stop them first; one in five comes signed out.
// Not sent this way: the WebSocket upgrade (/ws), which is no request/response (the chat socket has its
// own hostile-message tests in hostile-input.test.ts). The photo upload is multipart: it gets the generic
// cases plus malformed multipart bodies below.
// Reproduce a failure with FUZZ_SEED=<the seed fast-check prints>.

const MODERATOR = 'fuzz.moderator@stanford.edu';
const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Random requests per route, after one of each mutation: together a few thousand requests. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 20);

const routes: RouteUnderTest[] = [];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-fuzz-'));
const database = await createTestDatabase();
const base = testConfig();
const config = testConfig({
  webDir: '/nonexistent',
  dataDir,
  uploadsDir: path.join(dataDir, 'uploads'),
  adminEmails: [MODERATOR],
  mail: { ...base.mail, outboxDir: path.join(dataDir, 'outbox') },
});
const app = await buildApp({
  config,
  database,
  logger: false,
  onRoute: (route) => {
    if (route.websocket) return;
    routes.push(...routeUnderTest(route));
  },
});
await app.ready();
afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const db = database.db;
const headers = { origin: ORIGIN, host: 'localhost:80' };

// Rows that exist, so that ids in the requests find something and the hostile part goes deeper.
const student = await createSignedInUser(db);
const lender = await createSignedInUser(db);
const moderator = await createSignedInUser(db, { email: MODERATOR });
const ownItem = await createItem(db, { userId: student.user.id });
const lentItem = await createItem(db, { userId: lender.user.id });
const call = async (method: 'POST' | 'PUT', url: string, payload: object, cookie: string) => {
  const response = await app.inject({ method, url, payload, headers: { ...headers, cookie } });
  if (response.statusCode >= 300) throw new Error(`fixture ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
};
const { conversation } = await call('POST', '/api/conversations', { itemId: lentItem.id }, student.cookie);
const day = (offset: number) => {
  const date = new Date(`${campusToday(config.campusTimeZone).date}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString().slice(0, 10);
};
const { reservation } = await call(
  'POST',
  '/api/reservations',
  { itemId: lentItem.id, startDate: day(2), endDate: day(3) },
  student.cookie,
);
const { report } = await call(
  'POST',
  '/api/reports',
  { reason: 'scam', description: 'It asks for payment outside the app.', reportedItemId: lentItem.id },
  student.cookie,
);
const { rows: notifications } = await database.db.execute<{ id: string }>(
  sql`select id from notifications where user_id in (${student.user.id}, ${lender.user.id})`,
);
const fixtures: Fixtures = {
  ids: {
    user: [student.user.id, lender.user.id],
    item: [ownItem.id, lentItem.id],
    conversation: [conversation.id],
    reservation: [reservation.id],
    report: [report.id],
    notification: notifications.map((n) => n.id),
  },
};

async function send(request: ReturnType<typeof toHttp>, cookie: string | undefined) {
  return app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: { ...headers, ...request.headers, ...(cookie ? { cookie } : {}) },
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  });
}

let sent = 0;
afterAll(() => {
  // The suite's size at a glance when run alone (FUZZ_REPORT=1); silent otherwise.
  if (process.env.FUZZ_REPORT) console.info(`fuzz: ${sent} hostile requests over ${routes.length} routes`);
});

describe(`every route refuses malformed requests with a 4xx and changes nothing (seed ${seed})`, () => {
  it('found the routes as the app was built', () => {
    const found = routes.map((r) => `${r.method} ${r.url}`);
    // A few of every kind, so the collection itself cannot silently come back empty.
    for (const known of ['POST /api/items', 'GET /api/items', 'POST /api/conversations/:id/messages']) {
      expect(found).toContain(known);
    }
    expect(found.length).toBeGreaterThan(50);
  });

  for (const route of routes) {
    it(`${route.method} ${route.url}`, async () => {
      const valid = validRequests(route, fixtures);
      const mutations = valid.map((request) => mutationsFor(route, request));
      const cases = valid.flatMap((request, k) => mutations[k]!.map((mutation) => ({ request, mutation })));
      // A fresh session per route: a route that wrongly accepted a request (a sign-out, say) must not
      // leave the next routes' requests signed out, which would hide what they do.
      const cookies = {
        student: `cl_session=${(await startSession(db, student.user.id, 30)).token}`,
        moderator: `cl_session=${(await startSession(db, moderator.user.id, 30)).token}`,
      };
      const before = await rowCounts(db);
      // Every mutation once, signed in, each on the next valid request in turn (those naming existing
      // rows come first); then random ones, signed in or out.
      const everyMutation = mutations[0]!.map((first, i) => {
        const k = i % valid.length;
        const mutation = mutations[k]![i];
        const example = mutation ? { request: valid[k]!, mutation } : { request: valid[0]!, mutation: first };
        return [example, 1] as [(typeof cases)[number], number];
      });
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...cases), fc.nat(4), async ({ request, mutation }, who) => {
          const hostile = toHttp(route, mutation.apply(request), mutation.name);
          const cookie =
            who === 0 ? undefined : route.url.startsWith('/api/admin') ? cookies.moderator : cookies.student;
          const response = await send(hostile, cookie);
          sent++;
          if (response.statusCode < 400 || response.statusCode >= 500) {
            throw new Error(
              `${hostile.method} ${hostile.url.slice(0, 300)} (${hostile.mutation}, ${cookie ? 'signed in' : 'signed out'})` +
                ` answered ${response.statusCode}: ${response.body.slice(0, 300)}` +
                `\nbody: ${hostile.payload?.slice(0, 300) ?? '(none)'}`,
            );
          }
        }),
        { examples: everyMutation, numRuns: everyMutation.length + RUNS_PER_ROUTE, seed },
      );
      expect(await rowCounts(db)).toEqual(before);
    });
  }

  it('POST /api/upload/proxy: malformed multipart bodies', async () => {
    const uploads = path.join(dataDir, 'uploads');
    const stored = () => readdirSync(uploads, { recursive: true }).filter((f) => String(f).endsWith('.jpg'));
    const before = await rowCounts(db);
    const boundary = '----campusloopfuzz';
    const part = (name: string, filename: string | null, content: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}\r\n` +
      `Content-Type: image/jpeg\r\n\r\n${content}\r\n`;
    const bodies: [string, string, string][] = [
      ['no boundary', 'multipart/form-data', part('images', 'a.jpg', 'x')],
      ['cut short', `multipart/form-data; boundary=${boundary}`, part('images', 'a.jpg', 'x').slice(0, 60)],
      [
        'never closed',
        `multipart/form-data; boundary=${boundary}`,
        part('images', 'a.jpg', '\u00ff\u00d8\u00ff'),
      ],
      [
        'another field',
        `multipart/form-data; boundary=${boundary}`,
        `${part('photo', 'a.jpg', 'x')}--${boundary}--\r\n`,
      ],
      [
        'a text field',
        `multipart/form-data; boundary=${boundary}`,
        `${part('images', null, 'x')}--${boundary}--\r\n`,
      ],
      [
        'not an image',
        `multipart/form-data; boundary=${boundary}`,
        `${part('images', 'a.jpg', 'hello')}--${boundary}--\r\n`,
      ],
      [
        'empty file',
        `multipart/form-data; boundary=${boundary}`,
        `${part('images', 'a.jpg', '')}--${boundary}--\r\n`,
      ],
      [
        'NUL file name',
        `multipart/form-data; boundary=${boundary}`,
        `${part('images', 'a\u0000.jpg', 'x')}--${boundary}--\r\n`,
      ],
      [
        'six files',
        `multipart/form-data; boundary=${boundary}`,
        `${Array.from({ length: 6 }, () => part('images', 'a.jpg', 'x')).join('')}--${boundary}--\r\n`,
      ],
      ['no parts', `multipart/form-data; boundary=${boundary}`, `--${boundary}--\r\n`],
      ['JSON', 'application/json', '{"images":["/uploads/items/2026/01/a.jpg"]}'],
    ];
    for (const [name, contentType, payload] of bodies) {
      for (const cookie of [student.cookie, undefined]) {
        const response = await send(
          {
            mutation: name,
            method: 'POST',
            url: '/api/upload/proxy',
            headers: { 'content-type': contentType },
            payload,
          },
          cookie,
        );
        expect(response.statusCode, `${name}: ${response.body}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${name}: ${response.body}`).toBeLessThan(500);
      }
    }
    expect(stored()).toEqual([]);
    expect(await rowCounts(db)).toEqual(before);
  });
});
