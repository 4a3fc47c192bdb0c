import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { fixedClock } from '../../src/server/clock.ts';
import { connectedAccounts } from '../../src/server/db/schema/payouts.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { deliveryService } from '../../src/server/features/deliveries/service.ts';
import { disputeService } from '../../src/server/features/disputes/service.ts';
import { preferenceService } from '../../src/server/features/notification-preferences/service.ts';
import { payoutService } from '../../src/server/features/payouts/service.ts';
import { transferService } from '../../src/server/features/payouts/transfers.ts';
import { bookingAt, notices } from '../helpers/booking-scenario.ts';
import { flakyProvider } from '../helpers/flaky-provider.ts';
import { settlePayments } from '../helpers/money.ts';
import { readOutbox, recipients } from '../helpers/outbox.ts';
import * as payouts from '../helpers/payouts.ts';
import { VISA } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 056, "Transfers": a booking's settled deposit sends the lender what they earned on it, once,
// however the job and the settlement race, whatever answer the provider loses; a dispute holds it, an
// account that cannot receive it makes it wait, and an early return leaves only what was earned. Runs on
// PGlite and, with TEST_DATABASE_URL, on PostgreSQL; after each test the money checks compare our sent
// transfers with the provider's (tests/helpers/money.ts).

let flaky!: ReturnType<typeof flakyProvider>;
const clock = fixedClock(new Date());
const t = setupTestApp(
  {},
  {
    clock,
    payments: (db) => {
      flaky = flakyProvider(new TestPaymentProvider(db));
      return flaky.provider;
    },
  },
);
const db = () => t.database.db;
const DISPUTE_CARD = { ...VISA, number: '4000 0000 0000 0259' };

/** The transfer the settled deposit scheduled (the pickup's secured part waits a day by default). */
const rowsOf = async (reservationId: string) =>
  (await payouts.transfersOf(t, reservationId)).filter((r) => r.purpose === 'rental_rest');

async function earnedOn(reservationId: string): Promise<number> {
  const { rows } = await db().execute<{ cents: number }>(
    sql`select coalesce(sum(amount_cents), 0)::int as cents from earning_entries where reservation_id = ${reservationId}`,
  );
  return rows[0]!.cents;
}

/** One delivery round, as the worker runs it, at a time past what the app wrote at the database's now(). */
const deliverNotices = () =>
  deliveryService.runRound({
    db: db(),
    mailer: t.app.mailer,
    push: null,
    appUrl: t.config.appUrl,
    clock: fixedClock(new Date(Date.now() + 10 * 60_000)),
    log: { info() {}, warn() {}, error() {} },
  });

async function mailsTo(email: string) {
  return (await readOutbox(t.outboxDir)).filter((m) => recipients(m).includes(email.toLowerCase()));
}

/** A paid borrow returned by the borrower and confirmed by the lender: its deposit settled. */
async function settledBorrow(options: Parameters<typeof bookingAt>[2] = {}) {
  const b = await bookingAt(t, 'returned', options);
  const done = await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie);
  expect(done.statusCode, done.body).toBe(200);
  await settlePayments(t);
  return b;
}

describe('transfers to lenders', () => {
  it('sends what the lender earned on a completed borrow, once, and shows it', async () => {
    const b = await settledBorrow();
    const earned = await earnedOn(b.id);
    // $5/day for three days less the platform's commission.
    expect(earned).toBeGreaterThan(0);
    expect(earned).toBeLessThan(1500);
    const [row] = await rowsOf(b.id);
    expect(row).toMatchObject({ status: 'scheduled', purpose: 'rental_rest', paymentIntentId: b.intent });

    await payouts.runTransfers(t, b.id);
    await payouts.runTransfers(t, b.id);
    const made = await payouts.providerTransfersOf(t, b.id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ amountCents: earned, sourceTransaction: expect.any(String) });
    const [account] = await db()
      .select()
      .from(connectedAccounts)
      .where(eq(connectedAccounts.userId, b.lender.user.id));
    expect(made[0]!.destination).toBe(account!.accountId);
    expect((await rowsOf(b.id))[0]).toMatchObject({ status: 'sent', amountCents: earned });

    const view = (await t.get('/api/payouts', b.lender.cookie)).json();
    expect(view.transfers).toEqual([
      expect.objectContaining({
        reservationId: b.id,
        status: 'sent',
        amount: (earned / 100).toFixed(2),
        purpose: 'rental_rest',
        sentAt: expect.any(String),
        // Bank payouts are not read in yet: nothing says the bank has it.
        paidOutAt: null,
      }),
    ]);
    expect(view.totals.sent).toBe((earned / 100).toFixed(2));
    // Only the lender's own transfers: the borrower sees none.
    expect((await t.get('/api/payouts', b.borrower.cookie)).json().transfers).toEqual([]);
    expect((await t.get('/api/payouts')).statusCode).toBe(401);
    const told = (await notices(t, b.lender.cookie, { id: b.id })).filter((n) => n.title === 'Payout sent');
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain(`$${(earned / 100).toFixed(2)}`);
  });

  it('makes one transfer when the settlement and many runs of the job race', async () => {
    const b = await bookingAt(t, 'returned');
    await Promise.allSettled([
      t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie),
      payouts.runTransfers(t, b.id),
    ]);
    await settlePayments(t);
    const [row] = await rowsOf(b.id);
    const runs = await Promise.allSettled(
      Array.from({ length: 6 }, () => transferService.run(payouts.transferDeps(t), row!.id, false)),
    );
    // Those that found another runner holding it throw to be retried; a retry finds it sent.
    await payouts.runTransfers(t, b.id);
    expect(runs.some((r) => r.status === 'fulfilled')).toBe(true);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(1);
    expect((await rowsOf(b.id)).map((r) => r.status)).toEqual(['sent']);
  });

  it('never makes a second transfer when the provider’s answer was lost', async () => {
    const b = await settledBorrow();
    const [row] = await rowsOf(b.id);
    flaky.loseAnswers('createTransfer', 1);
    await expect(transferService.run(payouts.transferDeps(t), row!.id, false)).rejects.toThrow();
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(1);
    expect((await rowsOf(b.id))[0]).toMatchObject({ status: 'scheduled', lastError: expect.any(String) });
    // The retry finds the transfer in its group and records it.
    await transferService.run(payouts.transferDeps(t), row!.id, false);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(1);
    expect((await rowsOf(b.id))[0]).toMatchObject({ status: 'sent', amountCents: await earnedOn(b.id) });
  });

  it('marks a transfer failed when the provider refuses it on the last attempt', async () => {
    const b = await settledBorrow();
    const [row] = await rowsOf(b.id);
    flaky.failNext('createTransfer', 1);
    await expect(transferService.run(payouts.transferDeps(t), row!.id, true)).rejects.toThrow();
    expect((await rowsOf(b.id))[0]).toMatchObject({ status: 'failed', lastError: expect.any(String) });
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(0);
  });

  it('holds the transfer while a card dispute is open', async () => {
    const b = await settledBorrow({ card: DISPUTE_CARD });
    const payments = t.app.payments as unknown as TestPaymentProvider;
    const [dispute] = await payments.disputesOf(b.intent);
    expect(dispute).toBeDefined();
    // The provider's event about it, as the webhook passes it on.
    await disputeService.providerReported(
      { db: db(), payments, adminEmails: t.config.adminEmails, appUrl: t.config.appUrl },
      dispute!.id,
    );
    expect(await disputeService.freezesTransfers(db(), b.id)).toBe(true);
    await payouts.runTransfers(t, b.id);
    await payouts.runTransfers(t, b.id);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(0);
    expect((await rowsOf(b.id)).map((r) => r.status)).toEqual(['scheduled']);
  });

  it('waits for an account that cannot receive money, then goes once it is active', async () => {
    const b = await bookingAt(t, 'returned');
    const [account] = await db()
      .select()
      .from(connectedAccounts)
      .where(eq(connectedAccounts.userId, b.lender.user.id));
    const payments = t.app.payments as unknown as TestPaymentProvider;
    const payoutDeps = { db: db(), payments, appUrl: '' };
    await payments.setConnectedAccountState(account!.accountId, 'needs_information');
    await payoutService.syncAccount(payoutDeps, account!.accountId);
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    await payouts.runTransfers(t, b.id);
    expect((await rowsOf(b.id)).map((r) => r.status)).toEqual(['waiting_account']);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(0);

    // The lender finishes onboarding: the account is read back active and the waiting transfer goes.
    const answer = await t.post(
      '/api/payouts/test/onboarding',
      { accountId: account!.accountId, outcome: 'complete' },
      b.lender.cookie,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect((await rowsOf(b.id)).map((r) => r.status)).toEqual(['scheduled']);
    await payouts.runTransfers(t, b.id);
    expect((await rowsOf(b.id)).map((r) => r.status)).toEqual(['sent']);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(1);
  });

  it('sends only what was earned after an early return', async () => {
    // Six days booked from today, back today: most of the rental goes back to the borrower.
    const b = await bookingAt(t, 'active', { days: { from: 0, to: 5 } });
    const earnedBefore = await earnedOn(b.id);
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'returned' }, b.borrower.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    await payouts.runTransfers(t, b.id);
    const earned = await earnedOn(b.id);
    expect(earned).toBeLessThan(earnedBefore);
    const made = await payouts.providerTransfersOf(t, b.id);
    expect(made.map((m) => m.amountCents)).toEqual([earned]);
  });

  it('sends the rental no early return can take back a day after pickup, and the rest at the end', async () => {
    // $5/day for six days from today, flexible: an early return gives back every unused day.
    const b = await bookingAt(t, 'active', { days: { from: 0, to: 5 }, policy: 'flexible' });
    const [secured] = await payouts.transfersOf(t, b.id);
    expect(secured).toMatchObject({ purpose: 'rental_secured', status: 'scheduled' });
    const earnedAtPickup = await earnedOn(b.id);
    // Not before the delay.
    await payouts.runTransfers(t, b.id);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(0);

    // A day later, a return today (day 1) would give back days 2 to 5: $20 of it is not certain yet.
    const dayLater = new Date(secured!.releaseAt.getTime() + 60_000);
    clock.set(dayLater);
    await payouts.runTransfers(t, b.id, dayLater);
    const first = await payouts.providerTransfersOf(t, b.id);
    expect(first.map((m) => m.amountCents)).toEqual([earnedAtPickup - 2000]);

    // The borrower brings it back that day: $20 of rental back, and the lender's earning less by it.
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'returned' }, b.borrower.cookie)).statusCode,
    ).toBe(200);
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    await payouts.runTransfers(t, b.id, dayLater);
    const earned = await earnedOn(b.id);
    const all = await payouts.providerTransfersOf(t, b.id);
    expect(all.reduce((sum, m) => sum + m.amountCents, 0)).toBe(earned);
    expect((await payouts.transfersOf(t, b.id)).map((r) => r.status).sort()).toEqual(
      earned > earnedAtPickup - 2000 ? ['sent', 'sent'] : ['cancelled', 'sent'],
    );
    clock.set(new Date());
  });

  describe('the e-mail that tells the lender', () => {
    it('is sent once, with the amount, the item and a link to the Earnings page, however often the job runs', async () => {
      const b = await settledBorrow();
      const [row] = await rowsOf(b.id);
      // The job twice in a row and several at once, as retries and two workers would run it.
      await payouts.runTransfers(t, b.id);
      await payouts.runTransfers(t, b.id);
      await Promise.allSettled(
        Array.from({ length: 4 }, () => transferService.run(payouts.transferDeps(t), row!.id, false)),
      );
      await deliverNotices();
      await deliverNotices();
      const amount = `$${((await earnedOn(b.id)) / 100).toFixed(2)}`;
      const mails = (await mailsTo(b.lender.user.email)).filter((m) => m.subject === 'Payout sent');
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain(`${amount} for ${b.item.title}`);
      expect(mails[0]!.text).toContain(`${t.config.appUrl}/earnings`);
      expect(mails[0]!.html).toContain('See your earnings');
    });

    it('is written in the lender’s language', async () => {
      const b = await settledBorrow();
      await db().update(users).set({ locale: 'es' }).where(eq(users.id, b.lender.user.id));
      await payouts.runTransfers(t, b.id);
      await deliverNotices();
      const mails = (await mailsTo(b.lender.user.email)).filter((m) => m.subject === 'Pago enviado');
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain(`por ${b.item.title}`);
      expect(mails[0]!.text).toContain(`${t.config.appUrl}/earnings`);
      expect(mails[0]!.html).toContain('Ver tus ganancias');
    });

    it('is not sent to a lender who turned these e-mails off, who still gets the notice', async () => {
      const b = await settledBorrow();
      await preferenceService.set(db(), b.lender.user.id, { kind: 'payouts', email: false });
      await payouts.runTransfers(t, b.id);
      await deliverNotices();
      expect((await mailsTo(b.lender.user.email)).filter((m) => m.subject === 'Payout sent')).toEqual([]);
      const told = await notices(t, b.lender.cookie, { id: b.id });
      expect(told.filter((n) => n.type === 'payout_sent')).toHaveLength(1);
    });
  });
});
