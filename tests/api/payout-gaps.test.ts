import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { disputes } from '../../src/server/db/schema/disputes.ts';
import { formerConnectedAccounts, payoutReversals } from '../../src/server/db/schema/payouts.ts';
import { testTransfers } from '../../src/server/db/schema/test-payments.ts';
import { type TransferDeps, transferService } from '../../src/server/features/payouts/transfers.ts';
import { createSignedInUser } from '../factories.ts';
import { bookingAt } from '../helpers/booking-scenario.ts';
import { settlePayments } from '../helpers/money.ts';
import * as payouts from '../helpers/payouts.ts';

// The last gaps in paying lenders (decisions 061, 062): a lender whose account was disconnected sets
// payouts up again with a new account, and what waited goes there once; a reversal that fails on every
// retry is marked failed and listed for moderators, who try it again. On PGlite and, with
// TEST_DATABASE_URL, PostgreSQL; the money checks run after each test.

const MODERATOR = 'payout.gaps.moderator@stanford.edu';
const app = payouts.setupPayoutApp(MODERATOR);
const { t, tp } = app;
const db = () => t.database.db;

describe('a disconnected account set up again', () => {
  it('makes one new account, keeps the old one, and sends what waited to the new one once', async () => {
    const b = await bookingAt(t, 'returned');
    const old = await payouts.connectedAccountOf(t, b.lender.user.id);
    await tp().deauthorizeAccount(old.accountId);
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    await payouts.runTransfers(t, b.id);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(0);
    expect((await payouts.transfersOf(t, b.id)).map((r) => r.status)).toContain('waiting_account');

    // Onboarding again, from two tabs at once: one new account, the old one kept for history.
    const starts = await Promise.all([
      t.post('/api/payouts/onboarding', {}, b.lender.cookie),
      t.post('/api/payouts/onboarding', {}, b.lender.cookie),
    ]);
    for (const start of starts) expect(start.statusCode, start.body).toBe(200);
    const accounts = starts.map((s) => new URL(s.json().url, 'http://x').searchParams.get('account'));
    expect(new Set(accounts).size).toBe(1);
    const fresh = accounts[0]!;
    expect(fresh).not.toBe(old.accountId);
    const now = await payouts.connectedAccountOf(t, b.lender.user.id);
    expect(now).toMatchObject({ accountId: fresh, deauthorisedAt: null });
    expect(now.status).not.toBe('active');
    const history = await db()
      .select()
      .from(formerConnectedAccounts)
      .where(eq(formerConnectedAccounts.userId, b.lender.user.id));
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ accountId: old.accountId });
    expect(history[0]!.deauthorisedAt).not.toBeNull();

    // Not active yet: the transfers still wait.
    await payouts.runTransfers(t, b.id);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(0);

    // Onboarding completed: the account is active, the waiting transfers go to it, once however many
    // runners race.
    const answer = await t.post(
      '/api/payouts/test/onboarding',
      { accountId: fresh, outcome: 'complete' },
      b.lender.cookie,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().account.status).toBe('active');
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (const row of await payouts.transfersOf(t, b.id))
          await transferService.run(payouts.transferDeps(t), row.id, false).catch(() => undefined);
      }),
    );
    await payouts.runTransfers(t, b.id);
    const made = await payouts.providerTransfersOf(t, b.id);
    expect(made.length).toBeGreaterThan(0);
    expect(made.every((m) => m.destination === fresh)).toBe(true);
    const sent = (await payouts.transfersOf(t, b.id)).filter((r) => r.status === 'sent');
    expect(sent.map((r) => r.destinationAccountId)).toEqual(made.map(() => fresh));
    expect(new Set(made.map((m) => m.metadata.payoutTransferId)).size).toBe(made.length);
    // Nothing went to the disconnected account.
    expect(
      await db().select().from(testTransfers).where(eq(testTransfers.destination, old.accountId)),
    ).toHaveLength(0);
    // A later onboarding call keeps the new account.
    const again = await t.post('/api/payouts/onboarding', {}, b.lender.cookie);
    expect(new URL(again.json().url, 'http://x').searchParams.get('account')).toBe(fresh);
  });

  it('keeps what was sent to the old account counted as the old account’s', async () => {
    const b = await bookingAt(t, 'returned');
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    await payouts.runTransfers(t, b.id);
    const old = await payouts.connectedAccountOf(t, b.lender.user.id);
    const [sent] = (await payouts.transfersOf(t, b.id)).filter((r) => r.status === 'sent');
    expect(sent!.destinationAccountId).toBe(old.accountId);
    await tp().deauthorizeAccount(old.accountId);
    const start = await t.post('/api/payouts/onboarding', {}, b.lender.cookie);
    expect(start.statusCode, start.body).toBe(200);
    expect((await payouts.connectedAccountOf(t, b.lender.user.id)).accountId).not.toBe(old.accountId);
    // The money checks after this test match our sent transfers with the provider's per destination.
    expect((await payouts.transfersOf(t, b.id)).find((r) => r.id === sent!.id)!.destinationAccountId).toBe(
      old.accountId,
    );
  });
});

/** A paid borrow completed and its lender paid. */
async function paidBorrow() {
  const b = await bookingAt(t, 'returned');
  const done = await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie);
  expect(done.statusCode, done.body).toBe(200);
  await settlePayments(t);
  await payouts.runTransfers(t, b.id);
  const sent = (await payouts.transfersOf(t, b.id)).filter((r) => r.status === 'sent');
  expect(sent).toHaveLength(1);
  return { ...b, transfer: sent[0]! };
}

/** A lost chargeback after the lender was paid, the lender found at fault: a reversal is due. */
async function lenderAtFault(b: { id: string; intent: string }) {
  await tp().disputePayment(b.intent);
  const [row] = await db().select().from(disputes).where(eq(disputes.reservationId, b.id));
  const closed = await t.post(
    `/api/admin/disputes/${row!.id}/test-outcome`,
    { outcome: 'lost' },
    app.moderator.cookie,
  );
  expect(closed.statusCode, closed.body).toBe(200);
  const found = await t.post(
    `/api/admin/disputes/${row!.id}/finding`,
    { finding: 'lender_at_fault' },
    app.moderator.cookie,
  );
  expect(found.statusCode, found.body).toBe(200);
}

const reversalsOfBooking = async (reservationId: string) => {
  const ids = (await payouts.transfersOf(t, reservationId)).map((r) => r.id);
  const all = await db().select().from(payoutReversals);
  return all.filter((v) => ids.includes(v.transferId));
};
const problems = async () => {
  const res = await t.get('/api/admin/payout-problems', app.moderator.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().problems as Array<Record<string, unknown>>;
};
const retry = (kind: string, id: string, cookie = app.moderator.cookie) =>
  t.post(`/api/admin/payout-problems/${kind}/${id}/retry`, {}, cookie);

describe('a reversal failing on every retry', () => {
  it('is marked failed, not sent again by upkeep, listed, and made once when tried again', async () => {
    const b = await paidBorrow();
    await lenderAtFault(b);
    app.flaky.failNext('reverseTransfer', 1000);
    // Every attempt of the job fails; the last one marks it failed.
    for (const last of [false, false, true]) {
      await expect(
        transferService.reconcileBooking(
          payouts.transferDeps(t, new Date(Date.now() + 600_000)),
          b.id,
          b.lender.user.id,
          last,
        ),
      ).rejects.toThrow();
    }
    const [failed, ...others] = await reversalsOfBooking(b.id);
    expect(others).toHaveLength(0);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 });
    expect(failed!.lastError).toBeTruthy();

    // The upkeep round no longer sends it again, and a stray job decides nothing new beside it.
    const queued: unknown[] = [];
    const jobs = {
      ...t.app.jobs,
      sendNow: async (_q: string, data: unknown) => void queued.push(data),
      kick() {},
    };
    await transferService.sendDue({
      ...payouts.transferDeps(t),
      jobs: jobs as unknown as TransferDeps['jobs'],
    });
    expect(queued).not.toContainEqual({ reservationId: b.id, lenderId: b.lender.user.id });
    expect(await transferService.reconcileBooking(payouts.transferDeps(t), b.id, b.lender.user.id)).toBe(0);
    expect(await reversalsOfBooking(b.id)).toHaveLength(1);

    // Moderators see it.
    const listed = (await problems()).find((p) => p.id === failed!.id);
    expect(listed).toMatchObject({
      kind: 'reversal',
      reservationId: b.id,
      lenderId: b.lender.user.id,
      amount: (failed!.amountCents / 100).toFixed(2),
      attempts: 3,
    });
    expect(listed!.lastError).toBeTruthy();
    expect(typeof listed!.failedAt).toBe('string');

    // Try again with the provider healthy, from many clicks at once: scheduled again once, made once.
    app.flaky.heal();
    const clicks = await Promise.all(Array.from({ length: 5 }, () => retry('reversal', failed!.id)));
    for (const c of clicks) expect(c.statusCode, c.body).toBe(200);
    expect(clicks.filter((c) => c.json().requeued)).toHaveLength(1);
    await Promise.allSettled(
      Array.from({ length: 3 }, () =>
        transferService.reconcileBooking(payouts.transferDeps(t), b.id, b.lender.user.id),
      ),
    );
    await transferService.reconcileBooking(payouts.transferDeps(t), b.id, b.lender.user.id);
    const [done] = await reversalsOfBooking(b.id);
    expect(done).toMatchObject({ status: 'sent', reversedCents: failed!.amountCents - done!.owedCents });
    const [atProvider] = await payouts.providerTransfersOf(t, b.id);
    expect(atProvider!.amountReversedCents).toBe(done!.reversedCents);
    expect((await problems()).some((p) => p.id === failed!.id)).toBe(false);
    // Tried again after it was made: nothing changes.
    const late = await retry('reversal', failed!.id);
    expect(late.json()).toEqual({ requeued: false });
  });
});

describe('a transfer failing on every retry', () => {
  it('is listed for moderators and sent once when tried again', async () => {
    const b = await bookingAt(t, 'returned');
    expect(
      (await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie)).statusCode,
    ).toBe(200);
    await settlePayments(t);
    app.flaky.failNext('createTransfer', 1000);
    const runs = await Promise.allSettled(
      (await payouts.transfersOf(t, b.id)).map((row) =>
        transferService.run(payouts.transferDeps(t), row.id, true),
      ),
    );
    expect(runs.some((r) => r.status === 'rejected')).toBe(true);
    expect(await payouts.providerTransfersOf(t, b.id)).toHaveLength(0);
    const failed = (await payouts.transfersOf(t, b.id)).filter((r) => r.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    // The upkeep round leaves it for a moderator.
    await transferService.sendDue(payouts.transferDeps(t));
    const listed = (await problems()).filter((p) => p.reservationId === b.id);
    expect(listed.map((p) => p.kind)).toEqual(failed.map(() => 'transfer'));
    expect(Number(listed[0]!.amount)).toBeGreaterThan(0);

    app.flaky.heal();
    for (const row of failed) {
      const clicks = await Promise.all([retry('transfer', row.id), retry('transfer', row.id)]);
      expect(clicks.filter((c) => c.json().requeued)).toHaveLength(1);
    }
    await Promise.allSettled(
      Array.from({ length: 3 }, () =>
        Promise.all(failed.map((r) => transferService.run(payouts.transferDeps(t), r.id, false))),
      ),
    );
    await payouts.runTransfers(t, b.id);
    const made = await payouts.providerTransfersOf(t, b.id);
    expect(made).toHaveLength(failed.length);
    expect((await payouts.transfersOf(t, b.id)).filter((r) => r.status === 'sent')).toHaveLength(
      failed.length,
    );
  });

  it('is for moderators only, and refuses bad input without changing anything', async () => {
    const someone = await createSignedInUser(db());
    expect((await t.get('/api/admin/payout-problems')).statusCode).toBe(401);
    expect((await t.get('/api/admin/payout-problems', someone.cookie)).statusCode).toBe(403);
    const id = crypto.randomUUID();
    expect((await retry('transfer', id, someone.cookie)).statusCode).toBe(403);
    const badKind = await retry('refund', id);
    expect(badKind.statusCode).toBe(400);
    const badId = await retry('transfer', 'not-an-id');
    expect(badId.statusCode).toBe(400);
    expect((await retry('transfer', id)).statusCode).toBe(404);
    expect((await retry('reversal', id)).statusCode).toBe(404);
  });
});
