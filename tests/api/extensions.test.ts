import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { reservationExtensions } from '../../src/server/db/schema/extensions.ts';
import { billingHistory, paymentSteps } from '../../src/server/db/schema/payments.ts';
import { reservationReminders, reservations } from '../../src/server/db/schema/reservations.ts';
import { extensionService } from '../../src/server/features/reservations/service.ts';
import { campusMidnight } from '../../src/shared/calendar.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import {
  askForMoreDays as askForMoreDaysOn,
  billingOf,
  bookingAt,
  providerIntent,
} from '../helpers/booking-scenario.ts';
import { flakyProvider } from '../helpers/flaky-provider.ts';
import { settlePayments } from '../helpers/money.ts';
import { day, reserve, scenario, VISA, VISA_3DS } from '../helpers/reservation-fixtures.ts';
import { rowCounts } from '../helpers/row-counts.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// Decision 031: more days on a booking. The borrower asks (a paid extension authorises
// the extra rental on its own payment), the lender approves (the end date moves, the extra is captured)
// or declines (released); unanswered it lapses. Overlaps are refused up front and re-checked under the
// item's lock; concurrent approvals charge once; a failing provider is retried without counting twice.
// After every test our billing rows equal the provider's money (setupTestApp). Runs on PGlite and, with
// TEST_DATABASE_URL, on PostgreSQL.

let flaky!: ReturnType<typeof flakyProvider>;
// The extra rental's own arithmetic: the fee on an extension is in service-fee.test.ts.
const t = setupTestApp(WITHOUT_SERVICE_FEE, {
  payments: (db) => {
    flaky = flakyProvider(new TestPaymentProvider(db));
    return flaky.provider;
  },
});
const db = () => t.database.db;
const DECLINED = { ...VISA, number: '4000 0000 0000 0002' };

/** A paid booking ($5/day, $20 deposit) from day 1 to day 3, approved and charged. */
const approvedBooking = (item: Parameters<typeof scenario>[1] = {}) => bookingAt(t, 'approved', { item });

/** The borrower's dialog: an authorisation of the extra rental, the card, then the request. */
const askForMoreDays = (cookie: string, id: string, endDate: string, rentalAmount: string, card = VISA) =>
  askForMoreDaysOn(t, cookie, id, endDate, rentalAmount, card);

async function endDateOf(id: string) {
  const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
  return row!.endDate;
}

async function noticeTypes(cookie: string) {
  const response = await t.get('/api/notifications', cookie);
  return (response.json().notifications as { type: string }[]).map((n) => n.type);
}

describe('asking for more days on a paid booking', () => {
  it('authorises the extra rental only, and the lender’s approval moves the end date and charges it', async () => {
    const s = await approvedBooking();
    const ask = await askForMoreDays(s.borrower.cookie, s.id, day(5), '10.00');
    expect(ask.quote.statusCode).toBe(200);
    expect(ask.quote.json().amount).toBe('10.00');
    expect(ask.request?.statusCode).toBe(201);
    expect(ask.extension).toMatchObject({
      reservationId: s.id,
      previousEndDate: day(3),
      newEndDate: day(5),
      rentalAmount: '10.00',
      status: 'pending',
    });
    // Authorised, not charged; the booking is unchanged until the lender answers.
    expect(await providerIntent(t, ask.paymentIntentId!)).toMatchObject({
      status: 'requires_capture',
      amountCents: 1000,
    });
    expect(await endDateOf(s.id)).toBe(day(3));
    const lenderView = (await t.get('/api/reservations', s.lender.cookie)).json().reservations[0];
    expect(lenderView.pendingExtension).toMatchObject({
      id: ask.extension.id,
      newEndDate: day(5),
      rentalAmount: '10.00',
    });
    expect(await noticeTypes(s.lender.cookie)).toContain('extension_requested');

    const approve = await t.post(`/api/extensions/${ask.extension.id}/approve`, {}, s.lender.cookie);
    expect(approve.statusCode).toBe(200);
    expect(approve.json().extension.status).toBe('approved');
    expect(await endDateOf(s.id)).toBe(day(5));
    // The calendar: the booked days now run to the new end.
    const availability = (await t.get(`/api/items/${s.item.id}/availability`)).json();
    expect(availability.booked).toContainEqual({ startDate: day(1), endDate: day(5) });
    expect((await t.get('/api/reservations', s.borrower.cookie)).json().reservations[0]).toMatchObject({
      endDate: day(5),
      rentalAmount: '10.00',
      extraRentalAmount: '10.00',
      pendingExtension: null,
    });

    // The billing rows wait for the provider, then say what it did: the borrower paid, the lender earned.
    expect(await billingOf(t, { intentId: ask.paymentIntentId! }, 'kind:status:amount')).toEqual([
      'earning:pending:1000',
      'payment:pending:1000',
    ]);
    await settlePayments(t);
    expect(await providerIntent(t, ask.paymentIntentId!)).toMatchObject({
      status: 'succeeded',
      amountReceivedCents: 1000,
    });
    expect(await billingOf(t, { intentId: ask.paymentIntentId! }, 'kind:status:amount')).toEqual([
      'earning:completed:1000',
      'payment:completed:1000',
    ]);
    // The booking's own payment is untouched: $30 charged, earning $10.
    expect(await billingOf(t, { intentId: s.intent }, 'kind:status:amount')).toEqual([
      'earning:completed:1000',
      'payment:completed:3000',
    ]);
    const earning = await t.get('/api/billing-history', s.lender.cookie);
    expect(JSON.stringify(earning.json())).toContain('extended to');
    expect(await noticeTypes(s.borrower.cookie)).toContain('extension_approved');
    expect(await noticeTypes(s.lender.cookie)).toContain('extension_approved');
  });

  it('works for a picked-up (active) booking too', async () => {
    const s = await approvedBooking();
    const code = (await t.get('/api/reservations', s.borrower.cookie)).json().reservations[0].pickupCode;
    expect(
      (await t.put(`/api/reservations/${s.id}`, { status: 'active', pickupCode: code }, s.lender.cookie))
        .statusCode,
    ).toBe(200);
    // The return reminder went out for the old day; the new one gets its own.
    await db()
      .insert(reservationReminders)
      .values([
        { reservationId: s.id, kind: 'pickup_eve' },
        { reservationId: s.id, kind: 'return_eve' },
      ]);
    const ask = await askForMoreDays(s.borrower.cookie, s.id, day(4), '5.00');
    expect(ask.request?.statusCode).toBe(201);
    expect(
      (await t.post(`/api/extensions/${ask.extension.id}/approve`, {}, s.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    expect(await endDateOf(s.id)).toBe(day(4));
    const reminders = await db()
      .select({ kind: reservationReminders.kind })
      .from(reservationReminders)
      .where(eq(reservationReminders.reservationId, s.id));
    expect(reminders.map((r) => r.kind)).toEqual(['pickup_eve']);
    expect(await billingOf(t, { intentId: ask.paymentIntentId! }, 'kind:status:amount')).toEqual([
      'earning:completed:500',
      'payment:completed:500',
    ]);
  });

  it('a decline, the borrower taking it back, and expiry each release the hold and keep the end date', async () => {
    const s = await approvedBooking();
    const declined = await askForMoreDays(s.borrower.cookie, s.id, day(5), '10.00');
    expect(
      (await t.post(`/api/extensions/${declined.extension.id}/decline`, {}, s.lender.cookie)).statusCode,
    ).toBe(200);
    const cancelled = await askForMoreDays(s.borrower.cookie, s.id, day(4), '5.00');
    expect(cancelled.request?.statusCode).toBe(201);
    expect(
      (await t.post(`/api/extensions/${cancelled.extension.id}/cancel`, {}, s.borrower.cookie)).statusCode,
    ).toBe(200);
    const lapsing = await askForMoreDays(s.borrower.cookie, s.id, day(6), '15.00');
    expect(lapsing.request?.statusCode).toBe(201);
    // Not yet: the booking's last day is not over.
    const deps = {
      db: db(),
      payments: t.app.payments,
      jobs: t.app.jobs,
      timeZone: t.config.campusTimeZone,
      fees: t.config.fees,
    };
    expect(await extensionService.expirePending(deps, campusMidnight(day(3), deps.timeZone))).toBe(0);
    expect(await extensionService.expirePending(deps, campusMidnight(day(4), deps.timeZone))).toBe(1);
    await settlePayments(t);
    for (const intent of [declined, cancelled, lapsing].map((a) => a.paymentIntentId!)) {
      expect(await providerIntent(t, intent)).toMatchObject({ status: 'canceled', amountReceivedCents: 0 });
      expect(await billingOf(t, { intentId: intent }, 'kind:status:amount')).toEqual([
        `payment:refunded:${(await providerIntent(t, intent)).amountCents}`,
      ]);
    }
    const statuses = await db()
      .select({ status: reservationExtensions.status })
      .from(reservationExtensions)
      .where(eq(reservationExtensions.reservationId, s.id));
    expect(statuses.map((r) => r.status).sort()).toEqual(['cancelled', 'declined', 'expired']);
    expect(await endDateOf(s.id)).toBe(day(3));
    expect(await noticeTypes(s.borrower.cookie)).toContain('extension_declined');
    expect(await noticeTypes(s.lender.cookie)).toContain('extension_cancelled');
  });

  it('a cancelled booking gives back an approved extension’s charge', async () => {
    const s = await approvedBooking();
    const ask = await askForMoreDays(s.borrower.cookie, s.id, day(5), '10.00');
    await t.post(`/api/extensions/${ask.extension.id}/approve`, {}, s.lender.cookie);
    await settlePayments(t);
    expect(
      (await t.put(`/api/reservations/${s.id}`, { status: 'cancelled' }, s.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    expect(await providerIntent(t, ask.paymentIntentId!)).toMatchObject({
      amountReceivedCents: 1000,
      amountRefundedCents: 1000,
    });
    expect(await billingOf(t, { intentId: ask.paymentIntentId! }, 'kind:status:amount')).toEqual([
      'earning:refunded:1000',
      'payment:completed:1000',
      'refund:refunded:1000',
    ]);
  });

  it('the 3-D Secure return makes the request from the authenticated payment, once', async () => {
    const s = await approvedBooking();
    const ask = await askForMoreDays(s.borrower.cookie, s.id, day(5), '10.00', VISA_3DS);
    expect(ask.confirm?.json().nextActionUrl).toBeTruthy();
    expect(ask.request?.statusCode).toBe(402);
    // The cardholder passes the bank's check; the bank sends them back to /reservations.
    const bank = await t.post(
      '/api/payments/test/authenticate',
      { paymentIntentId: ask.paymentIntentId, approved: true },
      s.borrower.cookie,
    );
    expect(bank.statusCode).toBe(200);
    const stranger = await t.post(
      '/api/reservations/complete-payment',
      { paymentIntentId: ask.paymentIntentId },
      s.stranger.cookie,
    );
    expect(stranger.statusCode).toBe(404);
    const [first, second] = await Promise.all(
      [1, 2].map(() =>
        t.post(
          '/api/reservations/complete-payment',
          { paymentIntentId: ask.paymentIntentId },
          s.borrower.cookie,
        ),
      ),
    );
    expect([first!.json().created, second!.json().created].sort()).toEqual([false, true]);
    expect(first!.json().reservation).toMatchObject({
      id: s.id,
      endDate: day(3),
      pendingExtension: { newEndDate: day(5), rentalAmount: '10.00' },
    });
    expect(
      (
        await t.post(
          `/api/extensions/${first!.json().reservation.pendingExtension.id}/decline`,
          {},
          s.lender.cookie,
        )
      ).statusCode,
    ).toBe(200);
    await settlePayments(t);
  });

  it('a card that needs 3-D Secure or is declined leaves the booking unchanged, with a clear message', async () => {
    const s = await approvedBooking();
    const unpaid = await t.post(
      `/api/reservations/${s.id}/extensions`,
      { endDate: day(5) },
      s.borrower.cookie,
    );
    expect(unpaid.statusCode).toBe(402);
    expect(unpaid.json().message).toContain('Please pay for the extra days');
    const wrongPrice = await t.post(
      `/api/reservations/${s.id}/extension-payment-intent`,
      { endDate: day(5), rentalAmount: '1.00' },
      s.borrower.cookie,
    );
    expect(wrongPrice.statusCode).toBe(409);
    expect(wrongPrice.json().message).toContain('the extra rental is $10.00');
    const threeDs = await askForMoreDays(s.borrower.cookie, s.id, day(5), '10.00', VISA_3DS);
    expect(threeDs.request?.statusCode).toBe(402);
    expect(threeDs.request?.json()).toMatchObject({ code: 'PAYMENT_NEEDS_AUTHENTICATION' });
    expect(threeDs.request?.json().message).toContain('Nothing was changed');
    const declined = await askForMoreDays(s.borrower.cookie, s.id, day(5), '10.00', DECLINED);
    expect(declined.confirm?.statusCode).toBe(402);
    expect(declined.request?.statusCode).toBe(402);
    expect(declined.request?.json().message).toContain('not completed');
    expect(await endDateOf(s.id)).toBe(day(3));
    expect(
      await db().select().from(reservationExtensions).where(eq(reservationExtensions.reservationId, s.id)),
    ).toEqual([]);
    // The unused authorisations are the sweeper's, like a Reserve dialog closed after paying.
    await t.app.payments.cancelPaymentIntent(threeDs.paymentIntentId!, 'test-cleanup-3ds').catch(() => {});
  });

  it('an extension’s payment can never pay for a new reservation', async () => {
    const s = await approvedBooking();
    const quote = await t.post(
      `/api/reservations/${s.id}/extension-payment-intent`,
      { endDate: day(5), rentalAmount: '10.00' },
      s.borrower.cookie,
    );
    const { paymentIntentId } = quote.json();
    await t.post('/api/payments/test/confirm', { paymentIntentId, card: VISA }, s.borrower.cookie);
    const misuse = await t.post(
      '/api/reservations',
      { itemId: s.item.id, startDate: day(4), endDate: day(5), stripePaymentIntentId: paymentIntentId },
      s.borrower.cookie,
    );
    expect(misuse.statusCode).toBe(400);
    await t.app.payments.cancelPaymentIntent(paymentIntentId, 'test-cleanup-misuse');
  });
});

describe('a free item', () => {
  it('moves no money at all', async () => {
    const s = await scenario(t, { rentalPriceCents: null, rentalPeriod: null, depositCents: null });
    const create = await t.post(
      '/api/reservations',
      { itemId: s.item.id, startDate: day(1), endDate: day(3) },
      s.borrower.cookie,
    );
    expect(create.statusCode).toBe(201);
    const id = create.json().reservation.id;
    await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie);
    const quote = await t.post(
      `/api/reservations/${id}/extension-payment-intent`,
      { endDate: day(5), rentalAmount: '0' },
      s.borrower.cookie,
    );
    expect(quote.statusCode).toBe(400);
    const request = await t.post(
      `/api/reservations/${id}/extensions`,
      { endDate: day(5) },
      s.borrower.cookie,
    );
    expect(request.statusCode).toBe(201);
    expect(request.json().extension.rentalAmount).toBe('0.00');
    expect(
      (await t.post(`/api/extensions/${request.json().extension.id}/approve`, {}, s.lender.cookie))
        .statusCode,
    ).toBe(200);
    expect(await endDateOf(id)).toBe(day(5));
    expect(await db().select().from(billingHistory).where(eq(billingHistory.reservationId, id))).toEqual([]);
    expect(await db().select().from(paymentSteps).where(eq(paymentSteps.reservationId, id))).toEqual([]);
  });
});

describe('overlaps', () => {
  it('are refused up front with a 409: another booking, or another student’s request waiting', async () => {
    const s = await approvedBooking();
    const other = await createSignedInUser(db());
    const later = await reserve(t, other.cookie, s.item.id, day(6), day(7));
    const before = await rowCounts(db());
    const pending = await t.post(
      `/api/reservations/${s.id}/extension-payment-intent`,
      { endDate: day(6), rentalAmount: '15.00' },
      s.borrower.cookie,
    );
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toMatchObject({ code: 'DATES_TAKEN' });
    expect(pending.json().message).toContain('requested by someone else');
    await t.post(`/api/reservations/${later.reservation.id}/approve`, {}, s.lender.cookie);
    const afterApproval = await rowCounts(db());
    const booked = await t.post(
      `/api/reservations/${s.id}/extensions`,
      { endDate: day(7) },
      s.borrower.cookie,
    );
    expect(booked.statusCode).toBe(409);
    expect(booked.json().message).toContain('booked by someone else');
    expect(await rowCounts(db())).toEqual(afterApproval);
    expect(before.reservation_extensions).toBe(afterApproval.reservation_extensions);
    // The days before it are still free.
    expect((await askForMoreDays(s.borrower.cookie, s.id, day(5), '10.00')).request?.statusCode).toBe(201);
    await settlePayments(t);
  });

  it('count the days of a returned or claimed booking as booked, up front and again at approval', async () => {
    // A returned item's days stay taken while its lender may still report a problem (BOOKED_STATUSES):
    // more days over them are refused with a 409, never left to the database's overlap constraint.
    const s = await approvedBooking();
    const other = await createSignedInUser(db());
    const cameBack = (status: 'returned' | 'claimed', from: number, to: number) =>
      db()
        .insert(reservations)
        .values({
          itemId: s.item.id,
          borrowerId: other.user.id,
          providerId: s.lender.user.id,
          startDate: day(from),
          endDate: day(to),
          status,
        });
    await cameBack('returned', 6, 7);
    const upFront = await t.post(
      `/api/reservations/${s.id}/extension-payment-intent`,
      { endDate: day(6), rentalAmount: '15.00' },
      s.borrower.cookie,
    );
    expect(upFront.statusCode).toBe(409);
    expect(upFront.json()).toMatchObject({ code: 'DATES_TAKEN' });
    // Asked for while the days were free; a claimed booking holds one of them by the approval.
    const ask = await askForMoreDays(s.borrower.cookie, s.id, day(5), '10.00');
    expect(ask.request?.statusCode).toBe(201);
    await cameBack('claimed', 5, 5);
    const approve = await t.post(`/api/extensions/${ask.extension.id}/approve`, {}, s.lender.cookie);
    expect(approve.statusCode).toBe(409);
    expect(approve.json()).toMatchObject({ code: 'DATES_TAKEN' });
    expect(await endDateOf(s.id)).toBe(day(3));
    const decline = await t.post(`/api/extensions/${ask.extension.id}/decline`, {}, s.lender.cookie);
    expect(decline.statusCode).toBe(200);
    await settlePayments(t);
  });

  it('racing: an extension’s approval and another student’s overlapping request’s approval, exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await approvedBooking();
      const ask = await askForMoreDays(s.borrower.cookie, s.id, day(6), '15.00');
      expect(ask.request?.statusCode).toBe(201);
      const other = await createSignedInUser(db());
      const rival = await reserve(t, other.cookie, s.item.id, day(5), day(7));
      expect(rival.create?.statusCode).toBe(201);
      const [extension, request] = await Promise.all([
        t.post(`/api/extensions/${ask.extension.id}/approve`, {}, s.lender.cookie),
        t.post(`/api/reservations/${rival.reservation.id}/approve`, {}, s.lender.cookie),
      ]);
      expect([extension.statusCode, request.statusCode].sort()).toEqual([200, 409]);
      await settlePayments(t);
      const rows = await db().select().from(reservations).where(eq(reservations.itemId, s.item.id));
      const booked = rows.filter((r) => r.status === 'approved');
      expect(booked).toHaveLength(extension.statusCode === 200 ? 1 : 2);
      const [ext] = await db()
        .select()
        .from(reservationExtensions)
        .where(eq(reservationExtensions.id, ask.extension.id));
      expect(ext!.status).toBe(extension.statusCode === 200 ? 'approved' : 'declined');
      // The loser's hold is released; the winner's is charged.
      const loser = extension.statusCode === 200 ? rival.paymentIntentId! : ask.paymentIntentId!;
      expect((await providerIntent(t, loser)).status).toBe('canceled');
    }
  });
});

describe('at once', () => {
  it('ten approvals of one extension: one succeeds, one capture, charged once', async () => {
    const s = await approvedBooking();
    const ask = await askForMoreDays(s.borrower.cookie, s.id, day(5), '10.00');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.post(`/api/extensions/${ask.extension.id}/approve`, {}, s.lender.cookie),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.every((c) => c === 200 || c === 409)).toBe(true);
    const captures = await db()
      .select()
      .from(paymentSteps)
      .where(
        sql`${paymentSteps.paymentIntentId} = ${ask.paymentIntentId} and ${paymentSteps.kind} = 'capture'`,
      );
    expect(captures).toHaveLength(1);
    await settlePayments(t);
    expect((await providerIntent(t, ask.paymentIntentId!)).amountReceivedCents).toBe(1000);
    expect(await billingOf(t, { intentId: ask.paymentIntentId! }, 'kind:status:amount')).toEqual([
      'earning:completed:1000',
      'payment:completed:1000',
    ]);
  });

  it('two requests for more days at once: one is sent, the other is told one is waiting', async () => {
    const s = await scenario(t, { rentalPriceCents: null, rentalPeriod: null, depositCents: null });
    const create = await t.post(
      '/api/reservations',
      { itemId: s.item.id, startDate: day(1), endDate: day(3) },
      s.borrower.cookie,
    );
    const id = create.json().reservation.id;
    await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie);
    const answers = await Promise.all(
      [day(4), day(5), day(6)].map((endDate) =>
        t.post(`/api/reservations/${id}/extensions`, { endDate }, s.borrower.cookie),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().code).toBe('EXTENSION_PENDING');
  });
});

describe('a provider that fails the capture', () => {
  it('is retried; the capture is made once and nothing is counted twice', async () => {
    const s = await approvedBooking();
    const ask = await askForMoreDays(s.borrower.cookie, s.id, day(5), '10.00');
    await t.post(`/api/extensions/${ask.extension.id}/approve`, {}, s.lender.cookie);
    flaky.failNext('capturePaymentIntent', 2);
    for (let attempt = 1; attempt <= 2; attempt++) {
      await settlePayments(t);
      expect(await billingOf(t, { intentId: ask.paymentIntentId! }, 'kind:status:amount')).toEqual([
        'earning:pending:1000',
        'payment:pending:1000',
      ]);
    }
    flaky.loseAnswers('capturePaymentIntent', 1);
    await settlePayments(t);
    expect((await providerIntent(t, ask.paymentIntentId!)).amountReceivedCents).toBe(1000);
    const captures = flaky.calls.capturePaymentIntent;
    await settlePayments(t);
    // The retry asked the provider first, found the capture made, and did not capture again.
    expect(flaky.calls.capturePaymentIntent).toBe(captures);
    expect((await providerIntent(t, ask.paymentIntentId!)).amountReceivedCents).toBe(1000);
    expect(await billingOf(t, { intentId: ask.paymentIntentId! }, 'kind:status:amount')).toEqual([
      'earning:completed:1000',
      'payment:completed:1000',
    ]);
    expect(await billingOf(t, { intentId: s.intent }, 'kind:status:amount')).toEqual([
      'earning:completed:1000',
      'payment:completed:3000',
    ]);
  });
});

describe('bad input and the wrong person', () => {
  it('answer a clear 4xx and change nothing', async () => {
    const s = await approvedBooking({ availableUntil: day(6) });
    const ask = await askForMoreDays(s.borrower.cookie, s.id, day(4), '5.00');
    const extId = ask.extension.id as string;
    const otherItem = await createItem(db(), {
      userId: s.lender.user.id,
      rentalPriceCents: 500,
      rentalPeriod: 'day',
      depositCents: 2000,
    });
    const pendingBooking = await reserve(t, s.stranger.cookie, otherItem.id, day(10), day(11));
    await settlePayments(t);
    const before = await rowCounts(db());
    const url = `/api/reservations/${s.id}/extensions`;
    const cases: [string, Promise<{ statusCode: number; json(): { message: string } }>, number, RegExp][] = [
      ['signed out', t.post(url, { endDate: day(5) }), 401, /sign in/i],
      [
        'not after the current end',
        t.post(
          `/api/reservations/${s.id}/extension-payment-intent`,
          { endDate: day(3), rentalAmount: '0' },
          s.borrower.cookie,
        ),
        400,
        /after the current one/,
      ],
      [
        'before the current end',
        t.post(
          `/api/reservations/${s.id}/extension-payment-intent`,
          { endDate: day(2), rentalAmount: '0' },
          s.borrower.cookie,
        ),
        400,
        /after the current one/,
      ],
      [
        'beyond the item’s window',
        t.post(
          `/api/reservations/${s.id}/extension-payment-intent`,
          { endDate: day(8), rentalAmount: '25.00' },
          s.borrower.cookie,
        ),
        400,
        /available until/,
      ],
      ['not a day', t.post(url, { endDate: '2026-02-30' }, s.borrower.cookie), 400, /./],
      ['no end date', t.post(url, {}, s.borrower.cookie), 400, /./],
      [
        'a second one while one waits',
        t.post(url, { endDate: day(5), paymentIntentId: ask.paymentIntentId }, s.borrower.cookie),
        409,
        /already asked/,
      ],
      [
        'the lender asks',
        t.post(
          `/api/reservations/${s.id}/extension-payment-intent`,
          { endDate: day(5), rentalAmount: '10.00' },
          s.lender.cookie,
        ),
        403,
        /Only the borrower/,
      ],
      ['a stranger asks', t.post(url, { endDate: day(5) }, s.stranger.cookie), 403, /not part/],
      [
        'a request not yet approved',
        t.post(
          `/api/reservations/${pendingBooking.reservation.id}/extensions`,
          { endDate: day(12) },
          s.stranger.cookie,
        ),
        409,
        /cannot be extended/,
      ],
      [
        'an unknown booking',
        t.post(
          `/api/reservations/00000000-0000-4000-8000-000000000000/extensions`,
          { endDate: day(5) },
          s.borrower.cookie,
        ),
        404,
        /not found/,
      ],
      [
        'the borrower approves',
        t.post(`/api/extensions/${extId}/approve`, {}, s.borrower.cookie),
        403,
        /Only the lender/,
      ],
      [
        'a stranger declines',
        t.post(`/api/extensions/${extId}/decline`, {}, s.stranger.cookie),
        403,
        /not part/,
      ],
      [
        'the lender takes it back',
        t.post(`/api/extensions/${extId}/cancel`, {}, s.lender.cookie),
        403,
        /Only the borrower/,
      ],
      [
        'an unknown extension',
        t.post('/api/extensions/00000000-0000-4000-8000-000000000000/approve', {}, s.lender.cookie),
        404,
        /not found/,
      ],
      ['a malformed id', t.post('/api/extensions/nope/approve', {}, s.lender.cookie), 400, /./],
    ];
    for (const [what, answer, status, message] of cases) {
      const response = await answer;
      expect(response.statusCode, what).toBe(status);
      expect(response.json().message, what).toMatch(message);
    }
    expect(await rowCounts(db())).toEqual(before);
    expect(await endDateOf(s.id)).toBe(day(3));

    // Answered once: a second answer is a 409 and changes nothing.
    expect((await t.post(`/api/extensions/${extId}/decline`, {}, s.lender.cookie)).statusCode).toBe(200);
    await settlePayments(t);
    const afterDecline = await rowCounts(db());
    const again = await t.post(`/api/extensions/${extId}/approve`, {}, s.lender.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already declined');
    expect(await rowCounts(db())).toEqual(afterDecline);

    // A returned booking cannot be extended.
    const code = (await t.get('/api/reservations', s.borrower.cookie))
      .json()
      .reservations.find((r: { id: string }) => r.id === s.id).pickupCode;
    await t.put(`/api/reservations/${s.id}`, { status: 'active', pickupCode: code }, s.lender.cookie);
    await t.put(`/api/reservations/${s.id}`, { status: 'completed' }, s.lender.cookie);
    await settlePayments(t);
    const returned = await t.post(url, { endDate: day(5) }, s.borrower.cookie);
    expect(returned.statusCode).toBe(409);
    expect(returned.json().message).toContain('A completed reservation cannot be extended');
    await t.put(
      `/api/reservations/${pendingBooking.reservation.id}`,
      { status: 'cancelled' },
      s.stranger.cookie,
    );
    await settlePayments(t);
  });
});
