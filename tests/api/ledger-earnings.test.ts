import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerService } from '../../src/server/features/ledger/service.ts';
import { bookingAt } from '../helpers/booking-scenario.ts';
import { settlePayments } from '../helpers/money.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 045: a lender's earnings are a history of entries that add and subtract, and the ledger
// reconciles them with the earning rows people see, per booking and per lender. The booking is the
// pinned one: $5/day for 2 days, a $20 deposit.

const t = setupTestApp();
const db = () => t.database.db;

async function entries(reservationId: string) {
  const { rows } = await db().execute<{ reason: string; amount_cents: number }>(
    sql`select reason, amount_cents from earning_entries where reservation_id = ${reservationId} order by created_at, amount_cents desc`,
  );
  return rows.map((r) => `${r.reason}:${r.amount_cents}`);
}

describe('earnings as a history', () => {
  it('an approval adds the rental; the lender’s figure is the sum, and it matches their rows', async () => {
    const b = await bookingAt(t, 'approved');
    expect(await entries(b.id)).toEqual(['rental:1000']);
    expect(await ledgerService.earningsOfBooking(db(), b.id)).toEqual({
      entriesCents: 1000,
      billingCents: 1000,
    });
    expect(await ledgerService.earningsOfLender(db(), b.lender.user.id)).toEqual({
      entriesCents: 1000,
      billingCents: 1000,
    });
  });

  it('a borrower’s late cancellation (moderate) subtracts what goes back of the rental', async () => {
    const b = await bookingAt(t, 'approved', { policy: 'moderate' });
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.borrower.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    expect(await entries(b.id)).toEqual(['rental:1000', 'cancellation_fee:-500']);
    expect(await ledgerService.earningsOfBooking(db(), b.id)).toEqual({
      entriesCents: 500,
      billingCents: 500,
    });
  });

  it('a lender’s cancellation takes the whole earning back once the refund is made', async () => {
    const b = await bookingAt(t, 'approved');
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    // Until the provider has refunded, the earning stands, in the entries as in the rows.
    expect(await ledgerService.earningsOfBooking(db(), b.id)).toEqual({
      entriesCents: 1000,
      billingCents: 1000,
    });
    await settlePayments(t);
    expect(await entries(b.id)).toEqual(['rental:1000', 'cancelled:-1000']);
    expect(await ledgerService.earningsOfBooking(db(), b.id)).toEqual({ entriesCents: 0, billingCents: 0 });
  });

  it('a cancellation before the capture ran calls it off: the earning never happens', async () => {
    const b = await bookingAt(t, 'approved', { settle: false });
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    expect(await entries(b.id)).toEqual(['rental:1000', 'cancelled:-1000']);
    expect(await ledgerService.earningsOfBooking(db(), b.id)).toEqual({ entriesCents: 0, billingCents: 0 });
    await settlePayments(t);
  });

  it('a claim kept from the deposit adds to the earning; the lender’s figure sums every booking', async () => {
    const claim = { description: 'A deep scratch across the front of the lens.', amount: '8.00' };
    const b = await bookingAt(t, 'claimed', { policy: 'strict', claim });
    expect((await t.post(`/api/reservations/${b.id}/claim/accept`, {}, b.borrower.cookie)).statusCode).toBe(
      200,
    );
    await settlePayments(t);
    expect(await entries(b.id)).toEqual(['rental:1000', 'deposit_kept:800']);
    expect(await ledgerService.earningsOfLender(db(), b.lender.user.id)).toEqual({
      entriesCents: 1800,
      billingCents: 1800,
    });
    expect(await ledgerService.earningMismatches(db())).toEqual([]);
  });

  it('an early return subtracts the refunded rental', async () => {
    const b = await bookingAt(t, 'returned', { days: { from: 0, to: 4 } });
    await settlePayments(t);
    expect(await entries(b.id)).toEqual(['rental:2000', 'early_return:-1500']);
    expect(await ledgerService.earningsOfBooking(db(), b.id)).toEqual({
      entriesCents: 500,
      billingCents: 500,
    });
  });

  it('an entry is never changed: the database refuses', async () => {
    const b = await bookingAt(t, 'approved');
    await expect(
      db().execute(sql`update earning_entries set amount_cents = 5 where reservation_id = ${b.id}`),
    ).rejects.toThrow();
    expect(await entries(b.id)).toEqual(['rental:1000']);
  });

  it('the reconciliation finds an earning row changed behind the ledger’s back', async () => {
    const b = await bookingAt(t, 'approved');
    await db().execute(
      sql`update billing_history set amount_cents = 999 where reservation_id = ${b.id} and kind = 'earning'`,
    );
    expect(await ledgerService.earningsOfBooking(db(), b.id)).toEqual({
      entriesCents: 1000,
      billingCents: 999,
    });
    expect(await ledgerService.earningMismatches(db())).toEqual([
      { paymentIntentId: b.intent, entriesCents: 1000, billingCents: 999 },
    ]);
    // Put back, so the check after every test finds the ledger sound.
    await db().execute(
      sql`update billing_history set amount_cents = 1000 where reservation_id = ${b.id} and kind = 'earning'`,
    );
  });
});

describe('the rows a payment step settles', () => {
  /** Per step of the intent (in order): its kind, and the rows recorded for it as 'kind:amount'. */
  async function settles(intentId: string) {
    const { rows } = await db().execute<{ step: string; row: string }>(sql`
      select s.kind || ':' || s.purpose as step, b.kind || ':' || b.amount_cents as row
      from payment_steps s
      join payment_step_rows l on l.step_id = s.id
      join billing_history b on b.id = l.billing_id
      where s.payment_intent_id = ${intentId}
      order by s.seq, b.kind`);
    return rows.map((r) => `${r.step} ${r.row}`);
  }

  it('are recorded when the step is planned, and the step settles exactly those', async () => {
    const b = await bookingAt(t, 'approved', { settle: false, policy: 'strict', days: { from: 0, to: 2 } });
    expect(await settles(b.intent)).toEqual([
      'capture:approval earning:1000',
      'capture:approval payment:3100',
    ]);
    // Picked up, then the lender confirms it back (strict: an early return refunds no rental).
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'active' }, b.borrower.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    expect(await settles(b.intent)).toEqual([
      'capture:approval earning:1000',
      'capture:approval payment:3100',
      'refund:deposit refund:2000',
    ]);
  });
});
