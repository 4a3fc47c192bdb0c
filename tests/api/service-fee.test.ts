import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { ledgerService } from '../../src/server/features/ledger/service.ts';
import { askForMoreDays, bookingAt, providerIntent, rowsOf } from '../helpers/booking-scenario.ts';
import { settlePayments } from '../helpers/money.ts';
import { day, scenario, VISA } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 055: the borrower's service fee at the real defaults (10 % of the rental, at least $1, at most
// $15), from the quote to the refunds. The item is $5/day with a $20 deposit unless a test says otherwise.
// After every test the money checks (tests/helpers/money.ts) hold: captured = refunded + the lender's
// earnings + the platform's fee + the deposit still held. Both databases.

const t = setupTestApp();
const platform = (id: string) => ledgerService.platformShareOfBooking(t.database.db, id);

/** The Reserve dialog's step 2 with the amounts it showed. */
const quoteOf = (cookie: string, itemId: string, to: number, rentalAmount: string, depositAmount: string) =>
  t.post(
    '/api/create-payment-intent',
    { itemId, startDate: day(1), endDate: day(to), rentalAmount, depositAmount },
    cookie,
  );

describe('the service fee at checkout', () => {
  it('GET /api/config gives the rates the server charges by', async () => {
    const config = await t.get('/api/config');
    expect(config.statusCode).toBe(200);
    expect(config.json().fees).toEqual({
      serviceFeePercent: 10,
      serviceFeeMin: '1.00',
      serviceFeeMax: '15.00',
      lenderCommissionPercent: 0,
    });
  });

  it('create-payment-intent answers the fee and authorises rental + fee + deposit', async () => {
    const { borrower, item } = await scenario(t, { rentalPriceCents: 4000 });
    // Three days at $40: $120 of rental, a $12 fee (10 %), the $20 deposit.
    const quote = await quoteOf(borrower.cookie, item.id, 4, '120.00', '20.00');
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({ amount: '152.00', serviceFeeAmount: '12.00' });
    const { paymentIntentId } = quote.json();
    expect((await providerIntent(t, paymentIntentId)).amountCents).toBe(15_200);
    await t.post('/api/payments/test/confirm', { paymentIntentId, card: VISA }, borrower.cookie);
    const create = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(1), endDate: day(4), stripePaymentIntentId: paymentIntentId },
      borrower.cookie,
    );
    expect(create.statusCode, create.body).toBe(201);
    expect(create.json().reservation).toMatchObject({ rentalAmount: '120.00', serviceFeeAmount: '12.00' });
    // The dialog's amounts tampered with: 409, nothing authorised.
    const tampered = await quoteOf(borrower.cookie, item.id, 4, '100.00', '20.00');
    expect(tampered.statusCode).toBe(409);
  });

  it('the minimum and the maximum apply', async () => {
    const small = await scenario(t, { rentalPriceCents: 300, depositCents: 0 });
    const one = await quoteOf(small.borrower.cookie, small.item.id, 2, '3.00', '0');
    expect(one.json()).toMatchObject({ amount: '4.00', serviceFeeAmount: '1.00' });
    const large = await scenario(t, { rentalPriceCents: 100_000, depositCents: 0 });
    const big = await quoteOf(large.borrower.cookie, large.item.id, 3, '2000.00', '0');
    expect(big.json()).toMatchObject({ amount: '2015.00', serviceFeeAmount: '15.00' });
  });

  it('a free item has no fee, and neither has an item with only a deposit', async () => {
    const free = await scenario(t, { rentalPriceCents: null, depositCents: null });
    const made = await t.post(
      '/api/reservations',
      { itemId: free.item.id, startDate: day(1), endDate: day(2) },
      free.borrower.cookie,
    );
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().reservation).toMatchObject({ rentalAmount: '0.00', serviceFeeAmount: '0.00' });
    const depositOnly = await scenario(t, { rentalPriceCents: null, rentalPeriod: null, depositCents: 2500 });
    const quote = await t.post(
      '/api/create-payment-intent',
      {
        itemId: depositOnly.item.id,
        startDate: day(1),
        endDate: day(2),
        depositAmount: '25.00',
        rentalAmount: '0',
      },
      depositOnly.borrower.cookie,
    );
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({ amount: '25.00', serviceFeeAmount: '0.00' });
  });

  it('is snapshotted on the request: a change of the rates afterwards does not apply to it', async () => {
    const b = await bookingAt(t, 'requested');
    const fees = t.config.fees;
    const before = { ...fees };
    // The running app reads the same settings object: raise the fee for what follows.
    Object.assign(fees, { serviceFeePercent: 50, serviceFeeMinCents: 0 });
    try {
      const approve = await t.post(`/api/reservations/${b.id}/approve`, {}, b.lender.cookie);
      expect(approve.statusCode, approve.body).toBe(200);
      expect(approve.json().reservation.serviceFeeAmount).toBe('1.00');
      await settlePayments(t);
      expect((await providerIntent(t, b.intent)).amountReceivedCents).toBe(3100);
      const [row] = await t.database.db.select().from(reservations).where(eq(reservations.id, b.id));
      expect(row).toMatchObject({ serviceFeeCents: 100, serviceFeePercent: 10, lenderCommissionCents: 0 });
    } finally {
      Object.assign(fees, before);
    }
  });

  it('a payment made at the old rates cannot pay for a request at the new ones: 409, nothing made', async () => {
    const { borrower, item } = await scenario(t);
    const quote = await t.post(
      '/api/create-payment-intent',
      { itemId: item.id, startDate: day(1), endDate: day(3), depositAmount: '20.00', rentalAmount: '10.00' },
      borrower.cookie,
    );
    const { paymentIntentId } = quote.json();
    await t.post('/api/payments/test/confirm', { paymentIntentId, card: VISA }, borrower.cookie);
    const fees = t.config.fees;
    const before = { ...fees };
    Object.assign(fees, { serviceFeePercent: 20, serviceFeeMinCents: 0 });
    try {
      const create = await t.post(
        '/api/reservations',
        { itemId: item.id, startDate: day(1), endDate: day(3), stripePaymentIntentId: paymentIntentId },
        borrower.cookie,
      );
      expect(create.statusCode, create.body).toBe(409);
      const [row] = await t.database.db.select().from(reservations).where(eq(reservations.itemId, item.id));
      expect(row).toBeUndefined();
    } finally {
      Object.assign(fees, before);
    }
  });

  it('ten requests at once with one payment: one booking, its fee charged once on approval', async () => {
    const { lender, borrower, item } = await scenario(t);
    const quote = await t.post(
      '/api/create-payment-intent',
      { itemId: item.id, startDate: day(1), endDate: day(3), depositAmount: '20.00', rentalAmount: '10.00' },
      borrower.cookie,
    );
    const { paymentIntentId } = quote.json();
    await t.post('/api/payments/test/confirm', { paymentIntentId, card: VISA }, borrower.cookie);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.post(
          '/api/reservations',
          { itemId: item.id, startDate: day(1), endDate: day(3), stripePaymentIntentId: paymentIntentId },
          borrower.cookie,
        ),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.every((a) => a.statusCode === 201 || a.statusCode === 409)).toBe(true);
    const id = answers.find((a) => a.statusCode === 201)!.json().reservation.id;
    const approvals = await Promise.all(
      Array.from({ length: 5 }, () => t.post(`/api/reservations/${id}/approve`, {}, lender.cookie)),
    );
    expect(approvals.filter((a) => a.statusCode === 200)).toHaveLength(1);
    await settlePayments(t);
    expect((await providerIntent(t, paymentIntentId)).amountReceivedCents).toBe(3100);
    expect(await platform(id)).toEqual({ serviceFeeCents: 100, commissionCents: 0 });
  });
});

describe('the fee comes back in the proportion the rental does', () => {
  it('approved, then cancelled by the borrower late (moderate): half the rental kept, half the fee back', async () => {
    // Four days at $5 on a moderate policy, cancelled inside its 3 days: $10 of the $20 rental kept.
    const b = await bookingAt(t, 'approved', { policy: 'moderate', days: { from: 1, to: 5 } });
    expect(await platform(b.id)).toEqual({ serviceFeeCents: 200, commissionCents: 0 });
    const cancel = await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.borrower.cookie);
    expect(cancel.statusCode, cancel.body).toBe(200);
    await settlePayments(t);
    // Back: the $20 deposit, $10 of rental and $1 of the $2 fee.
    expect(await rowsOf(t, b.id)).toEqual([
      'earning:1000:completed',
      'payment:4200:completed',
      'refund:3100:refunded',
    ]);
    expect(await platform(b.id)).toEqual({ serviceFeeCents: 100, commissionCents: 0 });
    const notice = (await t.get('/api/notifications', b.lender.cookie)).json().notifications[0];
    expect(notice.message).toContain('$31.00 is refunded');
  });

  it('cancelled by the lender after approval: the whole fee back with everything else', async () => {
    const b = await bookingAt(t, 'approved');
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    expect((await providerIntent(t, b.intent)).amountRefundedCents).toBe(3100);
    expect(await platform(b.id)).toEqual({ serviceFeeCents: 0, commissionCents: 0 });
  });

  it('an early return gives back the fee of the unused days; the deposit refund never touches it', async () => {
    // Four days at $5 ($20, a $2 fee), back on the first: $15 of rental and $1.50 of the fee come back.
    const b = await bookingAt(t, 'returned', { days: { from: 0, to: 4 } });
    await settlePayments(t);
    expect(await platform(b.id)).toEqual({ serviceFeeCents: 50, commissionCents: 0 });
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    expect(await rowsOf(t, b.id)).toEqual([
      'earning:500:completed',
      'payment:4200:completed',
      'refund:1650:refunded',
      'refund:2000:refunded',
    ]);
    expect(await platform(b.id)).toEqual({ serviceFeeCents: 50, commissionCents: 0 });
  });

  it('a deposit kept by a claim leaves the fee as it was', async () => {
    const claim = { description: 'The lens cap is missing and the body is scratched.', amount: '8.00' };
    const b = await bookingAt(t, 'claimed', { policy: 'strict', claim });
    const accept = await t.post(`/api/reservations/${b.id}/claim/accept`, {}, b.borrower.cookie);
    expect(accept.statusCode, accept.body).toBe(200);
    await settlePayments(t);
    expect(await platform(b.id)).toEqual({ serviceFeeCents: 100, commissionCents: 0 });
  });
});

describe('the fee on more days', () => {
  it('an extension holds and charges its extra rental and the fee on it; the lender earns the rental', async () => {
    const b = await bookingAt(t, 'approved', { extension: { to: 5, rentalAmount: '10.00' } });
    expect(b.extension!.quote.json()).toMatchObject({ amount: '11.00', serviceFeeAmount: '1.00' });
    expect(b.extension!.extension).toMatchObject({ rentalAmount: '10.00', serviceFeeAmount: '1.00' });
    const approve = await t.post(`/api/extensions/${b.extension!.extension.id}/approve`, {}, b.lender.cookie);
    expect(approve.statusCode, approve.body).toBe(200);
    await settlePayments(t);
    expect((await providerIntent(t, b.extension!.paymentIntentId!)).amountReceivedCents).toBe(1100);
    expect(await platform(b.id)).toEqual({ serviceFeeCents: 200, commissionCents: 0 });
    const view = (await t.get('/api/reservations', b.borrower.cookie)).json().reservations[0];
    expect(view).toMatchObject({ serviceFeeAmount: '1.00', extraServiceFeeAmount: '1.00' });
    // The booking cancelled by the lender: both payments back whole, fees included.
    await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.lender.cookie);
    await settlePayments(t);
    expect(await platform(b.id)).toEqual({ serviceFeeCents: 0, commissionCents: 0 });
  });

  it('the extension payment intent refuses a tampered rental with 409 and authorises nothing', async () => {
    const b = await bookingAt(t, 'approved');
    const asked = await askForMoreDays(t, b.borrower.cookie, b.id, day(5), '11.00');
    expect(asked.quote.statusCode).toBe(409);
    expect(asked.paymentIntentId).toBeUndefined();
  });
});
