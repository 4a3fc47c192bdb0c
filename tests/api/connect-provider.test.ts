import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStatus, type PaymentProvider } from '../../src/server/adapters/payments/provider.ts';
import { StripePaymentProvider } from '../../src/server/adapters/payments/stripe-provider.ts';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { loadConfig } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { cardExpiry } from '../helpers/cards.ts';
import { startFakeStripe } from '../helpers/fake-stripe.ts';
import { createTestDatabase } from '../helpers/test-database.ts';

// The Connect calls of both payment providers, to one contract (decision 056): Express accounts whose
// onboarding decides their status, links into onboarding and the dashboard, transfers from a charge
// grouped by booking, found again by their group, reversed in part, and the balance they land in.

const fake = await startFakeStripe();
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await fake.close();
  await database?.close();
});

const stripe = new StripePaymentProvider(
  loadConfig({
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
    STRIPE_API_URL: fake.url,
  }).stripe!,
);

interface Harness {
  provider: () => PaymentProvider;
  /** What the lender does on the hosted onboarding. */
  onboard: (accountId: string, outcome: 'complete' | 'needs_information' | 'rejected') => Promise<void>;
  /** A charged payment of `amount`, answering its intent id. */
  chargedPayment: (amount: number) => Promise<string>;
}

const harnesses: Record<string, Harness> = {
  'test provider': {
    provider: () => new TestPaymentProvider(database.db),
    async onboard(accountId, outcome) {
      await new TestPaymentProvider(database.db).setConnectedAccountState(accountId, outcome);
    },
    async chargedPayment(amount) {
      const provider = new TestPaymentProvider(database.db);
      const key = `pi-${Math.random()}`;
      const intent = await provider.createPaymentIntent({
        amountCents: amount,
        currency: 'usd',
        customerId: null,
        metadata: {},
        idempotencyKey: key,
      });
      await provider.confirmPaymentIntent(intent.id, {
        number: '4242424242424242',
        cvc: '123',
        ...cardExpiry(8),
      });
      await provider.capturePaymentIntent(intent.id, `${key}-capture`);
      return intent.id;
    },
  },
  'Stripe (through the fake)': {
    provider: () => stripe,
    async onboard(accountId, outcome) {
      fake.onboard(accountId, outcome);
    },
    async chargedPayment(amount) {
      const intent = await stripe.createPaymentIntent({
        amountCents: amount,
        currency: 'usd',
        customerId: null,
        metadata: {},
        idempotencyKey: `pi-${Math.random()}`,
      });
      fake.authorise(intent.id, { brand: 'visa', last4: '4242', exp_month: 8, exp_year: 2031 });
      await stripe.capturePaymentIntent(intent.id, `capture-${intent.id}`);
      return intent.id;
    },
  },
};

describe.each(Object.entries(harnesses))('Connect through the %s', (_name, h) => {
  it('creates one Express account per user, however many calls race, and derives its status', async () => {
    const provider = h.provider();
    const userId = crypto.randomUUID();
    const accounts = await Promise.all(
      Array.from({ length: 4 }, () =>
        provider.createConnectedAccount({
          userId,
          email: 'lender@stanford.edu',
          country: 'US',
          idempotencyKey: `connected-account-${userId}`,
        }),
      ),
    );
    expect(new Set(accounts.map((a) => a.id)).size).toBe(1);
    const id = accounts[0]!.id;
    const fresh = await provider.retrieveConnectedAccount(id);
    expect(fresh).toMatchObject({ id, detailsSubmitted: false, payoutsEnabled: false });
    expect(fresh.metadata.userId).toBe(userId);
    expect(connectStatus(fresh)).toBe('action_needed');
    expect(fresh.requirementsDue).toContain('external_account');

    await h.onboard(id, 'needs_information');
    const needs = await provider.retrieveConnectedAccount(id);
    expect(connectStatus(needs)).toBe('action_needed');
    expect(needs.requirementsDue).toEqual(['individual.verification.document']);

    await h.onboard(id, 'complete');
    const done = await provider.retrieveConnectedAccount(id);
    expect(done).toMatchObject({
      detailsSubmitted: true,
      payoutsEnabled: true,
      transfersCapability: 'active',
    });
    expect(connectStatus(done)).toBe('active');
    expect(connectStatus(done, true)).toBe('restricted');

    await h.onboard(id, 'rejected');
    expect(connectStatus(await provider.retrieveConnectedAccount(id))).toBe('restricted');
  });

  it('links into onboarding with the return and refresh addresses, and into the dashboard', async () => {
    const provider = h.provider();
    const account = await provider.createConnectedAccount({
      userId: crypto.randomUUID(),
      email: 'lender@stanford.edu',
      country: 'US',
      idempotencyKey: `connected-account-${crypto.randomUUID()}`,
    });
    const link = await provider.createAccountLink({
      accountId: account.id,
      refreshUrl: 'http://localhost/payouts/refresh',
      returnUrl: 'http://localhost/payouts/return',
    });
    expect(link.url).toBeTruthy();
    expect(link.expiresAt.getTime()).toBeGreaterThan(Date.now());
    await h.onboard(account.id, 'complete');
    expect((await provider.createLoginLink(account.id)).url).toBeTruthy();
    await expect(
      provider.createAccountLink({
        accountId: 'acct_missing',
        refreshUrl: 'http://x/r',
        returnUrl: 'http://x/r',
      }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });

  it('transfers from a charge once per key, finds them by group, reverses part, and refuses what it must', async () => {
    const provider = h.provider();
    const account = await provider.createConnectedAccount({
      userId: crypto.randomUUID(),
      email: 'lender@stanford.edu',
      country: 'US',
      idempotencyKey: `connected-account-${crypto.randomUUID()}`,
    });
    const intentId = await h.chargedPayment(5000);
    const charge = await provider.chargeOf(intentId);
    expect(charge).toMatch(/^ch_/);
    const group = `booking-${crypto.randomUUID()}`;
    const transfer = (amount: number, key: string) =>
      provider.createTransfer({
        amountCents: amount,
        currency: 'usd',
        destination: account.id,
        sourceTransaction: charge,
        transferGroup: group,
        metadata: { purpose: 'rental_rest' },
        idempotencyKey: key,
      });
    // Not onboarded: the account cannot receive money yet.
    await expect(transfer(1000, `t-${group}-early`)).rejects.toMatchObject({
      code: 'INSUFFICIENT_CAPABILITIES_FOR_TRANSFER',
    });
    await h.onboard(account.id, 'complete');
    const first = await transfer(3000, `t-${group}-1`);
    const again = await transfer(3000, `t-${group}-1`);
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ amountCents: 3000, destination: account.id, transferGroup: group });
    expect(first.sourceTransaction).toBe(charge);
    // More than the charge has left: refused.
    await expect(transfer(2500, `t-${group}-2`)).rejects.toMatchObject({ statusCode: 409 });
    const listed = await provider.listTransfers(group);
    expect(listed.map((t) => t.id)).toEqual([first.id]);
    expect(await provider.listTransfers(`booking-${crypto.randomUUID()}`)).toEqual([]);

    await provider.reverseTransfer(first.id, 1000, `rev-${group}`);
    await provider.reverseTransfer(first.id, 1000, `rev-${group}`);
    expect((await provider.retrieveTransfer(first.id)).amountReversedCents).toBe(1000);
    await expect(provider.reverseTransfer(first.id, 5000, `rev-${group}-too-much`)).rejects.toMatchObject({
      statusCode: 409,
    });
    const balance = await provider.balance(account.id);
    expect(balance.availableCents + balance.pendingCents).toBe(2000);
  });
});
