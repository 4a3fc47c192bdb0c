import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../../src/server/db/schema/idempotency.ts';
import { paymentSteps } from '../../src/server/db/schema/payments.ts';
import { idempotencyService } from '../../src/server/http/idempotency-keys.ts';
import { settlePayments } from '../helpers/money.ts';
import { day, reserve, scenario } from '../helpers/reservation-fixtures.ts';
import { setupTestApp, type TestContext } from '../helpers/test-app.ts';

// Uncertain outcomes (decision 039): a state change whose answer was lost (a timeout, a 503 after the
// commit) is retried with the same Idempotency-Key, and the retry gets the first answer instead of doing
// it again or saying "already done". Concurrent duplicates make one effect. Keys live 24 hours.

/** A cancel whose answer is lost after its commit, once, when the test asks (the connection was cut). */
let loseNextAnswer = false;
/** A cancel whose database is unreachable before it changes anything, once. */
let failNextBeforeChange = false;
const t: TestContext = setupTestApp(
  {},
  {
    onRoute: (route: RouteOptions) => {
      if (route.method !== 'PUT' || route.url !== '/api/reservations/:id') return;
      const handler = route.handler;
      route.handler = async function (this: FastifyInstance, request, reply) {
        if (failNextBeforeChange) {
          failNextBeforeChange = false;
          throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
        }
        const answer = await handler.call(this, request, reply);
        if (loseNextAnswer) {
          loseNextAnswer = false;
          throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
        }
        return answer;
      };
    },
  },
);

const keyed = (key: string) => ({ 'idempotency-key': key });

async function requestedReservation() {
  const s = await scenario(t);
  const r = await reserve(t, s.borrower.cookie, s.item.id, day(2), day(4));
  expect(r.create?.statusCode).toBe(201);
  return { ...s, id: r.reservation.id as string, intent: r.paymentIntentId! };
}

async function stepsOf(intent: string) {
  const rows = await t.database.db
    .select({ kind: paymentSteps.kind })
    .from(paymentSteps)
    .where(eq(paymentSteps.paymentIntentId, intent));
  return rows.map((r) => r.kind).sort();
}

describe('an Idempotency-Key on a state change', () => {
  it('replays the first answer to a retry whose first answer was lost: the same status and body, done once', async () => {
    const { borrower, id, intent } = await requestedReservation();
    const key = randomUUID();
    const cancel = () =>
      t.request({
        method: 'PUT',
        url: `/api/reservations/${id}`,
        payload: { status: 'cancelled' },
        cookie: borrower.cookie,
        headers: keyed(key),
      });
    const first = await cancel();
    expect(first.statusCode).toBe(200);
    // The client never heard it; it asks again with the same key.
    const retry = await cancel();
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await stepsOf(intent)).toEqual(['release']);
    // Without a key, the same request is a new one: the reservation is already cancelled.
    const unkeyed = await t.put(`/api/reservations/${id}`, { status: 'cancelled' }, borrower.cookie);
    expect(unkeyed.statusCode).toBe(409);
    await settlePayments(t);
  });

  it('refuses the same key for a different body (422) and changes nothing', async () => {
    const { borrower, lender, id } = await requestedReservation();
    const key = randomUUID();
    const approve = await t.request({
      method: 'POST',
      url: `/api/reservations/${id}/approve`,
      payload: {},
      cookie: lender.cookie,
      headers: keyed(key),
    });
    expect(approve.statusCode).toBe(200);
    const other = await t.request({
      method: 'POST',
      url: `/api/reservations/${id}/decline`,
      payload: {},
      cookie: lender.cookie,
      headers: keyed(key),
    });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const list = (await t.get('/api/reservations', borrower.cookie)).json().reservations;
    expect(list.find((r: { id: string }) => r.id === id).status).toBe('approved');
    await settlePayments(t);
  });

  it('keeps keys per person: another person’s same key is their own request', async () => {
    const a = await requestedReservation();
    const b = await requestedReservation();
    const key = randomUUID();
    for (const s of [a, b]) {
      const approve = await t.request({
        method: 'POST',
        url: `/api/reservations/${s.id}/approve`,
        payload: {},
        cookie: s.lender.cookie,
        headers: keyed(key),
      });
      expect(approve.statusCode).toBe(200);
      expect(approve.headers['idempotent-replayed']).toBeUndefined();
    }
    await settlePayments(t);
  });

  it('refuses a malformed key (400) and keeps nothing', async () => {
    const { lender, id } = await requestedReservation();
    const before = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(idempotencyKeys);
    const answer = await t.request({
      method: 'POST',
      url: `/api/reservations/${id}/approve`,
      payload: {},
      cookie: lender.cookie,
      headers: keyed('has spaces in it'),
    });
    expect(answer.statusCode).toBe(400);
    const after = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(idempotencyKeys);
    expect(after[0]!.n).toBe(before[0]!.n);
    const list = (await t.get('/api/reservations', lender.cookie)).json().reservations;
    expect(list.find((r: { id: string }) => r.id === id).status).toBe('pending');
  });

  it('makes one effect of many duplicates at once: one answer, the others told it is still being processed', async () => {
    const { lender, id, intent } = await requestedReservation();
    const key = randomUUID();
    const approve = () =>
      t.request({
        method: 'POST',
        url: `/api/reservations/${id}/approve`,
        payload: {},
        cookie: lender.cookie,
        headers: keyed(key),
      });
    const answers = await Promise.all(Array.from({ length: 12 }, approve));
    const ok = answers.filter((a) => a.statusCode === 200);
    const busy = answers.filter((a) => a.statusCode === 409);
    expect(ok.length + busy.length).toBe(answers.length);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.body)).size).toBe(1);
    for (const a of busy) expect(a.json().code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT');
    expect(await stepsOf(intent)).toEqual(['capture']);
    // Once it is done, every retry gets that one answer.
    const retry = await approve();
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(ok[0]!.body);
    await settlePayments(t);
  });

  it('a 503 before anything committed frees the key: the retry with it runs the cancel', async () => {
    const { borrower, id, intent } = await requestedReservation();
    const key = randomUUID();
    const cancel = () =>
      t.request({
        method: 'PUT',
        url: `/api/reservations/${id}`,
        payload: { status: 'cancelled' },
        cookie: borrower.cookie,
        headers: keyed(key),
      });
    failNextBeforeChange = true;
    expect((await cancel()).statusCode).toBe(503);
    expect(await stepsOf(intent)).toEqual([]);
    const retry = await cancel();
    expect(retry.statusCode).toBe(200);
    expect(retry.json().reservation).toMatchObject({ status: 'cancelled' });
    expect(await stepsOf(intent)).toEqual(['release']);
    await settlePayments(t);
  });

  it('a cancel that committed and then answered 503: the retry is told it was done, never done twice', async () => {
    const { borrower, id, intent } = await requestedReservation();
    const key = randomUUID();
    const cancel = () =>
      t.request({
        method: 'PUT',
        url: `/api/reservations/${id}`,
        payload: { status: 'cancelled' },
        cookie: borrower.cookie,
        headers: keyed(key),
      });
    loseNextAnswer = true;
    expect((await cancel()).statusCode).toBe(503);
    const retry = await cancel();
    expect(retry.statusCode).toBe(409);
    expect(retry.json().code).toBe('IDEMPOTENCY_KEY_DONE');
    expect(await stepsOf(intent)).toEqual(['release']);
    await settlePayments(t);
  });

  it('forgets keys after 24 hours: the cleanup removes them, and an old key is a new request', async () => {
    const { lender, id } = await requestedReservation();
    const key = randomUUID();
    const approve = await t.request({
      method: 'POST',
      url: `/api/reservations/${id}/approve`,
      payload: {},
      cookie: lender.cookie,
      headers: keyed(key),
    });
    expect(approve.statusCode).toBe(200);
    await t.database.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(idempotencyKeys.key, key));
    // Before the cleanup ran: the old key no longer replays (the approve is refused as already done).
    const again = await t.request({
      method: 'POST',
      url: `/api/reservations/${id}/approve`,
      payload: {},
      cookie: lender.cookie,
      headers: keyed(key),
    });
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    await t.database.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(idempotencyKeys.key, key));
    expect(await idempotencyService.forgetExpired(t.database.db, new Date())).toBeGreaterThanOrEqual(1);
    const left = await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(left).toEqual([]);
    await settlePayments(t);
  });
});
