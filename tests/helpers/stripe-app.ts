import { afterAll, beforeEach } from 'vitest';
import { type Config, loadConfig } from '../../src/server/config.ts';
import { cardExpiry } from './cards.ts';
import { deliverWebhook, type FakeCard, signedWebhook, startFakeStripe } from './fake-stripe.ts';
import { setupTestApp } from './test-app.ts';

// The app on Stripe for webhook tests: a fake Stripe of the file's own (closed after it, emptied
// before each test), the app configured for it through the same settings an operator sets, and
// events delivered signed as Stripe signs them.

/** A card the fake Stripe authorises, valid for years to come. */
export const FAKE_VISA: FakeCard = {
  brand: 'visa',
  last4: '4242',
  exp_month: 8,
  exp_year: cardExpiry(8).expYear,
};

export async function setupStripeApp({
  webhookSecret,
  connectWebhookSecret,
  config = {},
}: {
  webhookSecret: string;
  /** The Connect endpoint's own secret, when the test takes Connect events. */
  connectWebhookSecret?: string;
  config?: Partial<Config>;
}) {
  const fake = await startFakeStripe();
  afterAll(() => fake.close());
  const stripe = loadConfig({
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_CONNECT_WEBHOOK_SECRET: connectWebhookSecret,
    STRIPE_API_URL: fake.url,
  }).stripe!;
  const t = setupTestApp({ ...config, stripe });
  beforeEach(() => fake.reset());

  /** Signs an event as Stripe would, with the platform's secret unless told, and posts it to a webhook. */
  const deliver = (event: object, secret = webhookSecret, url?: string) => {
    const { payload, signature } = signedWebhook(event, secret);
    return deliverWebhook(t.app, payload, { 'stripe-signature': signature }, url);
  };
  return { fake, stripe, t, deliver };
}
