import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentStepService } from '../../src/server/features/payment-steps/service.ts';
import { createSignedInUser } from '../factories.ts';
import { bookingAt } from '../helpers/booking-scenario.ts';
import { settlePayments, stepDeps } from '../helpers/money.ts';
import { setupTestApp, WITHOUT_SERVICE_FEE } from '../helpers/test-app.ts';

// Decision 058: moderators see what the journal's reconciliation found wrong with a booking, and each
// lender's yearly totals against the US 1099-K thresholds (lowered here so a booking and its extension cross them).
// The booking is the pinned one: $5/day for 2 days, a $20 deposit, the lender earning $10.

const MODERATOR = 'books.moderator@stanford.edu';
const t = setupTestApp({
  ...WITHOUT_SERVICE_FEE,
  adminEmails: [MODERATOR],
  taxReport: { thresholdCents: 1400, thresholdCount: 1 },
});
const db = () => t.database.db;
const year = new Date().getUTCFullYear();
const moderator = () => createSignedInUser(db(), { email: `${crypto.randomUUID()}.${MODERATOR}` });

async function moderatorCookie() {
  const m = await moderator();
  t.config.adminEmails.push(m.user.email);
  return m.cookie;
}

describe('GET /api/admin/lender-totals', () => {
  it('gives each lender’s year: paid to them, in how many payments, not flagged under the thresholds', async () => {
    const first = await bookingAt(t, 'approved');
    const cookie = await moderatorCookie();
    const one = await t.get(`/api/admin/lender-totals?year=${year}`, cookie);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ year, threshold: '14.00', thresholdCount: 1 });
    expect(one.json().lenders).toContainEqual({
      lenderId: first.lender.user.id,
      name: first.lender.user.fullName,
      gross: '10.00',
      transactions: 1,
      reportable: false,
    });
  });

  it('counts what was taken back: a payment given back whole is neither paid nor counted', async () => {
    const b = await bookingAt(t, 'approved');
    const cancel = await t.put(`/api/reservations/${b.id}`, { status: 'cancelled' }, b.lender.cookie);
    expect(cancel.statusCode).toBe(200);
    await settlePayments(t);
    const cookie = await moderatorCookie();
    const totals = await t.get(`/api/admin/lender-totals?year=${year}`, cookie);
    expect(totals.json().lenders.map((l: { lenderId: string }) => l.lenderId)).not.toContain(
      b.lender.user.id,
    );
  });

  it('flags a lender over both thresholds: more than $14 in more than one payment', async () => {
    // The booking and its extension: two payments to the same lender, $10 and $5.
    const b = await bookingAt(t, 'approved', { extension: { to: 4, rentalAmount: '5.00' } });
    const id = b.extension!.extension.id as string;
    expect((await t.post(`/api/extensions/${id}/approve`, {}, b.lender.cookie)).statusCode).toBe(200);
    await settlePayments(t);
    const cookie = await moderatorCookie();
    const lenders = (await t.get(`/api/admin/lender-totals?year=${year}`, cookie)).json().lenders;
    expect(lenders).toContainEqual({
      lenderId: b.lender.user.id,
      name: b.lender.user.fullName,
      gross: '15.00',
      transactions: 2,
      reportable: true,
    });
  });

  it('an earlier year with nothing in it is empty', async () => {
    await bookingAt(t, 'approved');
    const cookie = await moderatorCookie();
    const empty = await t.get('/api/admin/lender-totals?year=2001', cookie);
    expect(empty.statusCode).toBe(200);
    expect(empty.json().lenders).toEqual([]);
  });

  it('answers a bad year with 400, a visitor with 401 and a student with 403', async () => {
    const cookie = await moderatorCookie();
    for (const bad of ['abc', '1999', '2101', '2026.5']) {
      const response = await t.get(`/api/admin/lender-totals?year=${bad}`, cookie);
      expect(response.statusCode, bad).toBe(400);
    }
    expect((await t.get('/api/admin/lender-totals')).statusCode).toBe(401);
    const student = await createSignedInUser(db());
    expect((await t.get('/api/admin/lender-totals', student.cookie)).statusCode).toBe(403);
  });
});

describe('the journal’s reconciliation and GET /api/admin/journal-findings', () => {
  const reconcile = () => paymentStepService.reconcile(stepDeps(t), 1000);
  const findings = async (cookie: string) =>
    (await t.get('/api/admin/journal-findings', cookie)).json().findings;

  it('finds nothing wrong with sound books', async () => {
    await bookingAt(t, 'approved');
    await reconcile();
    expect(await findings(await moderatorCookie())).toEqual([]);
  });

  it('finds a booking whose billing rows and journal disagree, and closes it once they agree again', async () => {
    const b = await bookingAt(t, 'approved');
    await db().execute(
      sql`update billing_history set amount_cents = 2900 where reservation_id = ${b.id} and kind = 'payment'`,
    );
    await reconcile();
    const cookie = await moderatorCookie();
    expect(await findings(cookie)).toEqual([
      expect.objectContaining({
        reservationId: b.id,
        itemTitle: b.item.title,
        problem: 'rows_disagree',
        cash: '30.00',
        accounted: '30.00',
      }),
    ]);
    await db().execute(
      sql`update billing_history set amount_cents = 3000 where reservation_id = ${b.id} and kind = 'payment'`,
    );
    await reconcile();
    expect(await findings(cookie)).toEqual([]);
    await db().execute(sql`update payment_mismatches set resolved_at = now() where resolved_at is null`);
  });

  it('finds a booking the provider says otherwise of', async () => {
    const b = await bookingAt(t, 'approved');
    await db().execute(
      sql`update test_payment_intents set amount_received_cents = 2500 where id = ${b.intent}`,
    );
    await reconcile();
    const cookie = await moderatorCookie();
    expect(await findings(cookie)).toEqual([
      expect.objectContaining({ reservationId: b.id, problem: 'provider_disagrees' }),
    ]);
    await db().execute(
      sql`update test_payment_intents set amount_received_cents = 3000 where id = ${b.intent}`,
    );
    await reconcile();
    expect(await findings(cookie)).toEqual([]);
  });

  it('is for moderators only', async () => {
    expect((await t.get('/api/admin/journal-findings')).statusCode).toBe(401);
    const student = await createSignedInUser(db());
    expect((await t.get('/api/admin/journal-findings', student.cookie)).statusCode).toBe(403);
  });
});
