import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { billingHistory } from '../../src/server/db/schema/payments.ts';
import { campusMidnight } from '../../src/shared/calendar.ts';
import { createSignedInUser } from '../factories.ts';
import { providerIntent } from '../helpers/booking-scenario.ts';
import { cardExpiry } from '../helpers/cards.ts';
import { expectMoneyBalanced, settlePayments } from '../helpers/money.ts';
import { day, quoteFor, reserve, scenario, TZ, VISA } from '../helpers/reservation-fixtures.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// The next steps on the server: checkout with a saved card (one authorisation however often
// Pay is pressed), what approval says it charges, billing rows that say what they are, a pending
// request's answer-by time, and the chat between a reservation's two people.

// The steps after checkout; the fee's own amounts are in service-fee.test.ts.
const t = setupTestApp(WITHOUT_SERVICE_FEE);
const db = () => t.database.db;

beforeAll(() => {
  // Connections the concurrent tests opened may still be closing when the test database is dropped.
  t.database.pool?.on('error', () => {});
});

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** Saves a card the way the Payment Methods page does (SetupIntent, test confirmation, save). */
async function saveCard(cookie: string, card = VISA) {
  const setup = await t.post('/api/payment-methods/setup-intent', {}, cookie);
  const { setupIntentId } = setup.json();
  expect((await t.post('/api/payments/test/confirm-setup', { setupIntentId, card }, cookie)).statusCode).toBe(
    200,
  );
  const saved = await t.post('/api/payment-methods', { setupIntentId }, cookie);
  expect(saved.statusCode).toBe(201);
  return saved.json().paymentMethod as { id: string; last4: string };
}

async function counts(itemId: string, intentId: string) {
  const { rows } = await db().execute<{ reservations: number; bills: number }>(sql`
    select (select count(*) from reservations where item_id = ${itemId})::int as reservations,
           (select count(*) from billing_history where stripe_payment_intent_id = ${intentId})::int as bills`);
  return rows[0]!;
}

describe('checkout with a saved card', () => {
  it('authorises the checkout without typing the card; the request then goes through with it', async () => {
    const { borrower, item } = await scenario(t);
    const card = await saveCard(borrower.cookie);
    const quote = await quoteFor(t, borrower.cookie, item.id, day(2), day(4));
    const { paymentIntentId } = quote.json();

    const paid = await t.post(
      '/api/payments/saved-card',
      { paymentIntentId, paymentMethodId: card.id },
      borrower.cookie,
    );
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toEqual({ status: 'requires_capture', paymentIntentId, nextActionUrl: null });
    expect((await providerIntent(t, paymentIntentId)).card).toMatchObject({ brand: 'visa', last4: '4242' });

    const created = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(2), endDate: day(4), stripePaymentIntentId: paymentIntentId },
      borrower.cookie,
    );
    expect(created.statusCode).toBe(201);
    const [bill] = (await t.get('/api/billing-history', borrower.cookie)).json().transactions;
    expect(bill).toMatchObject({
      kind: 'payment',
      status: 'pending',
      amount: '30.00',
      paymentMethodLast4: '4242',
      refundId: null,
    });
    await expectMoneyBalanced(t);
  });

  it('a double click (and ten tabs at once) authorise once and make one request', async () => {
    const { borrower, item } = await scenario(t);
    const card = await saveCard(borrower.cookie);
    const { paymentIntentId } = (await quoteFor(t, borrower.cookie, item.id, day(2), day(3))).json();

    const pays = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.post('/api/payments/saved-card', { paymentIntentId, paymentMethodId: card.id }, borrower.cookie),
      ),
    );
    expect(pays.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(pays.map((r) => r.json().status))).toEqual(new Set(['requires_capture']));
    const intent = await providerIntent(t, paymentIntentId);
    expect(intent).toMatchObject({ status: 'requires_capture', amountCents: 2500, amountReceivedCents: 0 });

    const requests = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.post(
          '/api/reservations',
          { itemId: item.id, startDate: day(2), endDate: day(3), stripePaymentIntentId: paymentIntentId },
          borrower.cookie,
        ),
      ),
    );
    const codes = requests.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c !== 201).every((c) => c === 409)).toBe(true);
    expect(await counts(item.id, paymentIntentId)).toEqual({ reservations: 1, bills: 1 });

    // Pressing Pay once more after the request went: refused, nothing moves.
    const late = await t.post(
      '/api/payments/saved-card',
      { paymentIntentId, paymentMethodId: card.id },
      borrower.cookie,
    );
    expect(late.statusCode).toBe(409);
    expect(await counts(item.id, paymentIntentId)).toEqual({ reservations: 1, bills: 1 });
    await expectMoneyBalanced(t);
  });

  it('refuses bad input, other people’s cards and payments, and visitors, moving nothing', async () => {
    const { borrower, stranger, item } = await scenario(t);
    const mine = await saveCard(borrower.cookie);
    const theirs = await saveCard(stranger.cookie);
    const { paymentIntentId } = (await quoteFor(t, borrower.cookie, item.id, day(2), day(3))).json();
    const pay = (body: unknown, cookie?: string) => t.post('/api/payments/saved-card', body, cookie);

    expect((await pay({ paymentIntentId }, borrower.cookie)).statusCode).toBe(400);
    expect((await pay({ paymentIntentId, paymentMethodId: 'pm_1' }, borrower.cookie)).statusCode).toBe(400);
    expect((await pay({ paymentMethodId: mine.id }, borrower.cookie)).statusCode).toBe(400);
    expect((await pay({ paymentIntentId, paymentMethodId: theirs.id }, borrower.cookie)).statusCode).toBe(
      404,
    );
    expect((await pay({ paymentIntentId, paymentMethodId: MISSING_ID }, borrower.cookie)).statusCode).toBe(
      404,
    );
    // Someone else's checkout, even with their own card: the payment is not theirs.
    expect((await pay({ paymentIntentId, paymentMethodId: theirs.id }, stranger.cookie)).statusCode).toBe(
      404,
    );
    expect(
      (await pay({ paymentIntentId: 'pi_nope', paymentMethodId: mine.id }, borrower.cookie)).statusCode,
    ).toBe(404);
    expect((await pay({ paymentIntentId, paymentMethodId: mine.id })).statusCode).toBe(401);
    expect((await providerIntent(t, paymentIntentId)).status).toBe('requires_payment_method');
  });

  it('a removed card cannot pay, and an expired saved card is declined', async () => {
    const { borrower, item } = await scenario(t);
    const card = await saveCard(borrower.cookie);
    const expired = await saveCard(borrower.cookie, { ...VISA, number: '5555555555554444' });
    const { paymentIntentId } = (await quoteFor(t, borrower.cookie, item.id, day(2), day(3))).json();
    expect((await t.del(`/api/payment-methods/${card.id}`, borrower.cookie)).statusCode).toBe(200);
    expect(
      (
        await t.post(
          '/api/payments/saved-card',
          { paymentIntentId, paymentMethodId: card.id },
          borrower.cookie,
        )
      ).statusCode,
    ).toBe(404);

    // The stored card's expiry passes (cards are checked again when they pay).
    await db().execute(
      sql`update test_payment_methods set expiry_year = 2020 where last4 = '4444' and detached_at is null`,
    );
    const declined = await t.post(
      '/api/payments/saved-card',
      { paymentIntentId, paymentMethodId: expired.id },
      borrower.cookie,
    );
    expect(declined.statusCode).toBe(402);
    expect(declined.json().message).toBe('Your card has expired.');
    expect((await providerIntent(t, paymentIntentId)).status).toBe('requires_payment_method');
    expect(cardExpiry(1).expYear).toBeGreaterThan(2020);
  });
});

describe('what approval charges, and billing rows that say what they are', () => {
  it('the approval notice says what is charged now and what comes back; rows carry their kind and refund id', async () => {
    // Strict: the return before the last day (an early return, decision 034) refunds no rental here.
    const { lender, borrower, item } = await scenario(t, { cancellationPolicy: 'strict' });
    const r = await reserve(t, borrower.cookie, item.id, day(1), day(3));
    const id = r.reservation.id;
    expect((await t.post(`/api/reservations/${id}/approve`, {}, lender.cookie)).statusCode).toBe(200);
    const approval = (await t.get('/api/notifications', borrower.cookie))
      .json()
      .notifications.find((n: { type: string }) => n.type === 'reservation_approved');
    expect(approval.message).toContain(
      'Your card is charged $30.00 now: $10.00 rental and a $20.00 deposit that is refunded when you return the item.',
    );
    await settlePayments(t);
    const { pickupCode } = (await t.get('/api/reservations', borrower.cookie)).json().reservations[0];
    await t.put(`/api/reservations/${id}`, { status: 'active', pickupCode }, lender.cookie);
    // The borrower says it is back, the lender confirms it came back in good condition.
    await t.put(`/api/reservations/${id}`, { status: 'returned' }, borrower.cookie);
    await t.put(`/api/reservations/${id}`, { status: 'completed' }, lender.cookie);
    await settlePayments(t);

    const bills = (await t.get('/api/billing-history', borrower.cookie)).json().transactions;
    const byKind = Object.fromEntries(bills.map((b: { kind: string }) => [b.kind, b]));
    expect(byKind.payment).toMatchObject({ status: 'completed', amount: '30.00', refundId: null });
    expect(byKind.refund).toMatchObject({
      status: 'refunded',
      amount: '20.00',
      refundId: expect.stringMatching(/^re_/),
    });
    const [earning] = (await t.get('/api/billing-history', lender.cookie)).json().transactions;
    expect(earning).toMatchObject({ kind: 'earning', status: 'completed', amount: '10.00', refundId: null });
    const [refundRow] = await db().select().from(billingHistory).where(eq(billingHistory.kind, 'refund'));
    expect(refundRow).toBeDefined();
    await expectMoneyBalanced(t);
  });

  it('a free item’s approval mentions no charge', async () => {
    const { lender, borrower, item } = await scenario(t, { rentalPriceCents: null, depositCents: null });
    const created = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(1), endDate: day(2) },
      borrower.cookie,
    );
    await t.post(`/api/reservations/${created.json().reservation.id}/approve`, {}, lender.cookie);
    const approval = (await t.get('/api/notifications', borrower.cookie))
      .json()
      .notifications.find((n: { type: string }) => n.type === 'reservation_approved');
    expect(approval.message).not.toContain('charged');
  });
});

describe('a pending request’s answer-by time', () => {
  it('is the expiry hours after the request, or the end of its start day if that comes first; gone once answered', async () => {
    const { lender, borrower, item } = await scenario(t);
    const far = await reserve(t, borrower.cookie, item.id, day(10), day(12));
    const hours = t.config.jobs.reservationExpiryHours;
    const created = Date.parse(far.reservation.createdAt);
    expect(Date.parse(far.reservation.respondBy)).toBe(created + hours * 3600_000);

    const soon = await reserve(t, borrower.cookie, item.id, day(0), day(0));
    expect(soon.reservation.respondBy).toBe(
      new Date(
        Math.min(
          Date.parse(soon.reservation.createdAt) + hours * 3600_000,
          campusMidnight(day(1), TZ).getTime(),
        ),
      ).toISOString(),
    );

    const approved = await t.post(`/api/reservations/${far.reservation.id}/approve`, {}, lender.cookie);
    expect(approved.json().reservation.respondBy).toBeNull();
  });
});

describe('POST /api/reservations/:id/conversation', () => {
  it('opens the chat of the two people about the item, for the lender as well as the borrower', async () => {
    const { lender, borrower, stranger, item } = await scenario(t);
    const r = await reserve(t, borrower.cookie, item.id, day(1), day(2));
    const id = r.reservation.id;

    const fromLender = await t.post(`/api/reservations/${id}/conversation`, {}, lender.cookie);
    expect(fromLender.statusCode).toBe(200);
    expect(fromLender.json().conversation).toMatchObject({
      itemId: item.id,
      buyerId: borrower.user.id,
      sellerId: lender.user.id,
      otherUser: { id: borrower.user.id },
    });
    const fromBorrower = await t.post(`/api/reservations/${id}/conversation`, {}, borrower.cookie);
    expect(fromBorrower.json().conversation.id).toBe(fromLender.json().conversation.id);
    // The item page's 'Chat with Seller' lands in the same conversation.
    const fromItem = await t.post('/api/conversations', { itemId: item.id }, borrower.cookie);
    expect(fromItem.json().conversation.id).toBe(fromLender.json().conversation.id);

    expect((await t.post(`/api/reservations/${id}/conversation`, {}, stranger.cookie)).statusCode).toBe(404);
    expect((await t.post(`/api/reservations/${MISSING_ID}/conversation`, {}, lender.cookie)).statusCode).toBe(
      404,
    );
    expect((await t.post('/api/reservations/42/conversation', {}, lender.cookie)).statusCode).toBe(400);
    expect((await t.post(`/api/reservations/${id}/conversation`, {})).statusCode).toBe(401);
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from conversations where item_id = ${item.id}`,
    );
    expect(rows[0]!.n).toBe(1);
    expect(await createSignedInUser(db())).toBeDefined();
  });
});
