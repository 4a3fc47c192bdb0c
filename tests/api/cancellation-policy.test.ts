import { describe, expect, it } from 'vitest';
import { bookingAt, providerIntent, rowsOf } from '../helpers/booking-scenario.ts';
import { settlePayments } from '../helpers/money.ts';
import { reserve as baseReserve, scenario as baseScenario, day } from '../helpers/reservation-fixtures.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// A borrower's cancellation of a paid booking refunds by the policy the item had when
// it was requested; a lender's always refunds in full. The deposit always comes back. After every test
// the billing rows equal the provider's money (test-app's afterEach).

// The policies' own arithmetic: the fee's share of a cancellation is in service-fee.test.ts.
const t = setupTestApp(WITHOUT_SERVICE_FEE);
const scenario = (policy: 'flexible' | 'moderate' | 'strict') =>
  baseScenario(t, { cancellationPolicy: policy });

const intent = (id: string) => providerIntent(t, id);

/** A $5/day booking with a $20 deposit, requested and approved. */
async function approvedBooking(policy: 'flexible' | 'moderate' | 'strict', start: number, end: number) {
  const b = await bookingAt(t, 'approved', { policy, days: { from: start, to: end }, settle: false });
  expect(b.reservation.cancellationPolicy).toBe(policy);
  return { ...b, intentId: b.intent };
}

describe('cancellation policies', () => {
  it('the item says its policy, and the lender can change it', async () => {
    const { lender, item } = await scenario('moderate');
    expect((await t.get(`/api/items/${item.id}`)).json().item.cancellationPolicy).toBe('moderate');
    const page = (await t.get(`/api/items/${item.id}`)).json().item;
    const {
      id: _id,
      user: _u,
      rating: _r,
      hidden: _h,
      createdAt: _c,
      campus: _ca,
      userId: _ui,
      ...rest
    } = page;
    const put = await t.put(
      `/api/items/${item.id}`,
      { ...rest, cancellationPolicy: 'strict' },
      lender.cookie,
    );
    expect(put.statusCode, put.body).toBe(200);
    expect((await t.get(`/api/items/${item.id}`)).json().item.cancellationPolicy).toBe('strict');
  });

  it('Strict, 7+ days ahead: half the rental and the whole deposit back, even before the capture ran', async () => {
    const b = await approvedBooking('strict', 20, 21);
    // Cancelled before the approval's capture ran: the capture stands, then the refund follows it.
    const cancel = await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.borrower.cookie);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().reservation).toMatchObject({ status: 'cancelled', cancelledBy: 'borrower' });
    await settlePayments(t);
    const paid = await intent(b.intentId);
    expect(paid.amountReceivedCents).toBe(2500);
    expect(paid.amountRefundedCents).toBe(2250);
    expect(await rowsOf(t, b.id)).toEqual([
      'earning:250:completed',
      'payment:2500:completed',
      'refund:2250:refunded',
    ]);
    const notes = (await t.get('/api/notifications', b.lender.cookie)).json().notifications;
    expect(notes[0].message).toContain('the lender keeps $2.50 of the rental');
  });

  it('Flexible, inside 24 hours of the start: the rental is kept, the deposit comes back', async () => {
    const b = await approvedBooking('flexible', 1, 2);
    await settlePayments(t);
    await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.borrower.cookie);
    await settlePayments(t);
    expect((await intent(b.intentId)).amountRefundedCents).toBe(2000);
    expect(await rowsOf(t, b.id)).toEqual([
      'earning:500:completed',
      'payment:2500:completed',
      'refund:2000:refunded',
    ]);
  });

  it('Moderate: in full until 3 days before, half the rental after', async () => {
    const early = await approvedBooking('moderate', 10, 11);
    await settlePayments(t);
    await t.put(`/api/reservations/${early.id}`, { status: 'cancelled' }, early.borrower.cookie);
    await settlePayments(t);
    expect((await intent(early.intentId)).amountRefundedCents).toBe(2500);

    const late = await approvedBooking('moderate', 2, 3);
    await settlePayments(t);
    await t.put(`/api/reservations/${late.id}`, { status: 'cancelled' }, late.borrower.cookie);
    await settlePayments(t);
    expect((await intent(late.intentId)).amountRefundedCents).toBe(2250);
  });

  it("a lender's cancellation refunds in full whatever the policy, and counts on their profile", async () => {
    const b = await approvedBooking('strict', 1, 2);
    await settlePayments(t);
    const cancel = await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.lender.cookie);
    expect(cancel.json().reservation.cancelledBy).toBe('provider');
    await settlePayments(t);
    expect((await intent(b.intentId)).amountRefundedCents).toBe(2500);
    const profile = (await t.get(`/api/users/${b.lender.user.id}`)).json();
    expect(profile.stats.lenderCancellations).toEqual({ cancelled: 1, approved: 1 });
  });

  it('a request cancelled before approval is released whole, whatever the policy', async () => {
    const s = await scenario('strict');
    const booked = await baseReserve(t, s.borrower.cookie, s.item.id, day(1), day(2));
    await t.put(`/api/reservations/${booked.reservation.id}`, { status: 'cancelled' }, s.borrower.cookie);
    await settlePayments(t);
    expect((await intent(booked.paymentIntentId!)).status).toBe('canceled');
  });
});
