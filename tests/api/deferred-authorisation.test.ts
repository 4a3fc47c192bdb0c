import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { paymentSteps } from '../../src/server/db/schema/payments.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { paymentStepService } from '../../src/server/features/payment-steps/service.ts';
import { extensionService, reservationService } from '../../src/server/features/reservations/service.ts';
import { campusMidnight } from '../../src/shared/calendar.ts';
import {
  askForMoreDays,
  billingOf,
  bookingAt,
  notices,
  providerIntent,
  providerSteps,
} from '../helpers/booking-scenario.ts';
import { flakyProvider } from '../helpers/flaky-provider.ts';
import { reservationDeps, settlePayments, stepDeps } from '../helpers/money.ts';
import { day, quoteFor, reserve, scenario, VISA } from '../helpers/reservation-fixtures.ts';
import { setupTestApp, type TestContext, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// Decision 062: a paid booking that starts more than AUTHORISE_AHEAD_DAYS (5) ahead holds nothing at the
// request. The borrower's card is saved (a SetupIntent), the lender may approve, and the card is held
// off-session from 5 days before the start, then charged as an approval charges. A refused hold
// (declined, or the bank asks for the cardholder) waits for the borrower until a deadline; unfixed, the
// booking ends with nothing charged. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL; after
// every test our billing rows equal the provider's money (setupTestApp).

const DAY = 86_400_000;
/** Stripe's test cards for saved cards paid off-session. */
const NEEDS_AUTH_ALWAYS = { ...VISA, number: '4000 0027 6000 3184' };
const AUTH_UNLESS_SET_UP = { ...VISA, number: '4000 0025 0000 3155' };
const DECLINES_OFF_SESSION = { ...VISA, number: '4000 0000 0000 0341' };

let flaky!: ReturnType<typeof flakyProvider>;
const t = setupTestApp(WITHOUT_SERVICE_FEE, {
  payments: (db) => {
    flaky = flakyProvider(new TestPaymentProvider(db));
    return flaky.provider;
  },
});
const db = () => t.database.db;

/** The Payment Methods page's calls: a SetupIntent, the card confirmed on it, the card saved. */
async function saveCard(context: TestContext, cookie: string, card: typeof VISA): Promise<string> {
  const setup = await context.post('/api/payment-methods/setup-intent', {}, cookie);
  expect(setup.statusCode, setup.body).toBe(200);
  const { setupIntentId } = setup.json();
  const confirmed = await context.post('/api/payments/test/confirm-setup', { setupIntentId, card }, cookie);
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const saved = await context.post('/api/payment-methods', { setupIntentId }, cookie);
  expect(saved.statusCode, saved.body).toBe(201);
  return saved.json().paymentMethod.id;
}

/** The Reserve dialog far ahead: the intent (not confirmed), the card saved, the request naming it. */
async function farRequest(
  card = VISA,
  days = { from: 20, to: 22 },
  policy?: 'flexible' | 'moderate' | 'strict',
) {
  const s = await scenario(t, policy ? { cancellationPolicy: policy } : {});
  const quote = await quoteFor(t, s.borrower.cookie, s.item.id, day(days.from), day(days.to));
  expect(quote.statusCode, quote.body).toBe(200);
  const { paymentIntentId, authoriseFrom } = quote.json();
  const paymentMethodId = await saveCard(t, s.borrower.cookie, card);
  const create = await t.post(
    '/api/reservations',
    {
      itemId: s.item.id,
      startDate: day(days.from),
      endDate: day(days.to),
      stripePaymentIntentId: paymentIntentId,
      paymentMethodId,
    },
    s.borrower.cookie,
  );
  expect(create.statusCode, create.body).toBe(201);
  return {
    ...s,
    id: create.json().reservation.id as string,
    intent: paymentIntentId as string,
    authoriseFrom: authoriseFrom as string,
    paymentMethodId,
    totalCents: 2000 + 5 * 100 * (days.to - days.from),
  };
}

/** Time passes to the hold's day: the off-session authorisation is due, and the jobs round runs it. */
async function holdDay(intentId: string) {
  await db()
    .update(paymentSteps)
    .set({ notBefore: new Date(Date.now() - 60_000) })
    .where(and(eq(paymentSteps.paymentIntentId, intentId), eq(paymentSteps.kind, 'authorise')));
  return paymentStepService.authoriseDue({ ...stepDeps(t), timeZone: t.config.campusTimeZone });
}

async function rowOf(id: string) {
  const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
  return row!;
}

describe('a booking that starts far ahead', () => {
  it('saves the card and holds nothing; approval charges nothing; the hold close to the start is charged', async () => {
    const b = await farRequest();
    // The dialog was told when: campus midnight five days before the start.
    expect(b.authoriseFrom).toBe(campusMidnight(day(15), t.config.campusTimeZone).toISOString());
    expect(await providerIntent(t, b.intent)).toMatchObject({
      status: 'requires_payment_method',
      amountReceivedCents: 0,
    });
    expect(await providerSteps(t, b.intent)).toEqual([`authorise:deferred:${b.totalCents}:pending`]);
    const row = await rowOf(b.id);
    expect(row.authorisedAt).toBeNull();
    expect(row.authoriseFrom?.toISOString()).toBe(b.authoriseFrom);
    // Both parties see what will happen and when.
    const seen = (await t.get('/api/reservations', b.lender.cookie)).json().reservations[0];
    expect(seen.cardHold).toEqual({ from: b.authoriseFrom, held: false, problem: null, fixBy: null });

    const approve = await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie);
    expect(approve.statusCode, approve.body).toBe(200);
    await settlePayments(t);
    // The capture waits behind the hold: nothing was asked of the card yet.
    expect(await providerSteps(t, b.intent)).toEqual([
      `authorise:deferred:${b.totalCents}:pending`,
      `capture:approval:${b.totalCents}:pending`,
    ]);
    expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'requires_payment_method' });
    expect(await billingOf(t, { intentId: b.intent })).toEqual([
      'earning:1000:pending',
      `payment:${b.totalCents}:pending`,
    ]);

    expect(await holdDay(b.intent)).toBe(1);
    await settlePayments(t);
    expect(await providerSteps(t, b.intent)).toEqual([
      `authorise:deferred:${b.totalCents}:succeeded`,
      `capture:approval:${b.totalCents}:succeeded`,
    ]);
    expect(await providerIntent(t, b.intent)).toMatchObject({
      status: 'succeeded',
      amountReceivedCents: b.totalCents,
    });
    expect(await billingOf(t, { intentId: b.intent })).toEqual([
      'earning:1000:completed',
      `payment:${b.totalCents}:completed`,
    ]);
    expect((await rowOf(b.id)).authorisedAt).not.toBeNull();
  });

  it('held before the lender answers: the approval then charges the hold as today', async () => {
    const b = await farRequest();
    await holdDay(b.intent);
    expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'requires_capture' });
    const approve = await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie);
    expect(approve.statusCode, approve.body).toBe(200);
    await settlePayments(t);
    expect(await providerIntent(t, b.intent)).toMatchObject({ amountReceivedCents: b.totalCents });
  });

  it('declined before the hold: nothing is ever asked of the card', async () => {
    const b = await farRequest();
    const before = flaky.calls.authoriseOffSession;
    const decline = await t.post(`/api/reservations/${b.id}/decline`, {}, b.lender.cookie);
    expect(decline.statusCode, decline.body).toBe(200);
    await settlePayments(t);
    expect(await providerSteps(t, b.intent)).toEqual([
      `authorise:deferred:${b.totalCents}:superseded`,
      `release:decline:${b.totalCents}:succeeded`,
    ]);
    expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'canceled', amountReceivedCents: 0 });
    expect(flaky.calls.authoriseOffSession - before).toBe(0);
  });

  it('a card that needs authentication unless set up is held off-session once saved', async () => {
    const b = await farRequest(AUTH_UNLESS_SET_UP);
    await holdDay(b.intent);
    expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'requires_capture' });
  });

  it('refuses a saved card that is not the borrower’s, and an unconfirmed intent without a card', async () => {
    const s = await scenario(t);
    const other = await saveCard(t, s.stranger.cookie, VISA);
    const quote = await quoteFor(t, s.borrower.cookie, s.item.id, day(20), day(22));
    const body = {
      itemId: s.item.id,
      startDate: day(20),
      endDate: day(22),
      stripePaymentIntentId: quote.json().paymentIntentId,
    };
    const notHers = await t.post('/api/reservations', { ...body, paymentMethodId: other }, s.borrower.cookie);
    expect(notHers.statusCode).toBe(404);
    const noCard = await t.post('/api/reservations', body, s.borrower.cookie);
    expect(noCard.statusCode).toBe(402);
    const bad = await t.post('/api/reservations', { ...body, paymentMethodId: 'x' }, s.borrower.cookie);
    expect(bad.statusCode).toBe(400);
    expect(await db().select().from(reservations).where(eq(reservations.itemId, s.item.id))).toEqual([]);
  });
});

describe('a booking that starts soon', () => {
  it('is held at the request as before: no saved card, no later step', async () => {
    const s = await scenario(t);
    const quote = await quoteFor(t, s.borrower.cookie, s.item.id, day(2), day(3));
    expect(quote.json().authoriseFrom).toBeNull();
    const r = await reserve(t, s.borrower.cookie, s.item.id, day(2), day(3));
    expect(r.create?.statusCode, r.create?.body).toBe(201);
    expect(await providerIntent(t, r.paymentIntentId!)).toMatchObject({ status: 'requires_capture' });
    expect(await providerSteps(t, r.paymentIntentId!)).toEqual([]);
    expect(r.reservation.cardHold).toBeNull();
    expect((await rowOf(r.reservation.id)).authorisedAt).not.toBeNull();
  });
});

describe('when the bank refuses the hold', () => {
  it('asks the borrower to authenticate; confirmed through 3-D Secure, the approved booking is charged', async () => {
    const b = await farRequest(NEEDS_AUTH_ALWAYS);
    expect((await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie)).statusCode).toBe(200);
    await holdDay(b.intent);
    await settlePayments(t);
    expect(await providerSteps(t, b.intent)).toEqual([
      `authorise:deferred:${b.totalCents}:waiting`,
      `capture:approval:${b.totalCents}:pending`,
    ]);
    const row = await rowOf(b.id);
    expect(row.cardProblem).toBe('authentication_required');
    expect(row.cardFixBy!.getTime()).toBeGreaterThan(Date.now() + 47 * 3600_000);
    const [told] = await notices(t, b.borrower.cookie, { id: b.id, type: 'system' });
    expect(told?.title).toBe('Confirm your card');

    const fix = await t.post(
      `/api/reservations/${b.id}/card`,
      { paymentMethodId: b.paymentMethodId },
      b.borrower.cookie,
    );
    expect(fix.statusCode, fix.body).toBe(200);
    expect(fix.json()).toMatchObject({ status: 'requires_action' });
    expect(fix.json().nextActionUrl).toContain(b.intent);
    const bank = await t.post(
      '/api/payments/test/authenticate',
      { paymentIntentId: b.intent, approved: true },
      b.borrower.cookie,
    );
    expect(bank.json().status).toBe('requires_capture');
    // Back from the bank at /reservations.
    const back = await t.post(
      '/api/reservations/complete-payment',
      { paymentIntentId: b.intent },
      b.borrower.cookie,
    );
    expect(back.statusCode, back.body).toBe(200);
    await settlePayments(t);
    expect(await providerIntent(t, b.intent)).toMatchObject({
      status: 'succeeded',
      amountReceivedCents: b.totalCents,
    });
    const after = await rowOf(b.id);
    expect(after.cardProblem).toBeNull();
    expect(after.authorisedAt).not.toBeNull();
  });

  it('a declined card is replaced by another saved card, which is held at once', async () => {
    const b = await farRequest(DECLINES_OFF_SESSION);
    await holdDay(b.intent);
    expect((await rowOf(b.id)).cardProblem).toBe('declined');
    const [told] = await notices(t, b.borrower.cookie, { id: b.id, type: 'system' });
    expect(told?.title).toBe('Your card was declined');
    // The same card declines with the borrower present too: a clear 402, nothing changed.
    const again = await t.post(
      `/api/reservations/${b.id}/card`,
      { paymentMethodId: b.paymentMethodId },
      b.borrower.cookie,
    );
    expect(again.statusCode).toBe(402);
    expect((await rowOf(b.id)).cardProblem).toBe('declined');

    const another = await saveCard(t, b.borrower.cookie, VISA);
    const fix = await t.post(
      `/api/reservations/${b.id}/card`,
      { paymentMethodId: another },
      b.borrower.cookie,
    );
    expect(fix.statusCode, fix.body).toBe(200);
    expect(fix.json().status).toBe('requires_capture');
    await settlePayments(t);
    expect(await providerSteps(t, b.intent)).toEqual([`authorise:deferred:${b.totalCents}:succeeded`]);
    expect((await rowOf(b.id)).cardProblem).toBeNull();
    // The lender approves a held request as today.
    expect((await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie)).statusCode).toBe(200);
    await settlePayments(t);
    expect(await providerIntent(t, b.intent)).toMatchObject({ amountReceivedCents: b.totalCents });
  });

  it('not fixed by the deadline: the approved booking is cancelled, both told, nothing charged', async () => {
    const b = await farRequest(DECLINES_OFF_SESSION);
    expect((await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie)).statusCode).toBe(200);
    await holdDay(b.intent);
    const deps = reservationDeps(t);
    // Before the deadline the job leaves it alone.
    expect(await reservationService.cancelUnfixedCards(deps)).toBe(0);
    const late = new Date((await rowOf(b.id)).cardFixBy!.getTime() + 1000);
    expect(await reservationService.cancelUnfixedCards(deps, late)).toBe(1);
    // A second round (another instance) finds nothing more to do.
    expect(await reservationService.cancelUnfixedCards(deps, late)).toBe(0);
    await settlePayments(t);
    const row = await rowOf(b.id);
    expect(row).toMatchObject({ status: 'cancelled', cancelledBy: 'system' });
    expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'canceled', amountReceivedCents: 0 });
    expect(await billingOf(t, { intentId: b.intent })).toEqual([`payment:${b.totalCents}:refunded`]);
    const [toLender] = await notices(t, b.lender.cookie, { id: b.id, type: 'reservation_cancelled' });
    expect(toLender?.message).toMatch(/could not be charged/);
    const [toBorrower] = await notices(t, b.borrower.cookie, { id: b.id, type: 'reservation_cancelled' });
    expect(toBorrower?.message).toMatch(/Nothing was charged/);
    // Too late to fix now.
    const fix = await t.post(
      `/api/reservations/${b.id}/card`,
      { paymentMethodId: b.paymentMethodId },
      b.borrower.cookie,
    );
    expect(fix.statusCode).toBe(409);
  });

  // A strict policy keeps the rental of a cancellation this close to the start, but only of money taken:
  // nothing was, so nothing is kept and the lender earns nothing (decision 062, as built).
  for (const moment of ['while the hold waits for a card fix', 'before the hold was made'] as const) {
    it(`cancelled by the borrower ${moment}: nothing charged, nothing kept, both told`, async () => {
      const b = await farRequest(DECLINES_OFF_SESSION, { from: 6, to: 8 }, 'strict');
      expect(b.authoriseFrom).toBeTruthy();
      expect((await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie)).statusCode).toBe(200);
      if (moment === 'while the hold waits for a card fix') {
        await holdDay(b.intent);
        expect((await rowOf(b.id)).cardProblem).toBeTruthy();
      }
      const cancel = await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.borrower.cookie);
      expect(cancel.statusCode, cancel.body).toBe(200);
      await settlePayments(t);
      expect(await rowOf(b.id)).toMatchObject({ status: 'cancelled' });
      const steps = await db().select().from(paymentSteps).where(eq(paymentSteps.paymentIntentId, b.intent));
      expect(steps.filter((x) => x.kind === 'authorise').map((x) => x.status)).toEqual(['superseded']);
      expect(steps.filter((x) => x.kind === 'capture').map((x) => x.status)).toEqual(['superseded']);
      expect(steps.some((x) => x.kind === 'refund')).toBe(false);
      expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'canceled', amountReceivedCents: 0 });
      expect(await billingOf(t, { intentId: b.intent })).toEqual([`payment:${b.totalCents}:refunded`]);
      const { rows } = await db().execute<{ cents: number }>(
        sql`select coalesce(sum(amount_cents), 0)::int as cents from earning_entries where reservation_id = ${b.id}`,
      );
      expect(rows[0]!.cents).toBe(0);
      expect(await notices(t, b.lender.cookie, { id: b.id, type: 'reservation_cancelled' })).toHaveLength(1);
      // Nothing is left for the jobs round to run.
      expect(await holdDay(b.intent)).toBe(0);
    });
  }

  it('the fix is the borrower’s alone, for a booking that needs one, with a saved card', async () => {
    const b = await farRequest(DECLINES_OFF_SESSION);
    const url = `/api/reservations/${b.id}/card`;
    const body = { paymentMethodId: b.paymentMethodId };
    const notNeeded = await t.post(url, body, b.borrower.cookie);
    expect(notNeeded.statusCode).toBe(409);
    expect(notNeeded.json().code).toBe('CARD_NOT_NEEDED');
    await holdDay(b.intent);
    expect((await t.post(url, body, b.stranger.cookie)).statusCode).toBe(404);
    expect((await t.post(url, body, b.lender.cookie)).statusCode).toBe(403);
    expect((await t.post(url, body, '')).statusCode).toBe(401);
    expect((await t.post(url, { paymentMethodId: 'nope' }, b.borrower.cookie)).statusCode).toBe(400);
    const unknown = { paymentMethodId: '00000000-0000-4000-8000-000000000000' };
    expect((await t.post(url, unknown, b.borrower.cookie)).statusCode).toBe(404);
    expect((await rowOf(b.id)).cardProblem).toBe('declined');
  });
});

describe('races and faults', () => {
  it('approvals and authorisation rounds at once make one hold and one charge', async () => {
    const b = await farRequest();
    await db()
      .update(paymentSteps)
      .set({ notBefore: new Date(Date.now() - 60_000) })
      .where(eq(paymentSteps.paymentIntentId, b.intent));
    const deps = { ...stepDeps(t), timeZone: t.config.campusTimeZone };
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie)),
      ...Array.from({ length: 4 }, () => paymentStepService.authoriseDue(deps)),
    ]);
    const codes = results.slice(0, 4).map((r) => (r as { statusCode: number }).statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    await settlePayments(t);
    expect(await providerIntent(t, b.intent)).toMatchObject({
      status: 'succeeded',
      amountReceivedCents: b.totalCents,
    });
    const steps = await providerSteps(t, b.intent);
    expect(steps.filter((s) => s.startsWith('capture'))).toEqual([
      `capture:approval:${b.totalCents}:succeeded`,
    ]);
    expect(steps.filter((s) => s.startsWith('authorise'))).toEqual([
      `authorise:deferred:${b.totalCents}:succeeded`,
    ]);
  });

  it('a crash after the bank held the card: the next attempt looks first and holds nothing twice', async () => {
    const b = await farRequest();
    flaky.loseAnswers('authoriseOffSession', 1);
    const before = flaky.calls.authoriseOffSession;
    await holdDay(b.intent);
    // The provider held it; we never heard.
    expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'requires_capture' });
    const [step] = await db().select().from(paymentSteps).where(eq(paymentSteps.paymentIntentId, b.intent));
    expect(step?.status).toBe('pending');
    expect((await rowOf(b.id)).authorisedAt).toBeNull();
    flaky.heal();
    await settlePayments(t);
    expect(flaky.calls.authoriseOffSession - before).toBe(1);
    expect(await providerSteps(t, b.intent)).toEqual([`authorise:deferred:${b.totalCents}:succeeded`]);
    expect((await rowOf(b.id)).authorisedAt).not.toBeNull();
  });

  it('a provider outage at the hold is retried like any step', async () => {
    const b = await farRequest();
    flaky.failNext('authoriseOffSession', 1);
    await holdDay(b.intent);
    expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'requires_payment_method' });
    flaky.heal();
    await settlePayments(t);
    expect(await providerIntent(t, b.intent)).toMatchObject({ status: 'requires_capture' });
  });
});

describe('a request for more days asked 8 days before the lender answers', () => {
  it('lapses: approving it is refused and its dead hold is never captured', async () => {
    const b = await bookingAt(t, 'approved', { days: { from: 1, to: 20 } });
    const ask = await askForMoreDays(t, b.borrower.cookie, b.id, day(22), '10.00');
    expect(ask.request?.statusCode, ask.request?.body).toBe(201);
    const extensionId = ask.extension.id as string;
    await db().execute(
      sql`update reservation_extensions set authorised_at = ${new Date(Date.now() - 8 * DAY)} where id = ${extensionId}`,
    );
    const approve = await t.post(`/api/extensions/${extensionId}/approve`, {}, b.lender.cookie);
    expect(approve.statusCode).toBe(409);
    expect(approve.json().code).toBe('AUTHORISATION_LAPSED');
    expect(await extensionService.expirePending(reservationDeps(t))).toBe(1);
    await settlePayments(t);
    expect(await providerSteps(t, ask.paymentIntentId!)).toEqual([
      expect.stringMatching(/^release:expiry:\d+:succeeded$/),
    ]);
    expect(await providerIntent(t, ask.paymentIntentId!)).toMatchObject({
      status: 'canceled',
      amountReceivedCents: 0,
    });
  });
});
