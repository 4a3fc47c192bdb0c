import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { reservationService } from '../../src/server/features/reservations/service.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { billingRows, bookingAt, providerIntent } from '../helpers/booking-scenario.ts';
import { reservationDeps, settlePayments } from '../helpers/money.ts';
import {
  reserve as baseReserve,
  scenario as baseScenario,
  day,
  VISA,
} from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();
const db = () => t.database.db;

const scenario = (item: Parameters<typeof baseScenario>[1] = {}) => baseScenario(t, item);
const reserve = (cookie: string, itemId: string, startDate: string, endDate: string, card = VISA) =>
  baseReserve(t, cookie, itemId, startDate, endDate, card);

async function reservationCount(itemId: string) {
  const { rows } = await db().execute<{ n: number }>(
    sql`select count(*)::int as n from reservations where item_id = ${itemId}`,
  );
  return rows[0]!.n;
}

describe('requesting a reservation', () => {
  it('reserves a free item without payment and tells the lender', async () => {
    const { lender, borrower, item } = await scenario({
      rentalPriceCents: null,
      rentalPeriod: null,
      depositCents: null,
    });
    const response = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(1), endDate: day(3) },
      borrower.cookie,
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().reservation).toMatchObject({
      status: 'pending',
      depositAmount: '0.00',
      rentalAmount: '0.00',
      pickupCode: null,
    });
    const notes = (await t.get('/api/notifications', lender.cookie)).json().notifications;
    expect(notes[0]).toMatchObject({
      type: 'reservation_request',
      relatedReservationId: response.json().reservation.id,
    });
    expect(await billingRows(t, { userId: borrower.user.id })).toEqual([]);
  });

  it('authorises a paid item by card, at the server’s price, and records the authorisation', async () => {
    const { borrower, item } = await scenario();
    const r = await reserve(borrower.cookie, item.id, day(2), day(5));
    // $15 of rental, its $1.50 service fee (10 %) and the $20 deposit.
    expect(r.quote.json()).toMatchObject({ amount: '36.50', serviceFeeAmount: '1.50' });
    expect(r.confirm!.json()).toMatchObject({ status: 'requires_capture' });
    expect(r.create!.statusCode).toBe(201);
    expect(r.reservation).toMatchObject({
      status: 'pending',
      rentalAmount: '15.00',
      serviceFeeAmount: '1.50',
      depositAmount: '20.00',
    });
    expect((await providerIntent(t, r.paymentIntentId!)).status).toBe('requires_capture');
    expect((await providerIntent(t, r.paymentIntentId!)).amountCents).toBe(3650);
    expect(await billingRows(t, { userId: borrower.user.id })).toEqual([
      expect.objectContaining({ amountCents: 3650, status: 'pending', paymentMethodLast4: '4242' }),
    ]);
  });

  it('answers 409 when the dialog’s amounts were tampered with', async () => {
    const { borrower, item } = await scenario();
    const response = await t.post(
      '/api/create-payment-intent',
      { itemId: item.id, startDate: day(2), endDate: day(5), depositAmount: '0', rentalAmount: '0.01' },
      borrower.cookie,
    );
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'AMOUNT_MISMATCH',
      message: expect.stringContaining('$15.00'),
    });
  });

  it.each([
    ['4000 0000 0000 0002', 'Your card was declined.'],
    ['4000 0000 0000 9995', 'Your card has insufficient funds.'],
    ['4242 4242 4242 4241', 'Your card number is incorrect.'],
  ])('refuses card %s with the provider’s message, and creates no reservation', async (number, message) => {
    const { borrower, item } = await scenario();
    const r = await reserve(borrower.cookie, item.id, day(2), day(3), { ...VISA, number });
    expect(r.confirm!.statusCode).toBe(402);
    expect(r.confirm!.json().message).toBe(message);
    expect(r.create!.statusCode).toBe(402);
    expect(await reservationCount(item.id)).toBe(0);
  });

  it('refuses a paid request without an authorised payment, or with someone else’s', async () => {
    const { borrower, stranger, item } = await scenario();
    const none = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(2), endDate: day(3) },
      borrower.cookie,
    );
    expect(none.statusCode).toBe(402);
    const theirs = await reserve(stranger.cookie, item.id, day(2), day(3));
    const stolen = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(2), endDate: day(3), stripePaymentIntentId: theirs.paymentIntentId },
      borrower.cookie,
    );
    expect(stolen.statusCode).toBe(400);
    const paying = await t.post(
      '/api/payments/test/confirm',
      { paymentIntentId: theirs.paymentIntentId, card: VISA },
      borrower.cookie,
    );
    expect(paying.statusCode).toBe(404);
  });

  it.each([
    ['a start in the past', { startDate: -1, endDate: 2 }, 400, 'The start date cannot be in the past.'],
    [
      'an end before the start',
      { startDate: 3, endDate: 2 },
      400,
      'The end date cannot be before the start date.',
    ],
    ['a day after the window', { startDate: 2, endDate: 40 }, 400, 'This item is available until'],
  ])('refuses %s', async (_name, dates, status, message) => {
    const { borrower, item } = await scenario({
      rentalPriceCents: null,
      depositCents: null,
      availableUntil: day(30),
    });
    const response = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(dates.startDate), endDate: day(dates.endDate) },
      borrower.cookie,
    );
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toContain(message);
    expect(await reservationCount(item.id)).toBe(0);
  });

  it('refuses pickup or return on a day the lender is not available, and a window not yet open', async () => {
    const tomorrow = new Date(`${day(1)}T12:00:00Z`).getUTCDay();
    const { borrower, item } = await scenario({
      rentalPriceCents: null,
      depositCents: null,
      availableDays: [(tomorrow + 1) % 7],
    });
    const wrongDay = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(1), endDate: day(1) },
      borrower.cookie,
    );
    expect(wrongDay.json().message).toBe('Pickup and return must fall on days the lender is available.');
    const later = await scenario({ rentalPriceCents: null, depositCents: null, availableFrom: day(10) });
    const early = await t.post(
      '/api/reservations',
      { itemId: later.item.id, startDate: day(2), endDate: day(12) },
      later.borrower.cookie,
    );
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toContain('This item is available from');
  });

  it('refuses the owner, an unavailable or deleted item, a visitor and bad input', async () => {
    const { lender, borrower, item } = await scenario({ rentalPriceCents: null, depositCents: null });
    const own = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(1), endDate: day(2) },
      lender.cookie,
    );
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('You cannot reserve your own item.');
    expect(
      (await t.post('/api/reservations', { itemId: item.id, startDate: day(1), endDate: day(2) })).statusCode,
    ).toBe(401);
    const bad = await t.post(
      '/api/reservations',
      { itemId: 'nope', startDate: 'soon', endDate: day(2) },
      borrower.cookie,
    );
    expect(bad.statusCode).toBe(400);
    const off = await scenario({ isAvailable: false });
    const unavailable = await t.post(
      '/api/reservations',
      { itemId: off.item.id, startDate: day(1), endDate: day(2) },
      off.borrower.cookie,
    );
    expect(unavailable.statusCode).toBe(409);
    expect(unavailable.json().message).toBe('This item is not available right now.');
    const gone = await scenario({ deletedAt: new Date() });
    expect(
      (
        await t.post(
          '/api/reservations',
          { itemId: gone.item.id, startDate: day(1), endDate: day(2) },
          gone.borrower.cookie,
        )
      ).statusCode,
    ).toBe(404);
  });

  it('refuses dates that overlap an approved reservation, and shows them as booked', async () => {
    const { stranger, item } = await bookingAt(t, 'approved', {
      item: { rentalPriceCents: null, depositCents: null },
      days: { from: 3, to: 6 },
    });
    const overlap = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(6), endDate: day(8) },
      stranger.cookie,
    );
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().message).toBe('Those dates overlap an existing reservation.');
    const availability = (await t.get(`/api/items/${item.id}/availability`)).json();
    expect(availability).toMatchObject({ today: day(0), booked: [{ startDate: day(3), endDate: day(6) }] });
  });
});

describe('the reservation lifecycle and its money', () => {
  it('approve captures; the pickup code shows to the parties while approved; collect needs the code; return refunds the deposit', async () => {
    const { lender, borrower, stranger, item } = await scenario();
    const r = await reserve(borrower.cookie, item.id, day(1), day(3));
    const id = r.reservation.id;

    const approved = await t.post(`/api/reservations/${id}/approve`, {}, lender.cookie);
    expect(approved.statusCode).toBe(200);
    // Only the borrower holds the code: the lender must hear it at the meetup.
    expect(approved.json().reservation.pickupCode).toBeNull();
    expect((await t.get('/api/reservations', lender.cookie)).json().reservations[0].pickupCode).toBeNull();
    await settlePayments(t);
    expect((await providerIntent(t, r.paymentIntentId!)).status).toBe('succeeded');
    const borrowerView = (await t.get('/api/reservations', borrower.cookie)).json().reservations[0];
    expect(borrowerView).toMatchObject({ status: 'approved' });
    const code = borrowerView.pickupCode;
    expect(code).toMatch(/^\d{6}$/);
    expect((await t.get('/api/reservations', stranger.cookie)).json().reservations).toEqual([]);
    expect((await t.get('/api/notifications', borrower.cookie)).json().notifications[0]).toMatchObject({
      type: 'reservation_approved',
    });

    const wrong = await t.put(
      `/api/reservations/${id}`,
      { status: 'active', pickupCode: code === '000000' ? '111111' : '000000' },
      lender.cookie,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(
      'That pickup code is not right. Ask the borrower to show it again (4 tries left).',
    );
    const collected = await t.put(
      `/api/reservations/${id}`,
      { status: 'active', pickupCode: code },
      lender.cookie,
    );
    expect(collected.json().reservation).toMatchObject({ status: 'active', pickupCode: null });

    // Back before its first day is over (decision 034, an early return): of the 2 days ($10) the first
    // is used, the $5 of the second comes back with half the $1 service fee and the $20 deposit.
    const returned = await t.put(`/api/reservations/${id}`, { status: 'completed' }, lender.cookie);
    expect(returned.json().reservation.status).toBe('completed');
    await settlePayments(t);
    expect((await providerIntent(t, r.paymentIntentId!)).amountRefundedCents).toBe(2550);

    const borrowerBills =
      (await t.get('/api/billing-history', borrower.cookie)).json().transactions ??
      (await billingRows(t, { userId: borrower.user.id }));
    expect(borrowerBills).toBeDefined();
    const rows = await billingRows(t, { userId: borrower.user.id });
    expect(rows.map((b) => [b.kind, b.status, b.amountCents]).sort()).toEqual([
      ['payment', 'completed', 3100],
      ['refund', 'refunded', 2000],
      ['refund', 'refunded', 550],
    ]);
    expect(rows.find((b) => b.kind === 'refund')!.providerRefundId).toMatch(/^re_/);
    expect((await billingRows(t, { userId: lender.user.id })).map((b) => [b.status, b.amountCents])).toEqual([
      ['completed', 500],
    ]);
    const notes = (await t.get('/api/notifications', borrower.cookie))
      .json()
      .notifications.map((n: { type: string }) => n.type);
    expect(notes).toEqual(
      expect.arrayContaining(['deposit_refunded', 'reservation_completed', 'reservation_started']),
    );
  });

  it('lets the borrower mark Picked Up without a code', async () => {
    const { id, borrower } = await bookingAt(t, 'approved', {
      item: { rentalPriceCents: null, depositCents: null },
      days: { from: 1, to: 2 },
    });
    const picked = await t.put(`/api/reservations/${id}`, { status: 'active' }, borrower.cookie);
    expect(picked.json().reservation.status).toBe('active');
  });

  it('releases the authorisation on decline (with the reason shown) and on cancel; refunds in full on a cancel after approval', async () => {
    const { lender, borrower, item } = await scenario();
    const declined = await reserve(borrower.cookie, item.id, day(1), day(2));
    const d = await t.post(
      `/api/reservations/${declined.reservation.id}/decline`,
      { reason: 'Away that weekend' },
      lender.cookie,
    );
    expect(d.json().reservation).toMatchObject({ status: 'declined', declineReason: 'Away that weekend' });
    await settlePayments(t);
    expect((await providerIntent(t, declined.paymentIntentId!)).status).toBe('canceled');
    expect((await t.get('/api/notifications', borrower.cookie)).json().notifications[0].message).toContain(
      'Reason: Away that weekend',
    );

    const cancelled = await reserve(borrower.cookie, item.id, day(3), day(4));
    await t.put(`/api/reservations/${cancelled.reservation.id}`, { status: 'cancelled' }, borrower.cookie);
    await settlePayments(t);
    expect((await providerIntent(t, cancelled.paymentIntentId!)).status).toBe('canceled');

    const late = await reserve(borrower.cookie, item.id, day(5), day(6));
    await t.post(`/api/reservations/${late.reservation.id}/approve`, {}, lender.cookie);
    await settlePayments(t);
    await t.put(`/api/reservations/${late.reservation.id}`, { status: 'cancelled' }, lender.cookie);
    await settlePayments(t);
    // One day ($5), its $1 fee (the minimum) and the deposit: all of it back.
    expect((await providerIntent(t, late.paymentIntentId!)).amountRefundedCents).toBe(2600);
    const rows = (await billingRows(t, { userId: borrower.user.id })).map(
      (b) => `${b.kind}:${b.status}:${b.amountCents}`,
    );
    expect(rows.sort()).toEqual([
      // Two authorisations released, one payment charged and refunded in full.
      'payment:completed:2600',
      'payment:refunded:2600',
      'payment:refunded:2600',
      'refund:refunded:2600',
    ]);
    expect((await billingRows(t, { userId: lender.user.id })).map((b) => `${b.kind}:${b.status}`)).toEqual([
      'earning:refunded',
    ]);
  });

  it('applies the state machine to every status, action and role over HTTP', async () => {
    const { lender, borrower, stranger, item } = await scenario({
      rentalPriceCents: null,
      depositCents: null,
    });
    const statuses = [
      'pending',
      'approved',
      'active',
      'returned',
      'claimed',
      'disputed',
      'completed',
      'cancelled',
      'declined',
    ] as const;
    const actions = {
      approve: (id: string, c?: string) => t.post(`/api/reservations/${id}/approve`, {}, c),
      decline: (id: string, c?: string) => t.post(`/api/reservations/${id}/decline`, {}, c),
      cancel: (id: string, c?: string) => t.put(`/api/reservations/${id}`, { status: 'cancelled' }, c),
      start: (id: string, c?: string) =>
        t.put(`/api/reservations/${id}`, { status: 'active', pickupCode: '123456' }, c),
      return: (id: string, c?: string) => t.put(`/api/reservations/${id}`, { status: 'returned' }, c),
      complete: (id: string, c?: string) => t.put(`/api/reservations/${id}`, { status: 'completed' }, c),
    };
    const allowed: Record<string, string[]> = {
      approve: ['pending:lender'],
      decline: ['pending:lender'],
      cancel: ['pending:borrower', 'pending:lender', 'approved:borrower', 'approved:lender'],
      start: ['approved:borrower', 'approved:lender'],
      // The borrower says it is back, the lender confirms (also straight from active).
      return: ['active:borrower'],
      complete: ['active:lender', 'returned:lender'],
    };
    // Who may never take the action, whatever the status: refused as not theirs (403).
    const notTheirs = ['approve:borrower', 'decline:borrower', 'return:lender', 'complete:borrower'];
    const roles = {
      borrower: borrower.cookie,
      lender: lender.cookie,
      stranger: stranger.cookie,
      visitor: undefined,
    };
    let offset = 0;
    for (const status of statuses) {
      for (const [action, call] of Object.entries(actions)) {
        for (const [role, cookie] of Object.entries(roles)) {
          offset += 2;
          const [row] = await db()
            .insert(reservations)
            .values({
              itemId: item.id,
              borrowerId: borrower.user.id,
              providerId: lender.user.id,
              startDate: day(offset),
              endDate: day(offset),
              status,
              pickupCode: '123456',
            })
            .returning();
          const response = await call(row!.id, cookie);
          const key = `${status}:${role}`;
          const expected =
            role === 'visitor'
              ? 401
              : role === 'stranger'
                ? 403
                : allowed[action]!.includes(key)
                  ? 200
                  : notTheirs.includes(`${action}:${role}`)
                    ? 403
                    : 409;
          expect(response.statusCode, `${action} on ${status} by ${role}`).toBe(expected);
          const [after] = await db().select().from(reservations).where(eq(reservations.id, row!.id));
          if (expected !== 200)
            expect(after!.status, `${action} on ${status} by ${role} changes nothing`).toBe(status);
        }
      }
    }
  }, 120_000);

  it('lets exactly one of 20 concurrent approvals of overlapping requests win; the rest are declined with money released', async () => {
    const lender = await createSignedInUser(db());
    const item = await createItem(db(), {
      userId: lender.user.id,
      rentalPriceCents: 500,
      rentalPeriod: 'day',
      depositCents: 2000,
    });
    const requests: { id: string; intent: string }[] = [];
    for (let i = 0; i < 20; i++) {
      const borrower = await createSignedInUser(db());
      const r = await reserve(borrower.cookie, item.id, day(2 + (i % 3)), day(6));
      requests.push({ id: r.reservation.id, intent: r.paymentIntentId! });
    }
    const results = await Promise.all(
      requests.map((r) => t.post(`/api/reservations/${r.id}/approve`, {}, lender.cookie)),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    await settlePayments(t);
    const rows = await db().select().from(reservations).where(eq(reservations.itemId, item.id));
    expect(rows.filter((r) => r.status === 'approved')).toHaveLength(1);
    expect(rows.filter((r) => r.status === 'declined')).toHaveLength(19);
    const winner = rows.find((r) => r.status === 'approved')!;
    for (const r of requests) {
      expect((await providerIntent(t, r.intent)).status).toBe(r.id === winner.id ? 'succeeded' : 'canceled');
    }
  }, 120_000);

  it('expires requests unanswered for 48 hours or whose start day has come, releasing the money and telling both', async () => {
    const { lender, borrower, item } = await scenario();
    const old = await reserve(borrower.cookie, item.id, day(5), day(6));
    const fresh = await reserve(borrower.cookie, item.id, day(8), day(9));
    await db()
      .update(reservations)
      .set({ createdAt: new Date(Date.now() - 49 * 3600_000) })
      .where(eq(reservations.id, old.reservation.id));
    const count = await reservationService.expirePending(reservationDeps(t), 48);
    await settlePayments(t);
    expect(count).toBeGreaterThanOrEqual(1);
    const [expired] = await db().select().from(reservations).where(eq(reservations.id, old.reservation.id));
    const [kept] = await db().select().from(reservations).where(eq(reservations.id, fresh.reservation.id));
    expect(expired!.status).toBe('cancelled');
    expect(kept!.status).toBe('pending');
    expect((await providerIntent(t, old.paymentIntentId!)).status).toBe('canceled');
    for (const who of [borrower, lender]) {
      const types = (await t.get('/api/notifications', who.cookie))
        .json()
        .notifications.map((n: { type: string }) => n.type);
      expect(types).toContain('reservation_expired');
    }
    // A request whose start day has passed expires too, whatever its age.
    await db()
      .update(reservations)
      .set({ startDate: day(-1) })
      .where(eq(reservations.id, fresh.reservation.id));
    await reservationService.expirePending(reservationDeps(t), 48);
    const [late] = await db().select().from(reservations).where(eq(reservations.id, fresh.reservation.id));
    expect(late!.status).toBe('cancelled');
  });
});
