import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BROKEN_CHARACTER_MESSAGE, CONTROL_CHARACTER_MESSAGE } from '../../src/shared/schemas/fields.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { cardExpiry } from '../helpers/cards.ts';
import { rowCounts } from '../helpers/row-counts.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// A NUL (or any invisible control character, or half a surrogate pair) in any text, and a
// day that does not exist, used to reach PostgreSQL and answer 500. Each is a clear 400 now, with the
// message the forms show, and nothing is stored.

const MODERATOR = 'hostile.moderator@stanford.edu';
const t = setupTestApp({ adminEmails: [MODERATOR] });
const db = () => t.database.db;
const NUL = '\u0000';

let student: Awaited<ReturnType<typeof createSignedInUser>>;
let owner: Awaited<ReturnType<typeof createSignedInUser>>;
let moderator: Awaited<ReturnType<typeof createSignedInUser>>;
let itemId: string;
let conversationId: string;

const item = (overrides: Record<string, unknown> = {}) => ({
  title: 'Cordless drill',
  description: 'An 18V cordless drill with two batteries.',
  category: 'tools',
  condition: 'good',
  pickupMethod: 'meetup',
  availableFrom: '2026-01-01',
  availableDays: [0, 1, 2, 3, 4, 5, 6],
  ...overrides,
});

beforeAll(async () => {
  student = await createSignedInUser(db());
  owner = await createSignedInUser(db());
  moderator = await createSignedInUser(db(), { email: MODERATOR });
  itemId = (await createItem(db(), { userId: owner.user.id })).id;
  const started = await t.post('/api/conversations', { itemId }, student.cookie);
  conversationId = started.json().conversation.id;
});

describe('control characters', () => {
  const cases: [string, string, string, () => unknown, () => string | undefined][] = [
    [
      'sign-up name',
      'POST',
      '/api/auth/register',
      () => ({
        fullName: `Ada${NUL}`,
        username: 'ada_nul',
        email: 'ada.nul@stanford.edu',
        campus: 'stanford.edu',
        password: 'secret123',
      }),
      () => undefined,
    ],
    [
      'sign-in password',
      'POST',
      '/api/auth/login',
      () => ({ email: 'ada@stanford.edu', password: `x${NUL}` }),
      () => undefined,
    ],
    ['item title', 'POST', '/api/items', () => item({ title: `Drill${NUL}` }), () => student.cookie],
    [
      'item description (edit)',
      'PUT',
      '/api/items/{item}',
      () => item({ description: `A fine drill${NUL} indeed` }),
      () => owner.cookie,
    ],
    [
      'item pickup location',
      'POST',
      '/api/items',
      () => item({ pickupLocation: `Quad${NUL}` }),
      () => student.cookie,
    ],
    [
      'chat message',
      'POST',
      '/api/conversations/{conversation}/messages',
      () => ({ content: `hi${NUL}` }),
      () => student.cookie,
    ],
    [
      'report',
      'POST',
      '/api/reports',
      () => ({
        reason: 'scam',
        description: `This is a scam${NUL} for sure`,
        reportedItemId: itemId,
      }),
      () => student.cookie,
    ],
    [
      'review comment',
      'POST',
      '/api/reviews',
      () => ({ reservationId: randomUUID(), rating: 5, comment: `ok${NUL}` }),
      () => student.cookie,
    ],
    [
      'decline reason',
      'POST',
      `/api/reservations/${randomUUID()}/decline`,
      () => ({ reason: `no${NUL}` }),
      () => owner.cookie,
    ],
    [
      'moderation note',
      'POST',
      `/api/admin/reports/${randomUUID()}/notes`,
      () => ({ note: `note${NUL}` }),
      () => moderator.cookie,
    ],
    [
      'card setup id',
      'POST',
      '/api/payment-methods',
      () => ({ setupIntentId: `seti_${NUL}` }),
      () => student.cookie,
    ],
    [
      'test payment id',
      'POST',
      '/api/payments/test/confirm',
      () => ({
        paymentIntentId: `pi_${NUL}`,
        card: { number: '4242424242424242', ...cardExpiry(12), cvc: '123' },
      }),
      () => student.cookie,
    ],
  ];

  it.each(cases)(
    '%s: 400 with the form message, nothing stored',
    async (_name, method, path, body, cookie) => {
      const url = path.replace('{item}', itemId).replace('{conversation}', conversationId);
      const before = await rowCounts(db());
      const response = await t.request({
        method: method as 'POST',
        url,
        payload: body() as object,
        cookie: cookie(),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION', message: CONTROL_CHARACTER_MESSAGE });
      expect(await rowCounts(db())).toEqual(before);
    },
  );

  it.each([
    ['/api/items?searchQuery=drill%00'],
    ['/api/items?campus=%00'],
    ['/api/universities?q=stan%00'],
    ['/api/universities/detect?email=a%00@stanford.edu'],
    ['/api/items/%00'],
    [`/api/conversations/${randomUUID()}/messages?before=%00`],
  ])('a query or path with NUL: %s is a 400', async (url) => {
    const response = await t.get(url, student.cookie);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe(CONTROL_CHARACTER_MESSAGE);
  });

  it('half a surrogate pair is refused as a broken character, other controls as invisible ones', async () => {
    const broken = await t.post('/api/items', item({ title: 'Drill \uD83D' }), student.cookie);
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({
      message: BROKEN_CHARACTER_MESSAGE,
      issues: [{ path: 'title', message: BROKEN_CHARACTER_MESSAGE }],
    });
    const ansiEscape = await t.post(
      '/api/items',
      item({ description: 'Red \u001b[31m text here' }),
      student.cookie,
    );
    expect(ansiEscape.statusCode).toBe(400);
    expect(ansiEscape.json().message).toBe(CONTROL_CHARACTER_MESSAGE);
    // Line breaks and tabs are text, emoji too.
    const fine = await t.post(
      '/api/items',
      item({ description: 'Two lines\nand a\ttab 🔧', title: 'Drill 🔧' }),
      student.cookie,
    );
    expect(fine.statusCode).toBe(201);
  });

  it('the API boundary refuses a control character a route schema would not look at (an object key)', async () => {
    const response = await t.post('/api/conversations', { itemId, [`extra${NUL}`]: 1 }, student.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: CONTROL_CHARACTER_MESSAGE,
      issues: [{ path: `extra${NUL}` }],
    });
  });
});

describe('days that do not exist', () => {
  it.each([['2026-02-30'], ['2026-04-31'], ['0000-01-01'], ['1999-12-31'], ['2101-01-01']])(
    'an item available from %s is a 400',
    async (day) => {
      const before = await rowCounts(db());
      const response = await t.post('/api/items', item({ availableFrom: day }), student.cookie);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        issues: [{ path: 'availableFrom', message: 'Please choose the first day it is available' }],
      });
      const until = await t.post('/api/items', item({ availableUntil: day }), student.cookie);
      expect(until.statusCode, until.body).toBe(400);
      expect(await rowCounts(db())).toEqual(before);
    },
  );

  it.each([
    ['2026-02-30', '2026-03-02'],
    ['0000-01-01', '0000-01-02'],
    ['2026-02-30T10:00:00Z', '2026-03-02'],
  ])('a reservation from %s is a 400', async (startDate, endDate) => {
    const before = await rowCounts(db());
    for (const url of ['/api/reservations', '/api/create-payment-intent']) {
      const response = await t.post(
        url,
        { itemId, startDate, endDate, depositAmount: '0', rentalAmount: '0' },
        student.cookie,
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().issues[0]).toMatchObject({
        path: 'startDate',
        message: 'Please choose a start date',
      });
    }
    expect(await rowCounts(db())).toEqual(before);
  });

  it('chat paging before year 0 is a 400', async () => {
    const response = await t.get(
      `/api/conversations/${conversationId}/messages?before=0000-01-01T00:00:00Z`,
      student.cookie,
    );
    expect(response.statusCode, response.body).toBe(400);
  });
});

describe('the chat socket', () => {
  let url = '';
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws`;
  });

  async function errorFor(payload: unknown): Promise<unknown> {
    const socket = new WebSocket(url, { headers: { cookie: student.cookie } });
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () => resolve());
      socket.on('error', reject);
    });
    const answer = new Promise<unknown>((resolve) => {
      socket.on('message', (data) => {
        const event = JSON.parse(String(data));
        if (event.type === 'error' || event.type === 'messageConfirm') resolve(event);
      });
    });
    socket.send(JSON.stringify(payload));
    const event = await answer;
    socket.close();
    return event;
  }

  async function messageCount() {
    const { rows } = await db().execute<{ n: number }>(sql`select count(*)::int as n from messages`);
    return rows[0]!.n;
  }

  it('answers a message with a control character with the form message, and stores nothing', async () => {
    const before = await messageCount();
    expect(
      await errorFor({ type: 'sendMessage', conversationId, content: `hi${NUL}`, tempId: 't1' }),
    ).toEqual({
      type: 'error',
      tempId: 't1',
      message: CONTROL_CHARACTER_MESSAGE,
    });
    expect(await messageCount()).toBe(before);
  });

  it('treats a malformed conversation id as a missing conversation', async () => {
    expect(
      await errorFor({ type: 'sendMessage', conversationId: 'not-a-uuid', content: 'hi', tempId: 't2' }),
    ).toEqual({
      type: 'error',
      tempId: 't2',
      message: 'Conversation not found.',
    });
  });
});
