import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { LIMITS } from '../../src/shared/constants.ts';
import { settlePayments, stepStatuses } from '../helpers/money.ts';
import { day, quoteFor, reserve, scenario, VISA } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Money: one payment pays for one booking whatever arrives at once; a booking cannot
// overflow; approve, decline and cancel of one reservation at once never deadlock into a 500; and the
// pickup code proves the meeting. Every test here also ends with billing equal to the provider
// (setupTestApp's check), on PGlite and on PostgreSQL.

const t = setupTestApp();
const db = () => t.database.db;

async function reservationsOf(itemId: string) {
  return db().select().from(reservations).where(eq(reservations.itemId, itemId));
}

/** A confirmed card authorisation for the item's days `from`–`to`, not yet used by a request. */
async function paidIntent(cookie: string, itemId: string, from: number, to: number) {
  const quote = await quoteFor(t, cookie, itemId, day(from), day(to));
  const { paymentIntentId } = quote.json() as { paymentIntentId: string };
  expect(
    (await t.post('/api/payments/test/confirm', { paymentIntentId, card: VISA }, cookie)).statusCode,
  ).toBe(200);
  return paymentIntentId;
}

/** Ten requests at once for the item's days 2–5 with one payment. */
function tenRequests(cookie: string, itemId: string, paymentIntentId: string) {
  return Promise.all(
    Array.from({ length: 10 }, () =>
      t.post(
        '/api/reservations',
        { itemId, startDate: day(2), endDate: day(5), stripePaymentIntentId: paymentIntentId },
        cookie,
      ),
    ),
  );
}

describe('one payment, one booking', () => {
  it('makes one reservation of ten concurrent requests with the same payment', async () => {
    const { borrower, item } = await scenario(t);
    const intent = await paidIntent(borrower.cookie, item.id, 2, 5);
    const answers = await tenRequests(borrower.cookie, item.id, intent);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) {
      expect(refused.json()).toMatchObject({
        code: 'PAYMENT_ALREADY_USED',
        message: 'That payment is already used by another reservation.',
      });
    }
    expect(await reservationsOf(item.id)).toHaveLength(1);
  });

  it('keeps nothing of a request whose transaction fails after its booking took the payment, and books once on the retry', async () => {
    const { lender, borrower, item } = await scenario(t);
    const intent = await paidIntent(borrower.cookie, item.id, 2, 5);
    // The borrower's payment row, written after the statement that inserts the booking and marks the
    // payment used, fails once as a serialization failure would (a sequence: its count survives the
    // rollback). Ten requests with the payment arrive meanwhile.
    await db().execute(sql`create sequence if not exists fault_after_booking_seq`);
    await db().execute(sql`
      create or replace function fault_after_booking() returns trigger language plpgsql as $$
      begin
        if new.kind = 'payment' and nextval('fault_after_booking_seq') = 1 then
          raise exception 'injected after the booking' using errcode = '40001';
        end if;
        return new;
      end $$`);
    await db().execute(sql`
      create trigger fault_after_booking before insert on billing_history
      for each row execute function fault_after_booking()`);
    try {
      const answers = await tenRequests(borrower.cookie, item.id, intent);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array(9).fill(409)]);
      expect(
        Number(
          (await db().execute<{ n: string }>(sql`select last_value as n from fault_after_booking_seq`))
            .rows[0]!.n,
        ),
        'the fault was met',
      ).toBeGreaterThanOrEqual(1);
    } finally {
      await db().execute(sql`drop trigger fault_after_booking on billing_history`);
      await db().execute(sql`drop function fault_after_booking()`);
      await db().execute(sql`drop sequence fault_after_booking_seq`);
    }
    // One booking; the payment used by exactly it; one payment row and one notice for the lender.
    const booked = await reservationsOf(item.id);
    expect(booked).toHaveLength(1);
    const used = await db().execute<{ status: string; reservation_id: string }>(
      sql`select status, reservation_id from payment_intents where id = ${intent}`,
    );
    expect(used.rows).toEqual([{ status: 'used', reservation_id: booked[0]!.id }]);
    const rows = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from billing_history where stripe_payment_intent_id = ${intent}`,
    );
    expect(rows.rows[0]!.n).toBe(1);
    const notices = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from notifications where user_id = ${lender.user.id} and related_reservation_id = ${booked[0]!.id}`,
    );
    expect(notices.rows[0]!.n).toBe(1);
  });

  it('refuses the same payment for other dates, even at the same price, and at once for ten of them', async () => {
    const { lender, borrower, item } = await scenario(t);
    const intent = await paidIntent(borrower.cookie, item.id, 2, 5);
    // Days 6–9 cost the same $35; the payment was for days 2–5.
    const other = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(6), endDate: day(9), stripePaymentIntentId: intent },
      borrower.cookie,
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('PAYMENT_MISMATCH');

    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.post(
          '/api/reservations',
          {
            itemId: item.id,
            startDate: day(2 + i * 4),
            endDate: day(5 + i * 4),
            stripePaymentIntentId: intent,
          },
          borrower.cookie,
        ),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.every((a) => a.statusCode === 201 || a.statusCode === 409)).toBe(true);
    const made = await reservationsOf(item.id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ startDate: day(2), endDate: day(5) });

    // The lender can approve it once, and the card is charged the $36.50 it authorised ($15 of rental,
    // its $1.50 service fee, the $20 deposit), once.
    expect((await t.post(`/api/reservations/${made[0]!.id}/approve`, {}, lender.cookie)).statusCode).toBe(
      200,
    );
    await settlePayments(t);
    const { rows } = await db().execute<{ received: number }>(
      sql`select amount_received_cents as received from test_payment_intents where id = ${intent}`,
    );
    expect(rows[0]!.received).toBe(3650);
  });

  it('lets the database itself refuse a second reservation with the same payment', async () => {
    const { borrower, lender, item } = await scenario(t, { rentalPriceCents: null, depositCents: null });
    const values = {
      itemId: item.id,
      borrowerId: borrower.user.id,
      providerId: lender.user.id,
      startDate: day(1),
      endDate: day(2),
      stripePaymentIntentId: 'pi_test_shared',
    };
    await db().insert(reservations).values(values);
    await expect(
      db()
        .insert(reservations)
        .values({ ...values, startDate: day(5), endDate: day(6) }),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: '23505' }) });
  });

  it('refuses a payment made by someone else, or one the provider never authorised', async () => {
    const { borrower, stranger, item } = await scenario(t);
    const theirs = await paidIntent(stranger.cookie, item.id, 2, 3);
    const stolen = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(2), endDate: day(3), stripePaymentIntentId: theirs },
      borrower.cookie,
    );
    expect(stolen.statusCode).toBe(400);
    const unpaid = (await quoteFor(t, borrower.cookie, item.id, day(2), day(3))).json().paymentIntentId;
    const notYet = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(2), endDate: day(3), stripePaymentIntentId: unpaid },
      borrower.cookie,
    );
    expect(notYet.statusCode).toBe(402);
    expect(await reservationsOf(item.id)).toHaveLength(0);
  });
});

describe('booking limits', () => {
  it(`refuses a booking longer than ${LIMITS.bookingDaysMax} days, before and after payment, with a clear 400`, async () => {
    const { borrower, item } = await scenario(t, { availableUntil: null });
    for (const length of [LIMITS.bookingDaysMax + 1, 2_299]) {
      const quote = await t.post(
        '/api/create-payment-intent',
        {
          itemId: item.id,
          startDate: day(1),
          endDate: day(1 + length),
          depositAmount: '20.00',
          rentalAmount: '1.00',
        },
        borrower.cookie,
      );
      expect(quote.statusCode).toBe(400);
      expect(quote.json().message).toBe(
        `A booking can be at most ${LIMITS.bookingDaysMax} days. Choose an earlier end date.`,
      );
    }
    const free = await scenario(t, { rentalPriceCents: null, depositCents: null, availableUntil: null });
    const request = await t.post(
      '/api/reservations',
      { itemId: free.item.id, startDate: day(1), endDate: day(2_300) },
      free.borrower.cookie,
    );
    expect(request.statusCode).toBe(400);
    expect(await reservationsOf(free.item.id)).toHaveLength(0);
    const longest = await t.post(
      '/api/reservations',
      { itemId: free.item.id, startDate: day(1), endDate: day(1 + LIMITS.bookingDaysMax) },
      free.borrower.cookie,
    );
    expect(longest.statusCode).toBe(201);
  });

  it('refuses a total above $20,000 instead of overflowing', async () => {
    const { borrower, item } = await scenario(t, {
      rentalPriceCents: 1_000_000,
      rentalPeriod: 'day',
      depositCents: 0,
    });
    const quote = await t.post(
      '/api/create-payment-intent',
      { itemId: item.id, startDate: day(1), endDate: day(4), depositAmount: '0', rentalAmount: '30000.00' },
      borrower.cookie,
    );
    expect(quote.statusCode).toBe(400);
    expect(quote.json().message).toBe(
      'A booking can cost at most $20,000, rental and deposit together. Choose fewer days.',
    );
    const twoDays = await t.post(
      '/api/create-payment-intent',
      { itemId: item.id, startDate: day(1), endDate: day(3), depositAmount: '0', rentalAmount: '20000.00' },
      borrower.cookie,
    );
    expect(twoDays.statusCode).toBe(200);
  });
});

describe('approve, decline and cancel at once', () => {
  it('never deadlocks into a 500: 50 rounds of the three at once leave one consistent outcome each', async () => {
    const { lender, borrower, item } = await scenario(t);
    const outcomes = new Map<string, number>();
    for (let round = 0; round < 50; round++) {
      // Each round on its own days, so earlier rounds' approvals do not decide this one.
      const r = await reserve(t, borrower.cookie, item.id, day(1 + round * 2), day(1 + round * 2));
      const id = r.reservation.id as string;
      const [approve, decline, cancel] = await Promise.all([
        t.post(`/api/reservations/${id}/approve`, {}, lender.cookie),
        t.post(`/api/reservations/${id}/decline`, {}, lender.cookie),
        t.put(`/api/reservations/${id}`, { status: 'cancelled' }, borrower.cookie),
      ]);
      for (const answer of [approve, decline, cancel]) expect([200, 409]).toContain(answer!.statusCode);
      // Approve and decline both answer a pending request: never both.
      expect(approve!.statusCode === 200 && decline!.statusCode === 200).toBe(false);
      const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
      const expected =
        cancel!.statusCode === 200 ? 'cancelled' : approve!.statusCode === 200 ? 'approved' : 'declined';
      expect(row!.status, `round ${round}`).toBe(expected);
      outcomes.set(expected, (outcomes.get(expected) ?? 0) + 1);
    }
    await settlePayments(t);
    // Whatever happened, each payment ended where its reservation says (billing = provider is checked
    // after the test), and no step is left undone.
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from payment_steps where status not in ('succeeded', 'superseded')`,
    );
    expect(rows[0]!.n).toBe(0);
    expect([...outcomes.values()].reduce((a, b) => a + b)).toBe(50);
  }, 180_000);
});

describe('the pickup code proves the meeting', () => {
  async function approved() {
    const s = await scenario(t, { rentalPriceCents: null, depositCents: null });
    const created = await t.post(
      '/api/reservations',
      { itemId: s.item.id, startDate: day(1), endDate: day(2) },
      s.borrower.cookie,
    );
    const id = created.json().reservation.id as string;
    await t.post(`/api/reservations/${id}/approve`, {}, s.lender.cookie);
    const code = async () =>
      (await t.get('/api/reservations', s.borrower.cookie)).json().reservations[0].pickupCode as string;
    return { ...s, id, code };
  }
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

  it('shows the code to the borrower only', async () => {
    const { lender, id, code } = await approved();
    expect(await code()).toMatch(/^\d{6}$/);
    const lenderView = (await t.get('/api/reservations', lender.cookie)).json().reservations;
    expect(lenderView.find((r: { id: string }) => r.id === id).pickupCode).toBeNull();
  });

  it('gives the borrower a new code after five wrong ones; the old code stops working', async () => {
    const { lender, borrower, id, code } = await approved();
    const first = await code();
    for (let left = 4; left >= 1; left--) {
      const wrong = await t.put(
        `/api/reservations/${id}`,
        { status: 'active', pickupCode: wrongFor(first) },
        lender.cookie,
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toContain(`(${left} ${left === 1 ? 'try' : 'tries'} left)`);
    }
    const fifth = await t.put(
      `/api/reservations/${id}`,
      { status: 'active', pickupCode: wrongFor(first) },
      lender.cookie,
    );
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toMatchObject({ code: 'PICKUP_CODE_REISSUED' });
    const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
    expect(row).toMatchObject({ status: 'approved', pickupCodeAttempts: 0 });
    const notes = (await t.get('/api/notifications', borrower.cookie)).json().notifications;
    expect(notes[0]).toMatchObject({ title: 'New pickup code', relatedReservationId: id });
    const second = await code();
    if (second !== first) {
      const old = await t.put(
        `/api/reservations/${id}`,
        { status: 'active', pickupCode: first },
        lender.cookie,
      );
      expect(old.statusCode).toBe(400);
    }
    const right = await t.put(
      `/api/reservations/${id}`,
      { status: 'active', pickupCode: second },
      lender.cookie,
    );
    expect(right.json().reservation.status).toBe('active');
  });

  it('counts wrong codes typed at once one by one: twelve give exactly two new codes', async () => {
    const { lender, borrower, id, code } = await approved();
    const wrong = wrongFor(await code());
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.put(`/api/reservations/${id}`, { status: 'active', pickupCode: wrong }, lender.cookie),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([...Array(10).fill(400), 429, 429]);
    const notes = (await t.get('/api/notifications', borrower.cookie)).json().notifications;
    expect(notes.filter((n: { title: string }) => n.title === 'New pickup code')).toHaveLength(2);
    const [row] = await db().select().from(reservations).where(eq(reservations.id, id));
    expect(row!.pickupCodeAttempts).toBe(2);
  });
});

describe('payment steps of a reservation', () => {
  it('records each provider call the lifecycle needs, in order, and runs each once', async () => {
    // Strict: the return before the last day (an early return, decision 034) refunds no rental here.
    const { lender, borrower, item } = await scenario(t, { cancellationPolicy: 'strict' });
    const r = await reserve(t, borrower.cookie, item.id, day(1), day(3));
    const id = r.reservation.id;
    await t.post(`/api/reservations/${id}/approve`, {}, lender.cookie);
    expect(await stepStatuses(t, r.paymentIntentId!)).toEqual(['capture:pending']);
    await settlePayments(t);
    await settlePayments(t);
    const code = (await t.get('/api/reservations', borrower.cookie)).json().reservations[0].pickupCode;
    await t.put(`/api/reservations/${id}`, { status: 'active', pickupCode: code }, lender.cookie);
    // The borrower says it is back, the lender confirms it came back in good condition.
    await t.put(`/api/reservations/${id}`, { status: 'returned' }, borrower.cookie);
    await t.put(`/api/reservations/${id}`, { status: 'completed' }, lender.cookie);
    await settlePayments(t);
    expect(await stepStatuses(t, r.paymentIntentId!)).toEqual(['capture:succeeded', 'refund:succeeded']);
    const { rows } = await db().execute<{ received: number; refunded: number }>(
      sql`select amount_received_cents as received, amount_refunded_cents as refunded
          from test_payment_intents where id = ${r.paymentIntentId}`,
    );
    // The service fee stays charged with the rental; only the deposit comes back.
    expect(rows[0]).toEqual({ received: 3100, refunded: 2000 });
  });
});
