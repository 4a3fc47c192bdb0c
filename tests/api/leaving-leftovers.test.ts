import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { StripePaymentProvider } from '../../src/server/adapters/payments/stripe-provider.ts';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { loadConfig, testConfig } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/client.ts';
import { testPaymentMethods } from '../../src/server/db/schema/test-payments.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { addressKey } from '../../src/server/rate-limited.ts';
import { createItem, createSignedInUser, TEST_PASSWORD } from '../factories.ts';
import { cardExpiry } from '../helpers/cards.ts';
import { type FakeCard, startFakeStripe } from '../helpers/fake-stripe.ts';
import { setupTestApp } from '../helpers/test-app.ts';
import { eventually } from '../helpers/wait-for.ts';

// Decision 037: what a deleted account leaves behind. Their cards stay attached to their customer at the
// payment provider unless it is told, and the rate-limit counters must not keep their e-mail address.

/** The built-in provider, failing its first `failures` calls to forget a customer (a provider outage). */
class FlakyForgetting extends TestPaymentProvider {
  failures = 1;
  calls = 0;
  override async forgetCustomer(customerId: string) {
    this.calls++;
    if (this.failures-- > 0) throw new Error('the provider is down');
    await super.forgetCustomer(customerId);
  }
}

let provider: FlakyForgetting | undefined;
const base = testConfig();
const t = setupTestApp(
  // The worker runs (tests usually call job functions themselves), retrying after a second.
  {
    jobs: { ...base.jobs, enabled: true, pollingSeconds: 1 },
    payments: { ...base.payments, retryDelaySeconds: 1 },
  },
  {
    payments: (db: Db) => {
      provider = new FlakyForgetting(db);
      return provider;
    },
  },
);
const db = () => t.database.db;

describe('deleting an account at the payment provider', () => {
  it('detaches their saved cards after the commit, retrying while the provider fails, without holding the deletion', async () => {
    const leaver = await createSignedInUser(db());
    const customerId = `cus_test_${leaver.user.id.replaceAll('-', '')}`;
    await db().update(users).set({ stripeCustomerId: customerId }).where(eq(users.id, leaver.user.id));
    const expiry = cardExpiry(6);
    await db()
      .insert(testPaymentMethods)
      .values([
        {
          id: `pm_a_${leaver.user.id}`,
          customerId,
          brand: 'visa',
          last4: '4242',
          expiryMonth: expiry.expMonth,
          expiryYear: expiry.expYear,
        },
        {
          id: `pm_b_${leaver.user.id}`,
          customerId,
          brand: 'mastercard',
          last4: '4444',
          expiryMonth: expiry.expMonth,
          expiryYear: expiry.expYear,
        },
      ]);
    const other = await createSignedInUser(db());
    const otherCustomer = `cus_test_${other.user.id.replaceAll('-', '')}`;
    await db()
      .insert(testPaymentMethods)
      .values({
        id: `pm_c_${other.user.id}`,
        customerId: otherCustomer,
        brand: 'visa',
        last4: '1881',
        expiryMonth: expiry.expMonth,
        expiryYear: expiry.expYear,
      });

    const deletion = await t.post('/api/account/delete', { currentPassword: TEST_PASSWORD }, leaver.cookie);
    expect(deletion.statusCode).toBe(200);

    const attached = async (customer: string) =>
      (
        await db().execute<{ n: number }>(
          sql`select count(*)::int as n from test_payment_methods where customer_id = ${customer} and detached_at is null`,
        )
      ).rows[0]!.n;
    await eventually(async () => expect(await attached(customerId)).toBe(0), 60_000);
    // It failed once and was tried again; another person's card stays.
    expect(provider!.calls).toBeGreaterThanOrEqual(2);
    expect(await attached(otherCustomer)).toBe(1);
  });
});

describe('rate-limit counters of a person', () => {
  it('never hold their e-mail address, and leave with their account', async () => {
    const leaver = await createSignedInUser(db());
    const seller = await createSignedInUser(db());
    const item = await createItem(db(), { userId: seller.user.id });
    const { conversation } = (await t.post('/api/conversations', { itemId: item.id }, leaver.cookie)).json();
    expect(
      (await t.post(`/api/conversations/${conversation.id}/messages`, { content: 'Hi!' }, leaver.cookie))
        .statusCode,
    ).toBe(201);
    expect(
      (await t.post('/api/auth/password-reset', { email: leaver.user.email.toUpperCase() })).statusCode,
    ).toBe(200);

    const keys = async () =>
      (await db().execute<{ key: string }>(sql`select key from rate_limits`)).rows.map((r) => r.key);
    const before = await keys();
    expect(before.filter((key) => key.toLowerCase().includes(leaver.user.email.toLowerCase()))).toEqual([]);
    expect(before).toContain(`password-reset-account:${addressKey(leaver.user.email)}`);
    // A chat message writes no counter: its budget is counted from the stored messages (decision 064).
    expect(before).not.toContain(`chat-send:${leaver.user.id}`);

    expect(
      (await t.post('/api/account/delete', { currentPassword: TEST_PASSWORD }, leaver.cookie)).statusCode,
    ).toBe(200);
    const after = await keys();
    expect(
      after.filter((key) => key.includes(addressKey(leaver.user.email)) || key.includes(leaver.user.id)),
    ).toEqual([]);
  });
});

describe('the Stripe adapter forgetting a customer', () => {
  it('detaches every card of the customer and deletes it; a second call finds it gone and succeeds', async () => {
    const fake = await startFakeStripe();
    try {
      const stripe = new StripePaymentProvider(
        loadConfig({
          STRIPE_SECRET_KEY: 'sk_test_fake',
          STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
          STRIPE_WEBHOOK_SECRET: 'whsec_test_secret',
          STRIPE_API_URL: fake.url,
        }).stripe!,
      );
      const expiry = cardExpiry(8);
      const card: FakeCard = {
        brand: 'visa',
        last4: '4242',
        exp_month: expiry.expMonth,
        exp_year: expiry.expYear,
      };
      const customer = await stripe.ensureCustomer({
        id: 'u1',
        email: 'a@stanford.edu',
        fullName: 'A',
        customerId: null,
      });
      const cards = [fake.savedCard(customer, card), fake.savedCard(customer, card)];
      const otherCustomer = await stripe.ensureCustomer({
        id: 'u2',
        email: 'b@stanford.edu',
        fullName: 'B',
        customerId: null,
      });
      const otherCard = fake.savedCard(otherCustomer, card);

      await stripe.forgetCustomer(customer);
      expect(cards.map((id) => fake.customerOfCard(id))).toEqual([null, null]);
      expect(fake.customers.has(customer)).toBe(false);
      expect(fake.requests.filter((r) => /\/detach$/.test(r.path))).toHaveLength(2);
      expect(fake.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/customers/${customer}`)).toBe(
        true,
      );
      await stripe.forgetCustomer(customer);
      expect(fake.customerOfCard(otherCard)).toBe(otherCustomer);
    } finally {
      fake.close();
    }
  });
});

afterAll(() => {
  provider = undefined;
});
