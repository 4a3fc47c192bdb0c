import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { StripePaymentProvider } from '../../src/server/adapters/payments/stripe-provider.ts';
import { billingHistory, paymentIntents } from '../../src/server/db/schema/payments.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { paymentEvents } from '../../src/server/db/schema/test-payments.ts';
import { deliverWebhook, signedWebhook, stripeEvent } from '../helpers/fake-stripe.ts';
import { settlePayments, stepStatuses } from '../helpers/money.ts';
import { day, quoteFor, scenario } from '../helpers/reservation-fixtures.ts';
import { FAKE_VISA, setupStripeApp } from '../helpers/stripe-app.ts';
import { WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// Faults on Stripe (a local fake Stripe through the real SDK): the money flow runs through the
// payment outbox and survives Stripe outages and lost answers; the payment intent and refund webhooks
// are taken in, and a replayed or repeated event changes nothing twice. Our billing rows must equal
// Stripe's charged minus refunded for every intent, checked after each test.

// The fee's own money is tested in service-fee.test.ts; these amounts are the pinned booking's.
const { fake, stripe, t, deliver } = await setupStripeApp({
  webhookSecret: 'whsec_outbox_secret',
  config: WITHOUT_SERVICE_FEE,
});
const db = () => t.database.db;

/** Our billing rows against Stripe's own figures, for every intent CampusLoop recorded. */
async function expectBalancedWithStripe() {
  const provider = new StripePaymentProvider(stripe);
  const { rows } = await db().execute<{ id: string; billing: number }>(sql`
    select p.id, coalesce((select sum(case
        when b.kind = 'payment' and b.status = 'completed' then b.amount_cents
        when b.kind = 'refund' and b.status = 'refunded' then -b.amount_cents else 0 end)
      from billing_history b where b.stripe_payment_intent_id = p.id), 0)::int as billing
    from payment_intents p where p.status = 'used'`);
  for (const row of rows) {
    const intent = await provider.retrievePaymentIntent(row.id);
    expect(row.billing, row.id).toBe(intent.amountReceivedCents - intent.amountRefundedCents);
  }
}

async function send(event: object) {
  const response = await deliver(event);
  expect(response.statusCode).toBe(200);
  return response;
}

/** A borrower pays with Stripe.js (the fake authorises) and requests; optionally the lender approves. */
async function stripeRequest(approve = true) {
  // Strict: the return before the last day (an early return, decision 034) refunds no rental here.
  const s = await scenario(t, { cancellationPolicy: 'strict' });
  const { paymentIntentId } = (await quoteFor(t, s.borrower.cookie, s.item.id, day(1), day(3))).json();
  fake.authorise(paymentIntentId, FAKE_VISA);
  const created = await t.post(
    '/api/reservations',
    { itemId: s.item.id, startDate: day(1), endDate: day(3), stripePaymentIntentId: paymentIntentId },
    s.borrower.cookie,
  );
  expect(created.statusCode).toBe(201);
  const id = created.json().reservation.id as string;
  if (approve)
    expect((await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie)).statusCode).toBe(200);
  return { ...s, id, intent: paymentIntentId as string };
}

const requestsTo = (path: RegExp) =>
  fake.requests.filter((r) => r.method === 'POST' && path.test(r.path)).length;

describe('the money flow on Stripe', () => {
  it('survives Stripe errors and a lost answer, charging and refunding exactly once', async () => {
    const { lender, borrower, id, intent } = await stripeRequest();
    fake.failNext(/\/capture$/, 2, 500);
    await settlePayments(t);
    await settlePayments(t);
    expect(await stepStatuses(t, intent)).toEqual(['capture:pending']);
    await settlePayments(t);
    expect(await stepStatuses(t, intent)).toEqual(['capture:succeeded']);
    expect(fake.intent(intent)).toMatchObject({ status: 'succeeded', amount_received: 3000 });

    const code = (await t.get('/api/reservations', borrower.cookie)).json().reservations[0].pickupCode;
    await t.put(`/api/reservations/${id}`, { status: 'active', pickupCode: code }, lender.cookie);
    await t.put(`/api/reservations/${id}`, { status: 'completed' }, lender.cookie);
    // Stripe makes the refund; its answer is lost on the way back.
    fake.failNext(/^\/v1\/refunds$/, 1, 'lose');
    await settlePayments(t);
    expect(fake.chargeOf(intent).amount_refunded).toBe(2000);
    await settlePayments(t);
    expect(await stepStatuses(t, intent)).toEqual(['capture:succeeded', 'refund:succeeded']);
    expect(fake.chargeOf(intent).amount_refunded).toBe(2000);
    const rows = await db().select().from(billingHistory).where(eq(billingHistory.reservationId, id));
    expect(rows.map((b) => `${b.kind}:${b.status}:${b.amountCents}`).sort()).toEqual([
      'earning:completed:1000',
      'payment:completed:3000',
      'refund:refunded:2000',
    ]);
    await expectBalancedWithStripe();
  });
});

describe('payment intent webhooks', () => {
  it('records a failed card confirmation, and a replay of the event is applied once', async () => {
    const { borrower, item } = await scenario(t);
    const { paymentIntentId } = (await quoteFor(t, borrower.cookie, item.id, day(1), day(2))).json();
    const event = stripeEvent('evt_failed_1', 'payment_intent.payment_failed', {
      ...fake.intent(paymentIntentId),
      last_payment_error: { message: 'Your card was declined.' },
    });
    await send(event);
    await send(event);
    const [recorded] = await db().select().from(paymentIntents).where(eq(paymentIntents.id, paymentIntentId));
    expect(recorded).toMatchObject({
      lastError: 'Your card was declined.',
      providerStatus: 'requires_payment_method',
    });
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.id, 'evt_failed_1'))).toHaveLength(
      1,
    );

    fake.authorise(paymentIntentId, FAKE_VISA);
    await send(
      stripeEvent(
        'evt_capturable_1',
        'payment_intent.amount_capturable_updated',
        fake.intent(paymentIntentId),
      ),
    );
    const [authorised] = await db()
      .select()
      .from(paymentIntents)
      .where(eq(paymentIntents.id, paymentIntentId));
    expect(authorised!.providerStatus).toBe('requires_capture');
  });

  it('learns of a charge made while our capture was failing, and does not charge again', async () => {
    const { id, intent } = await stripeRequest();
    fake.failNext(/\/capture$/, 1, 500);
    await settlePayments(t);
    expect(await stepStatuses(t, intent)).toEqual(['capture:pending']);
    // Someone captured it at Stripe's dashboard meanwhile; Stripe tells us.
    await new StripePaymentProvider(stripe).capturePaymentIntent(intent, 'dashboard-capture');
    await send(stripeEvent('evt_succeeded_1', 'payment_intent.succeeded', fake.intent(intent)));
    await settlePayments(t);
    expect(await stepStatuses(t, intent)).toEqual(['capture:succeeded']);
    // The failed attempt never reached Stripe; the dashboard's is the one capture, ours made none.
    expect(requestsTo(/\/capture$/)).toBe(1);
    const [payment] = await db()
      .select()
      .from(billingHistory)
      .where(sql`${billingHistory.reservationId} = ${id} and ${billingHistory.kind} = 'payment'`);
    expect(payment!.status).toBe('completed');
    await expectBalancedWithStripe();
  });

  it('ends a waiting request whose authorisation Stripe cancelled, and tells both', async () => {
    const { lender, borrower, id, intent } = await stripeRequest(false);
    fake.expire(intent);
    const event = stripeEvent('evt_canceled_1', 'payment_intent.canceled', fake.intent(intent));
    await send(event);
    await send(stripeEvent('evt_canceled_again', 'payment_intent.canceled', fake.intent(intent)));
    await settlePayments(t);
    const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
    expect(row).toMatchObject({
      status: 'cancelled',
      declineReason: 'The card authorisation expired before the lender answered.',
    });
    for (const who of [borrower, lender]) {
      const notes = (await t.get('/api/notifications', who.cookie)).json().notifications;
      expect(notes.filter((n: { type: string }) => n.type === 'reservation_expired')).toHaveLength(1);
    }
    // Nothing was charged, nothing is held: the release finds it cancelled and calls nothing.
    expect(await stepStatuses(t, intent)).toEqual(['release:succeeded']);
    expect(requestsTo(/\/cancel$/)).toBe(0);
    const approve = await t.post(`/api/reservations/${id}/approve`, {}, lender.cookie);
    expect(approve.statusCode).toBe(409);
  });
});

describe('refund webhooks', () => {
  it('records a refund made at Stripe’s dashboard once, however often it is delivered', async () => {
    const { lender, borrower, id, intent } = await stripeRequest();
    await settlePayments(t);
    fake.refundOutside(intent, 500);
    const event = stripeEvent('evt_refunded_1', 'charge.refunded', fake.chargeOf(intent));
    await send(event);
    await send(event);
    await send(stripeEvent('evt_refunded_dup', 'charge.refunded', fake.chargeOf(intent)));
    const support = await db()
      .select()
      .from(billingHistory)
      .where(sql`${billingHistory.reservationId} = ${id} and ${billingHistory.kind} = 'refund'`);
    expect(support).toEqual([
      expect.objectContaining({
        status: 'refunded',
        amountCents: 500,
        userId: borrower.user.id,
        description: 'Refund from CampusLoop support',
      }),
    ]);
    await expectBalancedWithStripe();

    // The deposit refund later counts that one among what was refunded before, and is made in full.
    const code = (await t.get('/api/reservations', borrower.cookie)).json().reservations[0].pickupCode;
    await t.put(`/api/reservations/${id}`, { status: 'active', pickupCode: code }, lender.cookie);
    // The borrower says it is back, the lender confirms it came back in good condition.
    await t.put(`/api/reservations/${id}`, { status: 'returned' }, borrower.cookie);
    await t.put(`/api/reservations/${id}`, { status: 'completed' }, lender.cookie);
    await settlePayments(t);
    expect(fake.chargeOf(intent).amount_refunded).toBe(2500);
    await send(stripeEvent('evt_refunded_2', 'charge.refunded', fake.chargeOf(intent)));
    await expectBalancedWithStripe();
  });

  it('refuses a webhook whose signature does not match, and changes nothing', async () => {
    const { intent } = await stripeRequest();
    fake.refundOutside(intent, 300);
    const { payload } = signedWebhook(
      stripeEvent('evt_forged', 'charge.refunded', fake.chargeOf(intent)),
      'whsec_wrong',
    );
    const forged = await deliverWebhook(t.app, payload, {
      'stripe-signature': signedWebhook({}, 'whsec_wrong').signature,
    });
    expect(forged.statusCode).toBe(400);
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from billing_history where stripe_payment_intent_id = ${intent} and kind = 'refund'`,
    );
    expect(rows[0]!.n).toBe(0);
    fake.refundOutside(intent, -300);
  });
});
