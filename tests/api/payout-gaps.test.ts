import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import {
  connectedAccounts,
  formerConnectedAccounts,
  payoutReversals,
  payoutTransfers,
} from '../../src/server/db/schema/payouts.ts';
import { testTransfers } from '../../src/server/db/schema/test-payments.ts';
import { type TransferDeps, transferService } from '../../src/server/features/payouts/transfers.ts';
import { reservationService } from '../../src/server/features/reservations/service.ts';
import { createSignedInUser } from '../factories.ts';
import { bookingAt } from '../helpers/booking-scenario.ts';
import { flakyProvider } from '../helpers/flaky-provider.ts';
import { settlePayments } from '../helpers/money.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The last gaps in paying lenders (decisions 061, 062): a lender whose account was disconnected sets
// payouts up again with a new account, and what waited goes there once; a reversal that fails on every
// retry is marked failed and listed for moderators, who try it again. On PGlite and, with
// TEST_DATABASE_URL, PostgreSQL; the money checks run after each test.

const MODERATOR = 'payout.gaps.moderator@stanford.edu';
let flaky!: ReturnType<typeof flakyProvider>;
let real!: TestPaymentProvider;
const t = setupTestApp(
  { adminEmails: [MODERATOR] },
  {
    payments: (db) => {
      real = new TestPaymentProvider(db);
      flaky = flakyProvider(real);
      return flaky.provider;
    },
  },
);
const db = () => t.database.db;
const tp = () => t.app.payments as TestPaymentProvider;
const deps = (now = new Date()): TransferDeps => ({
  db: db(),
  payments: t.app.payments,
  jobs: t.app.jobs,
  timeZone: t.config.campusTimeZone,
  mostAnEarlyReturnTakes: reservationService.mostAnEarlyReturnTakes,
  now: () => now,
});
let moderator: Awaited<ReturnType<typeof createSignedInUser>>;
beforeAll(async () => {
  real.onDispute = (id) => tp().onDispute!(id);
  real.onConnectEvent = (event) => tp().onConnectEvent!(event);
  moderator = await createSignedInUser(db(), { email: MODERATOR });
});

const rowsOf = (reservationId: string) =>
  db().select().from(payoutTransfers).where(eq(payoutTransfers.reservationId, reservationId));
async function runTransfers(reservationId: string, now = new Date()) {
  for (const row of await rowsOf(reservationId)) await transferService.run(deps(now), row.id, false);
}
const providerTransfersOf = (reservationId: string) =>
  db()
    .select()
    .from(testTransfers)
    .where(eq(testTransfers.transferGroup, `booking-${reservationId}`));
const accountOf = async (userId: string) =>
  (await db().select().from(connectedAccounts).where(eq(connectedAccounts.userId, userId)))[0]!;

describe('a disconnected account set up again', () => {
  it('makes one new account, keeps the old one, and sends what waited to the new one once', async () => {
    const b = await bookingAt(t, 'returned');
    const old = await accountOf(b.lender.user.id);
    await tp().deauthorizeAccount(old.accountId);
    expect((await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie)).statusCode).toBe(
      200,
    );
    await settlePayments(t);
    await runTransfers(b.id);
    expect(await providerTransfersOf(b.id)).toHaveLength(0);
    expect((await rowsOf(b.id)).map((r) => r.status)).toContain('waiting_account');

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
    const now = await accountOf(b.lender.user.id);
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
    await runTransfers(b.id);
    expect(await providerTransfersOf(b.id)).toHaveLength(0);

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
        for (const row of await rowsOf(b.id))
          await transferService.run(deps(), row.id, false).catch(() => undefined);
      }),
    );
    await runTransfers(b.id);
    const made = await providerTransfersOf(b.id);
    expect(made.length).toBeGreaterThan(0);
    expect(made.every((m) => m.destination === fresh)).toBe(true);
    const sent = (await rowsOf(b.id)).filter((r) => r.status === 'sent');
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
    expect((await t.put(`/api/reservations/${b.id}`, { status: 'completed' }, b.lender.cookie)).statusCode).toBe(
      200,
    );
    await settlePayments(t);
    await runTransfers(b.id);
    const old = await accountOf(b.lender.user.id);
    const [sent] = (await rowsOf(b.id)).filter((r) => r.status === 'sent');
    expect(sent!.destinationAccountId).toBe(old.accountId);
    await tp().deauthorizeAccount(old.accountId);
    const start = await t.post('/api/payouts/onboarding', {}, b.lender.cookie);
    expect(start.statusCode, start.body).toBe(200);
    expect((await accountOf(b.lender.user.id)).accountId).not.toBe(old.accountId);
    // The money checks after this test match our sent transfers with the provider's per destination.
    expect((await rowsOf(b.id)).find((r) => r.id === sent!.id)!.destinationAccountId).toBe(old.accountId);
  });
});
