import { describe, expect, it } from 'vitest';
import { quote } from '#shared/booking/pricing.ts';
import { checkoutsOf, serverMsOf, statementsOf } from '../../src/server/http/db-lanes.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { drillAsk } from '../helpers/ask-fixtures.ts';
import { VISA } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// How many connections a write takes from the pools (counted at the pools, read from the answer's
// Server-Timing header). On a busy server each checkout waits in its pool's queue, so the count, not
// the time on this machine, is what is held here (docs/performance.md has the times). PGlite counts
// as PostgreSQL does: one statement outside a transaction, or one transaction, is one checkout.

const t = setupTestApp();

type Answer = { headers: Record<string, unknown>; statusCode: number; body: string };
const checkoutsIn = (response: Answer) => {
  expect(response.statusCode, response.body).toBeLessThan(300);
  const n = checkoutsOf(response.headers['server-timing'] as string | undefined);
  expect(n, 'the answer says its checkouts').toBeTypeOf('number');
  return n!;
};

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * The paid request's budget over its three calls. 3 of them are the built-in test provider's own
 * tables, standing in for Stripe's HTTP calls, one statement each as Stripe answers each call once (the
 * intent with its idempotency record, the card's confirmation, the intent read by the request); with
 * Stripe the app itself takes 6 (the session, the booking checks twice, the recorded intent, the
 * request's transaction, its announcement's mark). It was 12 while the test provider took 3 checkouts
 * to make an intent and 2 to confirm a card.
 */
const PAID_REQUEST_BUDGET = 9;
/**
 * The request's own round trips (its third call) on PostgreSQL: the booking checks and the provider's
 * intent (asked at once), then in one transaction its begin, the booking with its payment taken (the
 * payment's row locked, checked made for this booking and marked used, in the statement that inserts
 * the booking), the lender's notification (their language and channels, the notice and its deliveries,
 * in one statement), the borrower's payment row, the answer and the commit; last the announcement's
 * mark. 9; PGlite counts 7, as its transactions begin and commit inside one call. It was 16 while the
 * hold locked and read the journal it does not change, the borrower's language was read again, and the
 * payment was marked apart; 12 while the notification took three statements; 10 while the payment's row
 * was locked and read before the booking was inserted.
 */
const REQUEST_STATEMENTS = { postgres: 9, pglite: 7 };
/** An ask's transaction (the answer read on its connection), then its announcement's mark. */
const ASK_CHECKOUTS = 2;
/**
 * An ask's round trips on PostgreSQL: its begin, the asker's lock, their open asks counted, the ask,
 * the matching job, the answer and the commit; last the mark. PGlite counts two fewer (its begin and
 * commit). It was 9 while the answer was read after the commit, with the offers a new ask cannot have.
 */
const ASK_STATEMENTS = { postgres: 8, pglite: 6 };
/** The session (when not remembered), the rate budget, the message's transaction. */
const MESSAGE_BUDGET = 3;

describe('checkouts per write', () => {
  it('a paid request (intent, card, request) stays within its budget', async () => {
    const lender = await createSignedInUser(t.database.db);
    const borrower = await createSignedInUser(t.database.db);
    const priced = { rentalPriceCents: 500, rentalPeriod: 'day' as const, depositCents: 2000 };
    const item = await createItem(t.database.db, { userId: lender.user.id, ...priced });
    const [startDate, endDate] = [day(3), day(5)];
    const price = quote(priced, startDate, endDate, t.config.fees);
    const money = (cents: number) => (cents / 100).toFixed(2);
    const body = { itemId: item.id, startDate, endDate };
    const intent = await t.post(
      '/api/create-payment-intent',
      { ...body, depositAmount: money(price.depositCents), rentalAmount: money(price.rentalCents) },
      borrower.cookie,
    );
    const paymentIntentId = intent.json().paymentIntentId;
    const confirm = await t.post(
      '/api/payments/test/confirm',
      { paymentIntentId, card: VISA },
      borrower.cookie,
    );
    const request = await t.post(
      '/api/reservations',
      { ...body, stripePaymentIntentId: paymentIntentId },
      borrower.cookie,
    );
    expect(request.statusCode, request.body).toBe(201);
    expect(request.json().reservation.status).toBe('pending');
    const counts = [checkoutsIn(intent), checkoutsIn(confirm), checkoutsIn(request)];
    expect(
      counts.reduce((a, b) => a + b, 0),
      `checkouts per call: ${counts.join(', ')}`,
    ).toBeLessThanOrEqual(PAID_REQUEST_BUDGET);
    // The answer to the request is read on the transaction's connection, and its checks on one; the
    // card is confirmed in one statement.
    expect(counts[2]).toBeLessThanOrEqual(4);
    expect(counts[1]).toBe(1);
    // Each statement is a round trip that waits its turn on a busy server: a hold writes no journal
    // (no money moved), the borrower's language comes with their session, and the booking takes its
    // payment (checked and locked) in the statement that inserts it.
    const statements = statementsOf(request.headers['server-timing'] as string | undefined);
    expect(statements, `statements: ${statements}`).toBeLessThanOrEqual(REQUEST_STATEMENTS[t.database.kind]);
    // That answer, read in the request's transaction, is the booking as My Reservations shows it.
    const listed = (await t.get('/api/reservations', borrower.cookie)).json().reservations;
    expect(listed).toEqual([request.json().reservation]);
  });

  it('a chat message stays within its budget and does not wait for an announcement', async () => {
    const seller = await createSignedInUser(t.database.db);
    const buyer = await createSignedInUser(t.database.db);
    const item = await createItem(t.database.db, { userId: seller.user.id });
    const started = await t.post('/api/conversations', { itemId: item.id }, buyer.cookie);
    const conversationId = started.json().conversation.id;
    const counts: number[] = [];
    for (const content of ['Hi', 'Is it free on Friday?', 'Thanks']) {
      counts.push(
        checkoutsIn(await t.post(`/api/conversations/${conversationId}/messages`, { content }, buyer.cookie)),
      );
    }
    // The first may read the session; the others find it remembered (a message leaves it in place).
    for (const n of counts)
      expect(n, `checkouts per message: ${counts.join(', ')}`).toBeLessThanOrEqual(MESSAGE_BUDGET);
    expect(counts[2]).toBeLessThan(MESSAGE_BUDGET);
    // Read marks and sign-ins alike take no mark's checkout.
    const read = checkoutsIn(await t.post(`/api/conversations/${conversationId}/read`, {}, seller.cookie));
    expect(read).toBeLessThanOrEqual(2);
  });

  it('an ask answers what it made from its own transaction, without reading offers it cannot have', async () => {
    const student = await createSignedInUser(t.database.db);
    const first = await t.post('/api/asks', drillAsk(), student.cookie);
    const asked = await t.post('/api/asks', drillAsk({ title: 'Stud finder' }), student.cookie);
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().ask).toMatchObject({ title: 'Stud finder', mine: true, offerCount: 0, offers: [] });
    // The session is remembered after the first: the ask's transaction and its announcement's mark.
    expect(checkoutsIn(first)).toBeLessThanOrEqual(ASK_CHECKOUTS + 1);
    expect(checkoutsIn(asked)).toBeLessThanOrEqual(ASK_CHECKOUTS);
    const statements = statementsOf(asked.headers['server-timing'] as string | undefined);
    expect(statements, `statements: ${statements}`).toBeLessThanOrEqual(ASK_STATEMENTS[t.database.kind]);
    // The board shows the same ask as its answer did.
    const mine = (await t.get('/api/asks?mine=true', student.cookie)).json().asks;
    expect(mine).toContainEqual(asked.json().ask);
  });

  it('a listing change is still seen at once by its writer’s next read', async () => {
    const owner = await createSignedInUser(t.database.db);
    const listing = {
      title: 'Red kayak',
      description: 'A two-person kayak with paddles and life vests.',
      category: 'tools',
      condition: 'good',
      pickupMethod: 'meetup',
      pickupLocation: 'Main Quad',
      rentalPrice: '5.00',
      rentalPeriod: 'day',
      depositAmount: '20',
      availableFrom: '2026-01-01',
      availableUntil: null,
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      images: ['/uploads/items/2026/11/a.jpg'],
    };
    const made = await t.post('/api/items', listing, owner.cookie);
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().item.id;
    const list = '/api/items?campus=all&category=tools';
    const titles = async () =>
      ((await t.get(list, owner.cookie)).json().items as { title: string }[]).map((i) => i.title);
    // Both answers remembered before the change.
    expect(await titles()).toContain('Red kayak');
    expect((await t.get(`/api/items/${id}`, owner.cookie)).json().item.title).toBe('Red kayak');
    const edit = await t.put(`/api/items/${id}`, { ...listing, title: 'Blue kayak' }, owner.cookie);
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await t.get(`/api/items/${id}`, owner.cookie)).json().item.title).toBe('Blue kayak');
    expect(await titles()).toContain('Blue kayak');
    expect(await titles()).not.toContain('Red kayak');
  });

  it('says how long the server itself took, apart from the pools’ wait', async () => {
    const person = await createSignedInUser(t.database.db);
    for (const response of [
      await t.get('/api/notifications', person.cookie),
      await t.post('/api/notifications/read-all', {}, person.cookie),
    ]) {
      const timing = String(response.headers['server-timing']);
      expect(timing).toMatch(/^db;desc="\w+ checkouts=\d+ statements=\d+";dur=[\d.]+, app;dur=[\d.]+$/);
      expect(serverMsOf(timing)).toBeGreaterThan(0);
    }
  });

  it('sends the catalogue’s reads to the replica lane, except a writer’s right after their write', async () => {
    const owner = await createSignedInUser(t.database.db);
    const visitor = await createSignedInUser(t.database.db);
    const item = await createItem(t.database.db, { userId: owner.user.id, title: 'Green tent' });
    const laneOf = (response: Answer) => /desc="(\w+)/.exec(String(response.headers['server-timing']))?.[1];
    // Signed out and signed in alike; the session itself was read on the primary before.
    expect(laneOf(await t.get('/api/items?campus=all'))).toBe('replica');
    expect(laneOf(await t.get(`/api/items/${item.id}`, visitor.cookie))).toBe('replica');
    expect(laneOf(await t.get('/api/items?campus=all&searchQuery=tent', visitor.cookie))).toBe('replica');
    // Not the catalogue: the primary's reading pool.
    expect(laneOf(await t.get('/api/notifications', visitor.cookie))).toBe('read');
    // A write, then its writer's catalogue read: on the primary, which has their change.
    const started = await t.post('/api/conversations', { itemId: item.id }, visitor.cookie);
    expect(laneOf(started)).toBe('write');
    expect(laneOf(await t.get(`/api/items/${item.id}`, visitor.cookie))).toBe('read');
    expect(laneOf(await t.get(`/api/items/${item.id}`, owner.cookie))).toBe('replica');
  });
});
