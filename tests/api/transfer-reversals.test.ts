import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { disputes } from '../../src/server/db/schema/disputes.ts';
import { payoutReversals } from '../../src/server/db/schema/payouts.ts';
import { transaction } from '../../src/server/db/transaction.ts';
import { disputeService } from '../../src/server/features/disputes/service.ts';
import { ledgerService } from '../../src/server/features/ledger/service.ts';
import { transferService } from '../../src/server/features/payouts/transfers.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { bookingAt, notices, pickUp, reserveAtQuote } from '../helpers/booking-scenario.ts';
import { settlePayments } from '../helpers/money.ts';
import * as payouts from '../helpers/payouts.ts';
import { day, VISA } from '../helpers/reservation-fixtures.ts';

// Decision 061: a sent transfer is taken back when what it kept is no longer the lender's (a lender
// found at fault for a lost card dispute); what the lender's balance cannot cover becomes a receivable,
// netted once from their next transfer; a chargeback the platform bears, or wins, takes nothing back; a
// disconnected or restricted account makes transfers wait until it is active again; the daily bank
// payout marks transfers paid to the bank. On PGlite and, with TEST_DATABASE_URL, PostgreSQL; the money
// checks after each test compare our transfers, reversals and journal with the test provider's.

const MODERATOR = 'reversal.moderator@stanford.edu';
const app = payouts.setupPayoutApp(MODERATOR);
const { t, tp } = app;
const db = () => t.database.db;
const DISPUTE_CARD = { ...VISA, number: '4000 0000 0000 0259' };
const sentOf = async (reservationId: string) =>
  (await payouts.transfersOf(t, reservationId)).filter((r) => r.status === 'sent' || r.status === 'reversed');

/** A paid borrow completed and its lender paid. */
async function paidBorrow(options: Parameters<typeof bookingAt>[2] = {}) {
  const b = await bookingAt(t, 'returned', options);
  const done = await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie);
  expect(done.statusCode, done.body).toBe(200);
  await settlePayments(t);
  await payouts.runTransfers(t, b.id);
  const sent = await sentOf(b.id);
  expect(sent).toHaveLength(1);
  return { ...b, transfer: sent[0]! };
}

/** The same lender's next borrow of another item of theirs, completed (its transfer not run yet). */
async function nextBorrowOf(lender: { user: { id: string }; cookie: string }) {
  const borrower = await createSignedInUser(db());
  const item = await createItem(db(), {
    userId: lender.user.id,
    title: 'Camping stove',
    rentalPriceCents: 500,
    rentalPeriod: 'day',
    depositCents: 2000,
  });
  const booked = await reserveAtQuote(t, borrower.cookie, item, day(1), day(3));
  expect(booked.create.statusCode, booked.create.body).toBe(201);
  const b = { id: booked.id as string, lender, borrower };
  expect((await t.post(`/api/reservations/${b.id}/approve`, {}, lender.cookie)).statusCode).toBe(200);
  await settlePayments(t);
  await pickUp(t, b, 'lender-with-code');
  expect((await t.put(`/api/reservations/${b.id}`, { status: 'returned' }, borrower.cookie)).statusCode).toBe(
    200,
  );
  expect((await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, lender.cookie)).statusCode).toBe(
    200,
  );
  await settlePayments(t);
  return b;
}

/** A chargeback of the booking's payment after the lender was paid, closed as the bank decides. */
async function chargeback(b: { id: string; intent: string }, outcome: 'won' | 'lost') {
  await tp().disputePayment(b.intent);
  const [row] = await db().select().from(disputes).where(eq(disputes.reservationId, b.id));
  expect(row, 'the dispute is recorded').toBeDefined();
  const closed = await t.post(
    `/api/admin/disputes/${row!.id}/test-outcome`,
    { outcome },
    app.moderator.cookie,
  );
  expect(closed.statusCode, closed.body).toBe(200);
  return row!;
}

async function findLenderAtFault(disputeId: string) {
  const found = await t.post(
    `/api/admin/disputes/${disputeId}/finding`,
    { finding: 'lender_at_fault' },
    app.moderator.cookie,
  );
  expect(found.statusCode, found.body).toBe(200);
  return found.json().dispute as { reversal: string };
}

describe('a lender found at fault after the transfer', () => {
  it('has the transfer taken back for the finding, once however many runs race, and is told', async () => {
    const b = await paidBorrow();
    const earned = b.transfer.amountCents!;
    const dispute = await chargeback(b, 'lost');
    const { reversal } = await findLenderAtFault(dispute.id);
    const reverse = Math.round(Number(reversal) * 100);
    expect(reverse).toBe(earned);

    const runs = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        transferService.reconcileBooking(payouts.transferDeps(t), b.id, b.lender.user.id),
      ),
    );
    expect(runs.some((r) => r.status === 'fulfilled')).toBe(true);
    await transferService.reconcileBooking(payouts.transferDeps(t), b.id, b.lender.user.id);

    const [atProvider] = await payouts.providerTransfersOf(t, b.id);
    expect(atProvider!.amountReversedCents).toBe(reverse);
    const [row] = await sentOf(b.id);
    expect(row).toMatchObject({ status: 'reversed', reversedCents: reverse, owedCents: 0 });
    expect(await db().select().from(payoutReversals).where(eq(payoutReversals.transferId, row!.id))).toEqual([
      expect.objectContaining({ status: 'sent', reason: 'lender_at_fault', reversedCents: reverse }),
    ]);
    // Nothing left to send again: the booking's money is no longer the lender's.
    await payouts.runTransfers(t, b.id);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(1);
    expect(await disputeService.receivableOf(db(), b.lender.user.id)).toBe(0);
    const told = (await notices(t, b.lender.cookie, { id: b.id })).filter(
      (n) => n.title === 'Payout taken back',
    );
    expect(told).toHaveLength(1);
    const view = (await t.get('/api/payouts', b.lender.cookie)).json();
    expect(view.transfers[0]).toMatchObject({ status: 'reversed', amount: '0.00' });
  });

  it('finds a reversal whose answer was lost instead of making a second', async () => {
    const b = await paidBorrow();
    const dispute = await chargeback(b, 'lost');
    await findLenderAtFault(dispute.id);
    app.flaky.loseAnswers('reverseTransfer', 1);
    await expect(
      transferService.reconcileBooking(payouts.transferDeps(t), b.id, b.lender.user.id),
    ).rejects.toThrow();
    // The lease of the crashed runner runs out; the next one finds the reversal made.
    await transferService.reconcileBooking(
      payouts.transferDeps(t, new Date(Date.now() + 600_000)),
      b.id,
      b.lender.user.id,
    );
    const [atProvider] = await payouts.providerTransfersOf(t, b.id);
    expect(atProvider!.amountReversedCents).toBe(b.transfer.amountCents);
    expect((await sentOf(b.id))[0]).toMatchObject({ reversedCents: b.transfer.amountCents });
  });

  it('owes what their balance cannot cover: a receivable netted once from their next transfer', async () => {
    const b = await paidBorrow();
    const earned = b.transfer.amountCents!;
    // The lender's balance went to their bank (the transfer became available two days later).
    const bankPayouts = await tp().payOutBalances(new Date(Date.now() + 3 * 86_400_000));
    expect(bankPayouts.some((p) => p.amountCents >= earned)).toBe(true);
    const dispute = await chargeback(b, 'lost');
    await findLenderAtFault(dispute.id);
    await transferService.reconcileBooking(payouts.transferDeps(t), b.id, b.lender.user.id);
    expect((await payouts.providerTransfersOf(t, b.id))[0]!.amountReversedCents).toBe(0);
    expect((await sentOf(b.id))[0]).toMatchObject({ reversedCents: 0, owedCents: earned });
    expect(await disputeService.receivableOf(db(), b.lender.user.id)).toBe(earned);

    const next = await nextBorrowOf(b.lender);
    const row = (await payouts.transfersOf(t, next.id)).find((r) => r.purpose === 'rental_rest');
    const nextEarned = (
      await db().execute<{ cents: number }>(
        sql`select sum(amount_cents)::int as cents from earning_entries where reservation_id = ${next.id}`,
      )
    ).rows[0]!.cents;
    // Many runs at once net the debt once.
    await Promise.allSettled(
      Array.from({ length: 4 }, () => transferService.run(payouts.transferDeps(t), row!.id, false)),
    );
    await payouts.runTransfers(t, next.id);
    const made = await payouts.providerTransfersOf(t, next.id);
    const netted = Math.min(earned, nextEarned);
    if (nextEarned > netted) {
      expect(made).toHaveLength(1);
      expect(made[0]!.amountCents).toBe(nextEarned - netted);
    } else expect(made).toHaveLength(0);
    expect((await payouts.transfersOf(t, next.id)).find((r) => r.purpose === 'rental_rest')).toMatchObject({
      status: 'sent',
      nettedCents: netted,
    });
    expect(await disputeService.receivableOf(db(), b.lender.user.id)).toBe(earned - netted);
  });
});

describe('a refund after the transfer', () => {
  it('takes back what the refund took from the lender’s earning, once, right after the refund', async () => {
    const b = await paidBorrow();
    const sent = b.transfer.amountCents!;
    const [intent] = (
      await db().execute<{ left: number }>(
        sql`select (amount_received_cents - amount_refunded_cents)::int as left from test_payment_intents where id = ${b.intent}`,
      )
    ).rows;
    // Support gives the borrower back everything still charged: the lender's earning of it ends.
    await transaction(db(), (tx) =>
      ledgerService.giveBack(tx, t.app.jobs, {
        reservationId: b.id,
        paymentIntentId: b.intent,
        borrowerId: b.borrower.user.id,
        amountCents: intent!.left,
        description: 'Refund from CampusLoop support',
      }),
    );
    await settlePayments(t);
    // The round finds the booking keeping more than the lender's due and sends its job.
    expect(await transferService.sendDue(payouts.transferDeps(t))).toBeGreaterThan(0);
    // The payment steps' worker reconciles the payment's paid bookings right after its steps ran.
    expect(await transferService.afterPaymentSteps(payouts.transferDeps(t), b.intent)).toBe(sent);
    expect((await payouts.providerTransfersOf(t, b.id))[0]!.amountReversedCents).toBe(sent);
    expect((await sentOf(b.id))[0]).toMatchObject({ status: 'reversed', reversedCents: sent, owedCents: 0 });
    expect((await db().select().from(payoutReversals)).filter((r) => r.transferId === b.transfer.id)).toEqual(
      [expect.objectContaining({ reason: 'refund', reversedCents: sent })],
    );
    // Nothing more to do: a second run and round find it settled.
    await transferService.reconcileBooking(payouts.transferDeps(t), b.id, b.lender.user.id);
    expect((await payouts.providerTransfersOf(t, b.id))[0]!.amountReversedCents).toBe(sent);
  });
});

describe('a chargeback after the transfer', () => {
  it('won: nothing is taken back', async () => {
    const b = await paidBorrow();
    await chargeback(b, 'won');
    await transferService.reconcileBooking(payouts.transferDeps(t), b.id, b.lender.user.id);
    expect((await payouts.providerTransfersOf(t, b.id))[0]!.amountReversedCents).toBe(0);
    expect((await sentOf(b.id))[0]).toMatchObject({ status: 'sent', reversedCents: 0 });
  });

  it('lost and borne by the platform: nothing is taken back', async () => {
    const b = await paidBorrow();
    const dispute = await chargeback(b, 'lost');
    const found = await t.post(
      `/api/admin/disputes/${dispute.id}/finding`,
      { finding: 'platform_bears' },
      app.moderator.cookie,
    );
    expect(found.statusCode).toBe(200);
    await transferService.reconcileBooking(payouts.transferDeps(t), b.id, b.lender.user.id);
    expect((await payouts.providerTransfersOf(t, b.id))[0]!.amountReversedCents).toBe(0);
  });
});

describe('a chargeback before the transfer, lender at fault', () => {
  it('sends only what is left of the earning after the finding', async () => {
    const b = await bookingAt(t, 'returned', { card: DISPUTE_CARD });
    const done = await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie);
    expect(done.statusCode, done.body).toBe(200);
    await settlePayments(t);
    await payouts.runTransfers(t, b.id);
    // The open dispute holds the transfer.
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(0);
    const [row] = await db().select().from(disputes).where(eq(disputes.reservationId, b.id));
    await t.post(`/api/admin/disputes/${row!.id}/test-outcome`, { outcome: 'lost' }, app.moderator.cookie);
    await findLenderAtFault(row!.id);
    await payouts.runTransfers(t, b.id);
    // All of the lender's earning went with the dispute: nothing to send, nothing to reverse.
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(0);
    expect((await payouts.transfersOf(t, b.id)).every((r) => r.status === 'cancelled')).toBe(true);
  });
});

describe('an account that cannot receive money', () => {
  it('disconnected: unsent transfers wait and the lender is told once', async () => {
    const b = await bookingAt(t, 'returned');
    const account = await payouts.connectedAccountOf(t, b.lender.user.id);
    await Promise.all([
      tp().deauthorizeAccount(account.accountId),
      tp().deauthorizeAccount(account.accountId),
    ]);
    expect(await payouts.connectedAccountOf(t, b.lender.user.id)).toMatchObject({ status: 'restricted' });
    expect((await payouts.connectedAccountOf(t, b.lender.user.id)).deauthorisedAt).not.toBeNull();
    await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie);
    await settlePayments(t);
    await payouts.runTransfers(t, b.id);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(0);
    expect((await payouts.transfersOf(t, b.id)).map((r) => r.status)).toContain('waiting_account');
    const told = (await notices(t, b.lender.cookie)).filter((n) => n.title === 'Stripe account disconnected');
    expect(told).toHaveLength(1);
  });

  it('restricted, then active again: the waiting transfers go', async () => {
    const b = await bookingAt(t, 'returned');
    const account = await payouts.connectedAccountOf(t, b.lender.user.id);
    await tp().setConnectedAccountState(account.accountId, 'needs_information');
    expect(await payouts.connectedAccountOf(t, b.lender.user.id)).toMatchObject({ status: 'action_needed' });
    await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie);
    await settlePayments(t);
    await payouts.runTransfers(t, b.id);
    expect((await payouts.transfersOf(t, b.id)).map((r) => r.status)).toContain('waiting_account');
    // The account.updated event of the onboarding page's answer makes it active: the transfer goes.
    await tp().setConnectedAccountState(account.accountId, 'complete');
    expect(await payouts.connectedAccountOf(t, b.lender.user.id)).toMatchObject({ status: 'active' });
    await payouts.runTransfers(t, b.id);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(1);
  });
});

describe('the daily bank payout', () => {
  it('marks a transfer paid to the bank once its money was available', async () => {
    const b = await paidBorrow();
    const before = (await t.get('/api/payouts', b.lender.cookie)).json();
    expect(before.transfers[0]).toMatchObject({ status: 'sent', paidOutAt: null });
    // Today the transfer is still pending: nothing is paid out.
    expect((await tp().payOutBalances(new Date())).some((p) => p.amountCents > 0)).toBe(false);
    const later = new Date(Date.now() + 3 * 86_400_000);
    await tp().payOutBalances(later);
    const after = (await t.get('/api/payouts', b.lender.cookie)).json();
    expect(after.transfers[0].paidOutAt).toBe(later.toISOString());
  });
});
