import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { StripePaymentProvider } from '../../src/server/adapters/payments/stripe-provider.ts';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { savedPaymentMethods } from '../../src/server/db/schema/payments.ts';
import { paymentEvents } from '../../src/server/db/schema/test-payments.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { createSignedInUser } from '../factories.ts';
import { cardExpiry } from '../helpers/cards.ts';
import {
  deliverWebhook,
  type FakeCard,
  signedWebhook,
  startFakeStripe,
  stripeEvent,
} from '../helpers/fake-stripe.ts';
import { setupTestApp } from '../helpers/test-app.ts';

const fake = await startFakeStripe();
afterAll(() => fake.close());

const VISA_EXPIRY = cardExpiry(8);
const VISA: FakeCard = { brand: 'visa', last4: '4242', exp_month: 8, exp_year: VISA_EXPIRY.expYear };
const MASTERCARD_EXPIRY = cardExpiry(1, 5);
const WEBHOOK_SECRET = 'whsec_test_secret';

const stripeEnv = {
  STRIPE_SECRET_KEY: 'sk_test_fake',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: fake.url,
};
const stripeConfig = loadConfig(stripeEnv).stripe!;
const provider = new StripePaymentProvider(stripeConfig);

const last = (path: string | RegExp, method = 'POST') => {
  const found = fake.requests.filter(
    (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
  );
  return found.at(-1)!;
};

beforeEach(() => fake.reset());

describe('config', () => {
  it('turns Stripe on with both keys, and points the SDK at STRIPE_API_URL', () => {
    expect(stripeConfig).toEqual({
      secretKey: 'sk_test_fake',
      publishableKey: 'pk_test_fake',
      webhookSecret: WEBHOOK_SECRET,
      connectWebhookSecret: null,
      api: { host: '127.0.0.1', port: fake.port, protocol: 'http' },
    });
    expect(loadConfig({}).stripe).toBeUndefined();
    expect(
      loadConfig({ STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x' }).stripe,
    ).toEqual({
      secretKey: 'sk_live_x',
      publishableKey: 'pk_live_x',
      webhookSecret: null,
      connectWebhookSecret: null,
      api: undefined,
    });
    // The Connect endpoint has its own signing secret (decision 061).
    expect(
      loadConfig({
        STRIPE_SECRET_KEY: 'sk_live_x',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
        STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect',
      }).stripe?.connectWebhookSecret,
    ).toBe('whsec_connect');
    expect(() =>
      loadConfig({
        STRIPE_SECRET_KEY: 'sk_live_x',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
        STRIPE_CONNECT_WEBHOOK_SECRET: 'not-a-secret',
      }),
    ).toThrow(ConfigError);
  });

  it('refuses a secret key without the publishable key, with a readable reason', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(ConfigError);
    try {
      loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^STRIPE_PUBLISHABLE_KEY: must be set when STRIPE_SECRET_KEY is/),
      ]);
    }
  });

  it.each([
    [{ STRIPE_SECRET_KEY: 'pk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_y' }, 'STRIPE_SECRET_KEY'],
    [{ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'sk_test_y' }, 'STRIPE_PUBLISHABLE_KEY'],
    [{ STRIPE_PUBLISHABLE_KEY: 'pk_test_y' }, 'STRIPE_SECRET_KEY'],
    [{ ...stripeEnv, STRIPE_WEBHOOK_SECRET: 'secret' }, 'STRIPE_WEBHOOK_SECRET'],
    [{ ...stripeEnv, STRIPE_API_URL: 'ftp://127.0.0.1' }, 'STRIPE_API_URL'],
  ])('names the bad setting (%o)', (env, name) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}: must`));
  });
});

describe('StripePaymentProvider', () => {
  it('creates a customer once per user, keyed by the user id', async () => {
    const user = { id: 'u-1', email: 'a@stanford.edu', fullName: 'Ana Lee', customerId: null };
    const id = await provider.ensureCustomer(user);
    expect(id).toMatch(/^cus_fake/);
    const call = last('/v1/customers');
    expect(call.headers['idempotency-key']).toBe('customer-u-1');
    expect(call.headers.authorization).toBe('Bearer sk_test_fake');
    expect(Object.fromEntries(call.body)).toMatchObject({
      email: 'a@stanford.edu',
      name: 'Ana Lee',
      'metadata[userId]': 'u-1',
    });
    // A retry with the same key is the same customer; a known customer makes no call at all.
    expect(await provider.ensureCustomer(user)).toBe(id);
    fake.reset();
    expect(await provider.ensureCustomer({ ...user, customerId: 'cus_existing' })).toBe('cus_existing');
    expect(fake.requests).toHaveLength(0);
  });

  it('authorises with manual capture, then captures, with idempotency keys and metadata', async () => {
    const intent = await provider.createPaymentIntent({
      amountCents: 2500,
      currency: 'usd',
      customerId: 'cus_123',
      metadata: { itemId: 'item-1', borrowerId: 'user-1' },
      idempotencyKey: 'pi-key-1',
    });
    const create = last('/v1/payment_intents');
    expect(create.headers['idempotency-key']).toBe('pi-key-1');
    expect(Object.fromEntries(create.body)).toEqual({
      amount: '2500',
      currency: 'usd',
      capture_method: 'manual',
      'automatic_payment_methods[enabled]': 'true',
      'automatic_payment_methods[allow_redirects]': 'never',
      customer: 'cus_123',
      'metadata[itemId]': 'item-1',
      'metadata[borrowerId]': 'user-1',
    });
    expect(intent).toEqual({
      id: expect.stringMatching(/^pi_fake/),
      clientSecret: `${intent.id}_secret_abc`,
      status: 'requires_payment_method',
      amountCents: 2500,
      amountReceivedCents: 0,
      amountRefundedCents: 0,
      currency: 'usd',
      metadata: { itemId: 'item-1', borrowerId: 'user-1' },
      card: null,
    });

    fake.authorise(intent.id, VISA);
    const retrieved = await provider.retrievePaymentIntent(intent.id);
    const read = last(/^\/v1\/payment_intents\//, 'GET').query;
    expect([read.get('expand[0]'), read.get('expand[1]')]).toEqual(['payment_method', 'latest_charge']);
    expect(retrieved).toMatchObject({
      status: 'requires_capture',
      card: { type: 'card', brand: 'visa', last4: '4242', expiryMonth: 8, expiryYear: VISA_EXPIRY.expYear },
    });

    const captured = await provider.capturePaymentIntent(intent.id, 'capture-r1');
    expect(last(`/v1/payment_intents/${intent.id}/capture`).headers['idempotency-key']).toBe('capture-r1');
    expect(captured).toMatchObject({ status: 'succeeded', amountReceivedCents: 2500 });

    const refund = await provider.refund(intent.id, 2000, 'deposit-r1');
    const refundCall = last('/v1/refunds');
    expect(refundCall.headers['idempotency-key']).toBe('deposit-r1');
    expect(Object.fromEntries(refundCall.body)).toEqual({ payment_intent: intent.id, amount: '2000' });
    expect(refund).toEqual({ id: expect.stringMatching(/^re_fake/), amountCents: 2000 });
    // What was refunded is read from the intent's charge (reconciliation, decision 012).
    expect(await provider.retrievePaymentIntent(intent.id)).toMatchObject({
      amountReceivedCents: 2500,
      amountRefundedCents: 2000,
    });
  });

  it('releases an authorisation, and turns Stripe refusals into clear errors', async () => {
    const intent = await provider.createPaymentIntent({
      amountCents: 900,
      currency: 'usd',
      customerId: null,
      metadata: {},
      idempotencyKey: 'pi-key-2',
    });
    expect(last('/v1/payment_intents').body.has('customer')).toBe(false);
    // Capturing money that was never authorised: Stripe's 400 becomes a 409 with its message.
    await expect(provider.capturePaymentIntent(intent.id, 'capture-r2')).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringContaining('could not be captured'),
    });
    const released = await provider.cancelPaymentIntent(intent.id, 'release-r2');
    expect(last(`/v1/payment_intents/${intent.id}/cancel`).headers['idempotency-key']).toBe('release-r2');
    expect(released.status).toBe('canceled');
    await expect(provider.retrievePaymentIntent('pi_nope')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('authorises a checkout with a saved card: the intent gets the card’s customer, then is confirmed once', async () => {
    const intent = await provider.createPaymentIntent({
      amountCents: 3000,
      currency: 'usd',
      customerId: null,
      metadata: { itemId: 'item-1', borrowerId: 'user-1' },
      idempotencyKey: 'pi-saved-1',
    });
    const pm = fake.savedCard('cus_saved', {
      brand: 'visa',
      last4: '4242',
      exp_month: 1,
      exp_year: MASTERCARD_EXPIRY.expYear,
    });
    const args = {
      paymentIntentId: intent.id,
      paymentMethodId: pm,
      customerId: 'cus_saved',
      idempotencyKey: `pay-saved-${intent.id}-card`,
    };
    const authorised = await provider.confirmWithSavedCard(args);
    expect(authorised).toMatchObject({ id: intent.id, status: 'requires_capture', amountCents: 3000 });
    expect(Object.fromEntries(last(`/v1/payment_intents/${intent.id}`).body)).toEqual({
      customer: 'cus_saved',
    });
    const confirm = last(`/v1/payment_intents/${intent.id}/confirm`);
    expect(confirm.headers['idempotency-key']).toBe(args.idempotencyKey);
    expect(confirm.body.get('payment_method')).toBe(pm);
    // Another customer's card is refused as Stripe refuses it.
    const other = await provider.createPaymentIntent({
      amountCents: 500,
      currency: 'usd',
      customerId: null,
      metadata: {},
      idempotencyKey: 'pi-saved-2',
    });
    const theirs = fake.savedCard('cus_other', {
      brand: 'visa',
      last4: '1111',
      exp_month: 2,
      exp_year: 2031,
    });
    await expect(
      provider.confirmWithSavedCard({
        ...args,
        paymentIntentId: other.id,
        paymentMethodId: theirs,
        idempotencyKey: `pay-saved-${other.id}-card`,
      }),
    ).rejects.toMatchObject({ statusCode: 409 });
  });

  it("holds a saved card off-session (decision 062), and answers Stripe's refusals as 402s", async () => {
    const card = (last4: string) =>
      fake.savedCard('cus_off', { brand: 'visa', last4, exp_month: 3, exp_year: VISA_EXPIRY.expYear });
    const intentFor = (key: string) =>
      provider.createPaymentIntent({
        amountCents: 4000,
        currency: 'usd',
        customerId: null,
        metadata: {},
        idempotencyKey: key,
      });
    const ok = await intentFor('pi-off-1');
    const held = await provider.authoriseOffSession({
      paymentIntentId: ok.id,
      paymentMethodId: card('4242'),
      customerId: 'cus_off',
      idempotencyKey: `authorise-${ok.id}-1`,
    });
    expect(held).toMatchObject({ status: 'requires_capture', amountCents: 4000 });
    const confirm = last(`/v1/payment_intents/${ok.id}/confirm`);
    expect(confirm.body.get('off_session')).toBe('true');
    expect(confirm.headers['idempotency-key']).toBe(`authorise-${ok.id}-1`);

    // 4000 0027 6000 3184: the bank asks for the cardholder on every off-session payment.
    const auth = await intentFor('pi-off-2');
    await expect(
      provider.authoriseOffSession({
        paymentIntentId: auth.id,
        paymentMethodId: card('3184'),
        customerId: 'cus_off',
        idempotencyKey: `authorise-${auth.id}-1`,
      }),
    ).rejects.toMatchObject({ statusCode: 402, code: 'AUTHENTICATION_REQUIRED' });
    expect((await provider.retrievePaymentIntent(auth.id)).status).toBe('requires_payment_method');

    // 4000 0000 0000 0341: attached, then every charge declined.
    const declined = await intentFor('pi-off-3');
    await expect(
      provider.authoriseOffSession({
        paymentIntentId: declined.id,
        paymentMethodId: card('0341'),
        customerId: 'cus_off',
        idempotencyKey: `authorise-${declined.id}-1`,
      }),
    ).rejects.toMatchObject({ statusCode: 402, code: 'CARD_DECLINED' });
  });

  it('saves cards through SetupIntents and detaches them', async () => {
    const setup = await provider.createSetupIntent('cus_777', 'seti-key-1');
    const call = last('/v1/setup_intents');
    expect(call.headers['idempotency-key']).toBe('seti-key-1');
    expect(Object.fromEntries(call.body)).toEqual({ customer: 'cus_777', usage: 'off_session' });
    expect(setup).toEqual({
      id: expect.stringMatching(/^seti_fake/),
      clientSecret: `${setup.id}_secret_abc`,
    });

    // Not confirmed yet, or unknown: nothing to save.
    expect(await provider.retrieveSetupIntentCard(setup.id)).toBeNull();
    expect(await provider.retrieveSetupIntentCard('seti_unknown')).toBeNull();

    fake.confirmSetup(setup.id, {
      brand: 'mastercard',
      last4: '4444',
      exp_month: 1,
      exp_year: MASTERCARD_EXPIRY.expYear,
    });
    const card = await provider.retrieveSetupIntentCard(setup.id);
    expect(last(/^\/v1\/setup_intents\//, 'GET').query.getAll('expand[0]')).toEqual(['payment_method']);
    expect(card).toEqual({
      paymentMethodId: expect.stringMatching(/^pm_fake/),
      customerId: 'cus_777',
      type: 'card',
      brand: 'mastercard',
      last4: '4444',
      expiryMonth: 1,
      expiryYear: MASTERCARD_EXPIRY.expYear,
    });

    await provider.detachPaymentMethod(card!.paymentMethodId);
    expect(last(`/v1/payment_methods/${card!.paymentMethodId}/detach`)).toBeDefined();
    // Detaching again (already gone at Stripe) is not an error.
    await expect(provider.detachPaymentMethod(card!.paymentMethodId)).resolves.toBeUndefined();
  });
});

describe('the app with Stripe configured', () => {
  const t = setupTestApp({ stripe: stripeConfig });
  const db = () => t.database.db;

  const signed = (event: object, secret = WEBHOOK_SECRET) => signedWebhook(event, secret);
  const deliver = (payload: string, headers: Record<string, string>) =>
    deliverWebhook(t.app, payload, headers);

  const setupSucceeded = (id: string, setupIntentId: string, customer: string) =>
    stripeEvent(id, 'setup_intent.succeeded', {
      id: setupIntentId,
      object: 'setup_intent',
      customer,
      status: 'succeeded',
      payment_method: 'pm_from_event',
    });

  const eventCount = async (id: string) =>
    (await db().select().from(paymentEvents).where(eq(paymentEvents.id, id))).length;

  it('tells the browser to use Stripe, and allows Stripe in the CSP', async () => {
    const response = await t.get('/api/config');
    expect(response.json()).toMatchObject({
      payments: { provider: 'stripe', publishableKey: 'pk_test_fake' },
    });
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
  });

  it('adds a card: a customer is made and stored, the SetupIntent confirmed by Stripe.js is saved', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const setup = await t.post('/api/payment-methods/setup-intent', {}, cookie);
    expect(setup.statusCode).toBe(200);
    const { setupIntentId, clientSecret } = setup.json();
    expect(clientSecret).toBe(`${setupIntentId}_secret_abc`);
    const [stored] = await db().select().from(users).where(eq(users.id, user.id));
    expect(stored!.stripeCustomerId).toMatch(/^cus_fake/);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/customers',
      'POST /v1/setup_intents',
    ]);
    expect(Object.fromEntries(last('/v1/setup_intents').body)).toEqual({
      customer: stored!.stripeCustomerId,
      usage: 'off_session',
    });

    // Before Stripe.js confirms it there is nothing to save.
    const early = await t.post('/api/payment-methods', { setupIntentId }, cookie);
    expect(early.statusCode).toBe(400);

    fake.confirmSetup(setupIntentId, VISA);
    const saved = await t.post('/api/payment-methods', { setupIntentId }, cookie);
    expect(saved.statusCode).toBe(201);
    expect(saved.json().paymentMethod).toMatchObject({
      type: 'card',
      brand: 'visa',
      last4: '4242',
      expiryMonth: 8,
      expiryYear: VISA_EXPIRY.expYear,
      isDefault: true,
    });

    // A second setup reuses the stored customer.
    fake.reset();
    await t.post('/api/payment-methods/setup-intent', {}, cookie);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/setup_intents']);

    // Someone else cannot take this card into their account.
    const other = await createSignedInUser(db(), { stripeCustomerId: 'cus_someone_else' });
    const stolen = await t.post('/api/payment-methods', { setupIntentId }, other.cookie);
    expect(stolen.statusCode).toBe(403);

    // Deleting detaches it at Stripe first.
    const id = saved.json().paymentMethod.id;
    fake.reset();
    expect((await t.del(`/api/payment-methods/${id}`, cookie)).statusCode).toBe(200);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      expect.stringMatching(/^POST \/v1\/payment_methods\/pm_fake\w+\/detach$/),
    ]);
  });

  it('saves the card from a signed setup_intent.succeeded, once, however often Stripe delivers it', async () => {
    const { user, cookie } = await createSignedInUser(db(), { stripeCustomerId: 'cus_webhook_1' });
    const setup = await provider.createSetupIntent('cus_webhook_1', 'seti-webhook-1');
    fake.confirmSetup(setup.id, VISA);
    const { payload, signature } = signed(setupSucceeded('evt_setup_1', setup.id, 'cus_webhook_1'));

    fake.reset();
    const first = await deliver(payload, { 'stripe-signature': signature });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true });
    expect(await eventCount('evt_setup_1')).toBe(1);
    const cards = await db()
      .select()
      .from(savedPaymentMethods)
      .where(eq(savedPaymentMethods.userId, user.id));
    expect(cards).toEqual([expect.objectContaining({ last4: '4242', brand: 'visa', isDefault: true })]);
    expect(fake.requests).toHaveLength(1);

    // A replay is acknowledged and ignored: no call to Stripe, nothing stored twice.
    fake.reset();
    const replay = await deliver(payload, { 'stripe-signature': signature });
    expect(replay.statusCode).toBe(200);
    expect(fake.requests).toHaveLength(0);
    expect(await eventCount('evt_setup_1')).toBe(1);

    // The browser's own save call, arriving after the webhook, finds the card already there.
    const late = await t.post('/api/payment-methods', { setupIntentId: setup.id }, cookie);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ message: 'This card is already saved.', code: 'CARD_ALREADY_SAVED' });
    expect(
      await db().select().from(savedPaymentMethods).where(eq(savedPaymentMethods.userId, user.id)),
    ).toHaveLength(1);
  });

  it('acknowledges other event types and records them', async () => {
    const { payload, signature } = signed({
      id: 'evt_other_1',
      object: 'event',
      type: 'payment_intent.amount_capturable_updated',
      data: { object: { id: 'pi_1', object: 'payment_intent' } },
    });
    const response = await deliver(payload, { 'stripe-signature': signature });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true });
    expect(await eventCount('evt_other_1')).toBe(1);
  });

  it('refuses a forged, missing or stale signature with a 400 and records nothing', async () => {
    const { user } = await createSignedInUser(db(), { stripeCustomerId: 'cus_webhook_2' });
    const setup = await provider.createSetupIntent('cus_webhook_2', 'seti-webhook-2');
    fake.confirmSetup(setup.id, VISA);
    const event = setupSucceeded('evt_forged_1', setup.id, 'cus_webhook_2');

    const forged = signed(event, 'whsec_not_ours');
    const bad = await deliver(forged.payload, { 'stripe-signature': forged.signature });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      message: 'The webhook signature does not match. Check STRIPE_WEBHOOK_SECRET.',
      code: 'BAD_SIGNATURE',
    });

    // A genuine signature over different bytes: the body was changed on the way.
    const genuine = signed(event);
    const tampered = await deliver(genuine.payload.replace('cus_webhook_2', 'cus_webhook_3'), {
      'stripe-signature': genuine.signature,
    });
    expect(tampered.statusCode).toBe(400);

    const stale = Stripe.webhooks.generateTestHeaderString({
      payload: genuine.payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect((await deliver(genuine.payload, { 'stripe-signature': stale })).statusCode).toBe(400);

    const unsigned = await deliver(genuine.payload, {});
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().message).toBe('The Stripe-Signature header is missing.');

    expect(await eventCount('evt_forged_1')).toBe(0);
    expect(
      await db().select().from(savedPaymentMethods).where(eq(savedPaymentMethods.userId, user.id)),
    ).toEqual([]);
  });
});
