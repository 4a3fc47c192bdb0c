import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { fixedClock } from '../../src/server/clock.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { ledgerService } from '../../src/server/features/ledger/service.ts';
import { reminderService } from '../../src/server/features/reminders/service.ts';
import { campusAt } from '../../src/shared/calendar.ts';
import { formatDayLabel } from '../../src/shared/format.ts';
import { createSignedInUser } from '../factories.ts';
import {
  billingOf,
  bookingAt,
  notices,
  providerIntent,
  reserveAtQuote,
} from '../helpers/booking-scenario.ts';
import { flakyProvider } from '../helpers/flaky-provider.ts';
import { settlePayments } from '../helpers/money.ts';
import { day, scenario, TZ, VISA } from '../helpers/reservation-fixtures.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// Decision 034: an early return. The item comes back (the borrower's "Item Returned",
// or the lender confirming an active borrow) on a campus day before the booking's last: the booking ends
// that day, the days after it can be booked at once, whoever waits for them is told in order, and the
// rental of the full periods left unused comes back by the item's policy, once, through the payment
// outbox, whatever the clicks, races and faults. After every test our billing rows equal the provider's
// money (setupTestApp). Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.

let flaky!: ReturnType<typeof flakyProvider>;
const clock = fixedClock(new Date());
// The rental's own arithmetic: the fee's share of an early return is in service-fee.test.ts.
const t = setupTestApp(WITHOUT_SERVICE_FEE, {
  clock,
  payments: (db) => {
    flaky = flakyProvider(new TestPaymentProvider(db));
    return flaky.provider;
  },
});
const db = () => t.database.db;

beforeEach(() => clock.set(new Date()));

type Item = NonNullable<Parameters<typeof scenario>[1]>;

/** A booking approved, charged and handed over today: `active`, the item with the borrower. */
const activeBorrow = (item: Item = {}, from = 0, to = 6) =>
  bookingAt(t, 'active', { item, days: { from, to } });

const put = (id: string, status: string, cookie?: string) =>
  t.put(`/api/reservations/${id}`, { status }, cookie);
async function rowOf(id: string) {
  const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
  return row!;
}
async function earlySteps(intentId: string) {
  const { rows } = await db().execute<{ amount: number; status: string }>(
    sql`select amount_cents::int as amount, status from payment_steps where payment_intent_id = ${intentId} and purpose = 'early_return' order by seq`,
  );
  return rows.map((r) => `${r.amount}:${r.status}`);
}
/** The instant the campus clock shows hh:mm on a day. */
const campus = (date: string, hour: number, minute = 0) =>
  new Date(campusAt(date, hour, TZ).getTime() + minute * 60_000);

describe('an early return ends the booking on the return day', () => {
  it('frees the days after it at once: another student books them, the days before stay taken', async () => {
    // $5/day from today to day 6 (6 days, $30), flexible: back today, 5 days unused.
    const s = await activeBorrow();
    const back = await put(s.id, 'returned', s.borrower.cookie);
    expect(back.statusCode, back.body).toBe(200);
    const shown = back.json().reservation;
    expect(shown).toMatchObject({
      status: 'returned',
      startDate: day(0),
      endDate: day(0),
      earlyReturn: { bookedEndDate: day(6), rentalRefund: '25.00' },
    });
    // The lender's card says it too.
    const lenders = (await t.get('/api/reservations', s.lender.cookie)).json().reservations;
    expect(lenders.find((r: { id: string }) => r.id === s.id).earlyReturn).toEqual(shown.earlyReturn);

    // The calendar: only today stays booked.
    const booked = (await t.get(`/api/items/${s.item.id}/availability`)).json().booked;
    expect(booked).toEqual([{ startDate: day(0), endDate: day(0) }]);
    // Another student books the freed days at once, and the lender can approve them.
    const other = await createSignedInUser(db());
    const next = await reserveAtQuote(t, other.cookie, s.item, day(1), day(4));
    expect(next.create.statusCode, next.create.body).toBe(201);
    expect((await t.post(`/api/reservations/${next.id}/approve`, {}, s.lender.cookie)).statusCode).toBe(200);
    // Today is still the returned booking's (the lender may still report a problem).
    const late = await createSignedInUser(db());
    const today = await t.post(
      '/api/create-payment-intent',
      { itemId: s.item.id, startDate: day(0), endDate: day(0), depositAmount: '20.00', rentalAmount: '5.00' },
      late.cookie,
    );
    expect(today.statusCode).toBe(409);
    expect(today.json().code).toBe('DATES_TAKEN');

    // The money: $25 of the rental back through the outbox, the lender's earning $5.
    await settlePayments(t);
    expect(await earlySteps(s.intent)).toEqual(['2500:succeeded']);
    expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(2500);
    expect(await billingOf(t, { intentId: s.intent })).toEqual([
      'earning:500:completed',
      'payment:5000:completed',
      'refund:2500:refunded',
    ]);
    const [borrowerNotice] = await notices(t, s.borrower.cookie, { id: s.id, type: 'early_return' });
    expect(borrowerNotice?.message).toContain(
      `your booking now ends ${formatDayLabel(day(0))} instead of ${formatDayLabel(day(6))}`,
    );
    expect(borrowerNotice?.message).toContain(
      "$25.00 of the rental for the unused days goes back to the borrower's card",
    );
    expect(await notices(t, s.lender.cookie, { id: s.id, type: 'early_return' })).toHaveLength(1);

    // The lender's confirm then gives the deposit back, as for any return: $45 back of $50 in all.
    expect((await put(s.id, 'completed', s.lender.cookie)).statusCode).toBe(200);
    await settlePayments(t);
    expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(4500);
    expect(await earlySteps(s.intent)).toEqual(['2500:succeeded']);
  });

  it('tells whoever waits for the freed days, in the order they joined', async () => {
    const s = await activeBorrow();
    const [first, second, other] = [
      await createSignedInUser(db()),
      await createSignedInUser(db()),
      await createSignedInUser(db()),
    ];
    const join = (cookie: string, from: number, to: number) =>
      t.post(`/api/items/${s.item.id}/waitlist`, { startDate: day(from), endDate: day(to) }, cookie);
    expect((await join(first.cookie, 2, 3)).statusCode).toBe(201);
    expect((await join(second.cookie, 2, 4)).statusCode).toBe(201);
    expect((await join(other.cookie, 5, 6)).statusCode).toBe(201);
    expect((await put(s.id, 'returned', s.borrower.cookie)).statusCode).toBe(200);
    const told = async (cookie: string) =>
      (await t.get('/api/notifications', cookie))
        .json()
        .notifications.filter((n: { type: string }) => n.type === 'waitlist_available').length;
    // The first in line for days 2–3 alone (the second wants some of them), and the one waiting for
    // other days at the same time.
    expect(await told(first.cookie)).toBe(1);
    expect(await told(second.cookie)).toBe(0);
    expect(await told(other.cookie)).toBe(1);
  });

  it('the lender confirming an active borrow before its end is an early return too', async () => {
    const s = await activeBorrow({ cancellationPolicy: 'moderate' });
    const done = await put(s.id, 'completed', s.lender.cookie);
    expect(done.statusCode, done.body).toBe(200);
    // Moderate: half of the 5 unused days ($25) comes back, and the whole deposit.
    expect(done.json().reservation).toMatchObject({
      status: 'completed',
      endDate: day(0),
      earlyReturn: { bookedEndDate: day(6), rentalRefund: '12.50' },
    });
    await settlePayments(t);
    expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(1250 + 2000);
    expect(await billingOf(t, { intentId: s.intent })).toEqual([
      'earning:1750:completed',
      'payment:5000:completed',
      'refund:1250:refunded',
      'refund:2000:refunded',
    ]);
    expect((await t.get(`/api/items/${s.item.id}/availability`)).json().booked).toEqual([]);
  });

  it('on the last day (or later) is an ordinary return: nothing is freed or refunded', async () => {
    const s = await activeBorrow({}, 0, 2);
    clock.set(campus(day(2), 9));
    const back = await put(s.id, 'returned', s.borrower.cookie);
    expect(back.json().reservation).toMatchObject({ endDate: day(2), earlyReturn: null });
    await settlePayments(t);
    expect(await earlySteps(s.intent)).toEqual([]);
    expect(await notices(t, s.borrower.cookie, { id: s.id, type: 'early_return' })).toEqual([]);
  });

  it('sends no reminder for the old end date', async () => {
    const s = await activeBorrow({}, 0, 3);
    expect((await put(s.id, 'returned', s.borrower.cookie)).statusCode).toBe(200);
    for (const at of [campus(day(2), 19), campus(day(3), 8)]) {
      await reminderService.sendDue({ db: db(), clock: fixedClock(at), timeZone: TZ, expiryHours: 48 });
    }
    expect(await notices(t, s.borrower.cookie, { id: s.id, type: 'return_reminder' })).toEqual([]);
  });
});

describe('what comes back, by policy and period (campus calendar)', () => {
  it.each([
    ['flexible', 2500],
    ['moderate', 1250],
    ['strict', 0],
  ] as const)('%s: %i cents of 5 unused days', async (policy, cents) => {
    const s = await activeBorrow({ cancellationPolicy: policy });
    const back = await put(s.id, 'returned', s.borrower.cookie);
    expect(back.json().reservation.earlyReturn.rentalRefund).toBe((cents / 100).toFixed(2));
    await settlePayments(t);
    expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(cents);
    expect(await earlySteps(s.intent)).toEqual(cents ? [`${cents}:succeeded`] : []);
    // Strict keeps the rental, and says so; the days are freed all the same.
    if (!cents) {
      const [notice] = await notices(t, s.borrower.cookie, { id: s.id, type: 'early_return' });
      expect(notice?.message).toContain('the rental of the unused days is not refunded');
    }
    expect((await t.get(`/api/items/${s.item.id}/availability`)).json().booked).toEqual([
      { startDate: day(0), endDate: day(0) },
    ]);
  });

  it.each([
    // A weekly item booked for two weeks: back on day 7 (one week used, 23:30 on campus, already the
    // next day in UTC), one week comes back; on day 8 (00:30) the second week has started.
    ['week', 4000, 14, campus(day(7), 23, 30), 4000],
    ['week', 4000, 14, campus(day(8), 0, 30), 0],
    ['month', 9000, 60, campus(day(30), 23, 59), 9000],
    ['month', 9000, 60, campus(day(31), 0, 1), 0],
    ['day', 500, 6, campus(day(4), 23, 59), 1000],
  ] as const)(
    'a %s at %i cents booked %i days, back at %s: %i back',
    async (period, price, days, at, back) => {
      const s = await activeBorrow({ rentalPriceCents: price, rentalPeriod: period }, 0, days);
      clock.set(at);
      const returned = await put(s.id, 'returned', s.borrower.cookie);
      expect(returned.statusCode, returned.body).toBe(200);
      await settlePayments(t);
      expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(back);
    },
  );

  it('a flat price gives nothing back, but the days are freed', async () => {
    const s = await activeBorrow({ rentalPriceCents: 1500, rentalPeriod: null });
    const back = await put(s.id, 'returned', s.borrower.cookie);
    expect(back.json().reservation.earlyReturn).toEqual({ bookedEndDate: day(6), rentalRefund: '0.00' });
    await settlePayments(t);
    expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(0);
    expect(await billingOf(t, { intentId: s.intent })).toEqual([
      'earning:1500:completed',
      'payment:3500:completed',
    ]);
  });

  it('a free item: the days are freed, no money moves', async () => {
    const s = await activeBorrow({ rentalPriceCents: null, rentalPeriod: null, depositCents: null });
    const back = await put(s.id, 'returned', s.borrower.cookie);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().reservation.endDate).toBe(day(0));
  });

  it("an approved extension's unused days come back from its own payment", async () => {
    const s = await activeBorrow({}, 0, 3);
    const ask = await t.post(
      `/api/reservations/${s.id}/extension-payment-intent`,
      { endDate: day(6), rentalAmount: '15.00' },
      s.borrower.cookie,
    );
    expect(ask.statusCode, ask.body).toBe(200);
    const extensionIntent = ask.json().paymentIntentId as string;
    await t.post(
      '/api/payments/test/confirm',
      { paymentIntentId: extensionIntent, card: VISA },
      s.borrower.cookie,
    );
    const request = await t.post(
      `/api/reservations/${s.id}/extensions`,
      { endDate: day(6), paymentIntentId: extensionIntent },
      s.borrower.cookie,
    );
    expect(request.statusCode, request.body).toBe(201);
    const approve = await t.post(
      `/api/extensions/${request.json().extension.id}/approve`,
      {},
      s.lender.cookie,
    );
    expect(approve.statusCode, approve.body).toBe(200);
    await settlePayments(t);
    // Back on day 1: of the booking's 3 days ($15) 1 is used; the extension's 3 ($15) are all unused.
    clock.set(campus(day(1), 10));
    const back = await put(s.id, 'returned', s.borrower.cookie);
    expect(back.json().reservation).toMatchObject({
      endDate: day(1),
      earlyReturn: { bookedEndDate: day(6), rentalRefund: '25.00' },
    });
    await settlePayments(t);
    expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(1000);
    expect((await providerIntent(t, extensionIntent)).amountRefundedCents).toBe(1500);
    expect(await billingOf(t, { intentId: extensionIntent })).toEqual([
      'earning:0:completed',
      'payment:1500:completed',
      'refund:1500:refunded',
    ]);
  });
});

describe('once, whatever happens', () => {
  it('the lender approving more days while the borrower returns early: either order adds up, once', async () => {
    for (let round = 0; round < 4; round += 1) {
      const s = await activeBorrow({}, 0, 3);
      const ask = await t.post(
        `/api/reservations/${s.id}/extension-payment-intent`,
        { endDate: day(6), rentalAmount: '15.00' },
        s.borrower.cookie,
      );
      const extensionIntent = ask.json().paymentIntentId as string;
      await t.post(
        '/api/payments/test/confirm',
        { paymentIntentId: extensionIntent, card: VISA },
        s.borrower.cookie,
      );
      const request = await t.post(
        `/api/reservations/${s.id}/extensions`,
        { endDate: day(6), paymentIntentId: extensionIntent },
        s.borrower.cookie,
      );
      expect(request.statusCode, request.body).toBe(201);
      clock.set(campus(day(1), 10));
      const [approve, back] = await Promise.all([
        t.post(`/api/extensions/${request.json().extension.id}/approve`, {}, s.lender.cookie),
        put(s.id, 'returned', s.borrower.cookie),
      ]);
      expect(back.statusCode, back.body).toBe(200);
      await settlePayments(t);
      const row = await rowOf(s.id);
      expect(row.endDate).toBe(day(1));
      if (approve.statusCode === 200) {
        // Approved first: the three extra days were charged, then all given back with the booking's two.
        expect(row.bookedEndDate).toBe(day(6));
        expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(1000);
        expect((await providerIntent(t, extensionIntent)).amountRefundedCents).toBe(1500);
      } else {
        // Returned first: the request for more days ended with the borrow and its hold was released.
        expect(approve.statusCode).toBe(409);
        expect(row.bookedEndDate).toBe(day(3));
        expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(1000);
        // A released hold is recorded as the payment given back (as for a declined extension).
        expect(await billingOf(t, { intentId: extensionIntent })).toEqual(['payment:1500:refunded']);
        expect((await providerIntent(t, extensionIntent)).amountRefundedCents).toBe(0);
      }
      clock.set(new Date());
    }
  });

  it('many returns and confirms at once: one early return, one refund', async () => {
    const s = await activeBorrow();
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => put(s.id, 'returned', s.borrower.cookie)),
      ...Array.from({ length: 6 }, () => put(s.id, 'completed', s.lender.cookie)),
    ]);
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 409)).toBe(true);
    await settlePayments(t);
    expect(await earlySteps(s.intent)).toEqual(['2500:succeeded']);
    expect(await notices(t, s.borrower.cookie, { id: s.id, type: 'early_return' })).toHaveLength(1);
    const row = await rowOf(s.id);
    expect(row).toMatchObject({ endDate: day(0), bookedEndDate: day(6), earlyRefundCents: 2500 });
    // A double click after the fact: refused, nothing more.
    expect((await put(s.id, 'returned', s.borrower.cookie)).statusCode).toBe(409);
    await settlePayments(t);
    expect(await earlySteps(s.intent)).toEqual(['2500:succeeded']);
  });

  it('the provider fails, then the retry refunds once (also when its answer was lost)', async () => {
    const s = await activeBorrow();
    flaky.failNext('refund', 1);
    expect((await put(s.id, 'returned', s.borrower.cookie)).statusCode).toBe(200);
    await settlePayments(t).catch(() => {});
    expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(0);
    // The answer of the next try is lost: the provider refunded, we did not hear it.
    flaky.loseAnswers('refund', 1);
    await settlePayments(t).catch(() => {});
    await settlePayments(t);
    expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(2500);
    expect(await earlySteps(s.intent)).toEqual(['2500:succeeded']);
    expect(await billingOf(t, { intentId: s.intent })).toContain('refund:2500:refunded');
  });

  it('a crash between ending the booking and writing its refund leaves both undone; the retry does both', async () => {
    const s = await activeBorrow();
    const enqueue = vi
      .spyOn(ledgerService, 'queueStep')
      .mockRejectedValueOnce(new Error('the process died here'));
    const failed = await put(s.id, 'returned', s.borrower.cookie);
    enqueue.mockRestore();
    expect(failed.statusCode).toBe(500);
    // Nothing of it stayed: still active, still booked to day 6, no refund row.
    expect(await rowOf(s.id)).toMatchObject({ status: 'active', endDate: day(6), bookedEndDate: null });
    expect(await billingOf(t, { intentId: s.intent })).toEqual([
      'earning:3000:completed',
      'payment:5000:completed',
    ]);
    expect((await put(s.id, 'returned', s.borrower.cookie)).statusCode).toBe(200);
    // A crash after the commit, before the refund ran: the outbox still holds it for the next run.
    expect(await earlySteps(s.intent)).toEqual(['2500:pending']);
    await settlePayments(t);
    expect(await earlySteps(s.intent)).toEqual(['2500:succeeded']);
    expect((await providerIntent(t, s.intent)).amountRefundedCents).toBe(2500);
  });
});

describe('who may, and bad input', () => {
  it('only the borrower returns and only the lender confirms; nothing changes otherwise', async () => {
    const s = await activeBorrow();
    expect((await put(s.id, 'returned')).statusCode).toBe(401);
    expect((await put(s.id, 'returned', s.stranger.cookie)).statusCode).toBe(403);
    expect((await put(s.id, 'completed', s.stranger.cookie)).statusCode).toBe(403);
    expect((await put(s.id, 'returned', s.lender.cookie)).statusCode).toBe(403);
    expect((await put(s.id, 'completed', s.borrower.cookie)).statusCode).toBe(403);
    expect((await put(s.id, 'gone', s.borrower.cookie)).statusCode).toBe(400);
    expect((await put('not-an-id', 'returned', s.borrower.cookie)).statusCode).toBe(400);
    expect(
      (await t.put(`/api/reservations/${s.id}`, { status: ['returned'] }, s.borrower.cookie)).statusCode,
    ).toBe(400);
    expect(await rowOf(s.id)).toMatchObject({ status: 'active', endDate: day(6), bookedEndDate: null });
    expect(await earlySteps(s.intent)).toEqual([]);
  });

  it('goes ahead only on the refund the dialog showed: a dialog opened before campus midnight is refused', async () => {
    // $5/day, day 0 to day 6, flexible. The dialog on day 1 at 23:50 showed 5 unused days: $25.00
    // (a booking to its return day keeps at least one day).
    const s = await activeBorrow();
    // Pressed at 00:10: it is day 2, 4 days are unused, $20.00 would come back.
    clock.set(campus(day(2), 0, 10));
    const before = await rowOf(s.id);
    const stale = await t.put(
      `/api/reservations/${s.id}`,
      { status: 'returned', earlyRefund: '25.00' },
      s.borrower.cookie,
    );
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'EARLY_REFUND_CHANGED' });
    expect(stale.json().message).toContain('returning today refunds $20.00 of the rental, not $25.00');
    expect(await rowOf(s.id)).toEqual(before);
    expect(await earlySteps(s.intent)).toEqual([]);
    // Shown again, with today's amount: it goes ahead.
    const fresh = await t.put(
      `/api/reservations/${s.id}`,
      { status: 'returned', earlyRefund: '20.00' },
      s.borrower.cookie,
    );
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().reservation.earlyReturn.rentalRefund).toBe('20.00');
    // Not an amount: 400, nothing changes.
    const s2 = await activeBorrow();
    const bad = await t.put(
      `/api/reservations/${s2.id}`,
      { status: 'returned', earlyRefund: 'lots' },
      s2.borrower.cookie,
    );
    expect(bad.statusCode).toBe(400);
    expect((await rowOf(s2.id)).status).toBe('active');
  });

  it('an approved booking not yet picked up cannot be returned', async () => {
    const s = await scenario(t);
    const b = await reserveAtQuote(t, s.borrower.cookie, s.item, day(0), day(4));
    await t.post(`/api/reservations/${b.id}/approve`, {}, s.lender.cookie);
    const refused = await put(b.id, 'returned', s.borrower.cookie);
    expect(refused.statusCode).toBe(409);
    expect(await rowOf(b.id)).toMatchObject({ status: 'approved', endDate: day(4), bookedEndDate: null });
  });
});
