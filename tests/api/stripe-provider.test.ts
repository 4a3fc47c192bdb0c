import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { StripePaymentProvider } from '../../src/server/adapters/payments/stripe-provider.ts';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { savedPaymentMethods } from '../../src/server/db/schema/payments.ts';
import { paymentEvents } from '../../src/server/db/schema/test-payments.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The Stripe provider against a local fake Stripe: the real SDK makes real HTTP calls, and the fake
// answers with Stripe's object shapes and records what it was sent.

interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  body: URLSearchParams;
  headers: IncomingHttpHeaders;
}

interface FakeCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

type Json = Record<string, unknown>;

/** A fake api.stripe.com: customers, PaymentIntents, refunds, SetupIntents and PaymentMethods. */
async function startFakeStripe() {
  const requests: Recorded[] = [];
  const customers = new Map<string, Json>();
  const intents = new Map<string, Json>();
  const setups = new Map<string, Json>();
  const methods = new Map<string, Json>();
  const byIdempotencyKey = new Map<string, { status: number; body: Json }>();
  let counter = 0;
  const newId = (prefix: string) => `${prefix}_fake${String(++counter).padStart(6, '0')}`;
  const now = () => Math.floor(Date.now() / 1000);

  const metadataOf = (body: URLSearchParams) => {
    const metadata: Record<string, string> = {};
    for (const [key, value] of body) {
      const m = /^metadata\[(.+)\]$/.exec(key);
      if (m?.[1]) metadata[m[1]] = value;
    }
    return metadata;
  };
  const expands = (query: URLSearchParams, field: string) =>
    [...query.entries()].some(([k, v]) => k.startsWith('expand') && v === field);
  const withMethod = (object: Json, query: URLSearchParams) =>
    expands(query, 'payment_method') && typeof object.payment_method === 'string'
      ? { ...object, payment_method: methods.get(object.payment_method) ?? object.payment_method }
      : object;
  const missing = (what: string, id: string) => ({
    status: 404,
    body: {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such ${what}: '${id}'`,
        param: 'id',
      },
    },
  });
  const unexpectedState = (message: string) => ({
    status: 400,
    body: { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message } },
  });

  function route(r: Recorded): { status: number; body: Json } {
    const { method, path, body, query } = r;
    const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    const intentAction = /^\/v1\/payment_intents\/([^/]+)\/(capture|cancel)$/.exec(path);
    const setupPath = /^\/v1\/setup_intents\/([^/]+)$/.exec(path);
    const detachPath = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(path);
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: newId('cus'),
        object: 'customer',
        created: now(),
        email: body.get('email'),
        name: body.get('name'),
        metadata: metadataOf(body),
        livemode: false,
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const id = newId('pi');
      const intent = {
        id,
        object: 'payment_intent',
        amount: Number(body.get('amount')),
        amount_capturable: 0,
        amount_received: 0,
        capture_method: body.get('capture_method') ?? 'automatic_async',
        client_secret: `${id}_secret_abc`,
        created: now(),
        currency: body.get('currency'),
        customer: body.get('customer'),
        livemode: false,
        metadata: metadataOf(body),
        payment_method: null,
        status: 'requires_payment_method',
        automatic_payment_methods: {
          enabled: body.get('automatic_payment_methods[enabled]') === 'true',
          allow_redirects: body.get('automatic_payment_methods[allow_redirects]'),
        },
      };
      intents.set(id, intent);
      return { status: 200, body: intent };
    }
    if (intentPath && method === 'GET') {
      const intent = intents.get(intentPath[1]!);
      return intent
        ? { status: 200, body: withMethod(intent, query) }
        : missing('payment_intent', intentPath[1]!);
    }
    if (intentAction && method === 'POST') {
      const intent = intents.get(intentAction[1]!);
      if (!intent) return missing('payment_intent', intentAction[1]!);
      if (intentAction[2] === 'capture') {
        if (intent.status !== 'requires_capture')
          return unexpectedState(
            `This PaymentIntent could not be captured because it has a status of ${intent.status}.`,
          );
        Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, amount_capturable: 0 });
      } else {
        if (intent.status === 'succeeded')
          return unexpectedState(
            'You cannot cancel this PaymentIntent because it has a status of succeeded.',
          );
        Object.assign(intent, { status: 'canceled', amount_capturable: 0 });
      }
      return { status: 200, body: intent };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = intents.get(body.get('payment_intent') ?? '');
      if (!intent) return missing('payment_intent', body.get('payment_intent') ?? '');
      const refund = {
        id: newId('re'),
        object: 'refund',
        amount: Number(body.get('amount') ?? intent.amount),
        currency: intent.currency,
        payment_intent: intent.id,
        status: 'succeeded',
        created: now(),
      };
      return { status: 200, body: refund };
    }
    if (method === 'POST' && path === '/v1/setup_intents') {
      const id = newId('seti');
      const setup = {
        id,
        object: 'setup_intent',
        client_secret: `${id}_secret_abc`,
        created: now(),
        customer: body.get('customer'),
        usage: body.get('usage'),
        livemode: false,
        metadata: {},
        payment_method: null,
        status: 'requires_payment_method',
      };
      setups.set(id, setup);
      return { status: 200, body: setup };
    }
    if (setupPath && method === 'GET') {
      const setup = setups.get(setupPath[1]!);
      return setup ? { status: 200, body: withMethod(setup, query) } : missing('setup_intent', setupPath[1]!);
    }
    if (detachPath && method === 'POST') {
      const pm = methods.get(detachPath[1]!);
      if (!pm) return missing('payment_method', detachPath[1]!);
      if (!pm.customer)
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              message:
                'The payment method you provided is not attached to a customer so detachment is impossible.',
            },
          },
        };
      pm.customer = null;
      return { status: 200, body: pm };
    }
    return {
      status: 404,
      body: {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` },
      },
    };
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const recorded: Recorded = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
        headers: req.headers,
      };
      requests.push(recorded);
      // Stripe answers a repeated idempotency key with the first response.
      const key = req.headers['idempotency-key'];
      const replay = typeof key === 'string' ? byIdempotencyKey.get(key) : undefined;
      const answer = replay ?? route(recorded);
      if (typeof key === 'string' && !replay) byIdempotencyKey.set(key, answer);
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      res.end(JSON.stringify(answer.body));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;

  /** What the browser does with Stripe.js: confirm with a card. */
  function attachCard(customer: string | null, card: FakeCard) {
    const pm = {
      id: newId('pm'),
      object: 'payment_method',
      type: 'card',
      customer,
      card: { ...card, country: 'US', funding: 'credit' },
      created: now(),
      livemode: false,
      metadata: {},
    };
    methods.set(pm.id, pm);
    return pm.id;
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    customers,
    reset: () => {
      requests.length = 0;
    },
    authorise(intentId: string, card: FakeCard) {
      const intent = intents.get(intentId)!;
      const pm = attachCard(null, card);
      Object.assign(intent, {
        status: 'requires_capture',
        payment_method: pm,
        amount_capturable: intent.amount,
      });
    },
    confirmSetup(setupIntentId: string, card: FakeCard) {
      const setup = setups.get(setupIntentId)!;
      Object.assign(setup, {
        status: 'succeeded',
        payment_method: attachCard(setup.customer as string, card),
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const fake = await startFakeStripe();
afterAll(() => fake.close());

const VISA: FakeCard = { brand: 'visa', last4: '4242', exp_month: 8, exp_year: 2031 };
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
      api: { host: '127.0.0.1', port: fake.port, protocol: 'http' },
    });
    expect(loadConfig({}).stripe).toBeUndefined();
    expect(
      loadConfig({ STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x' }).stripe,
    ).toEqual({
      secretKey: 'sk_live_x',
      publishableKey: 'pk_live_x',
      webhookSecret: null,
      api: undefined,
    });
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
      currency: 'usd',
      metadata: { itemId: 'item-1', borrowerId: 'user-1' },
      card: null,
    });

    fake.authorise(intent.id, VISA);
    const retrieved = await provider.retrievePaymentIntent(intent.id);
    expect(last(/^\/v1\/payment_intents\//, 'GET').query.getAll('expand[0]')).toEqual(['payment_method']);
    expect(retrieved).toMatchObject({
      status: 'requires_capture',
      card: { type: 'card', brand: 'visa', last4: '4242', expiryMonth: 8, expiryYear: 2031 },
    });

    const captured = await provider.capturePaymentIntent(intent.id, 'capture-r1');
    expect(last(`/v1/payment_intents/${intent.id}/capture`).headers['idempotency-key']).toBe('capture-r1');
    expect(captured).toMatchObject({ status: 'succeeded', amountReceivedCents: 2500 });

    const refund = await provider.refund(intent.id, 2000, 'deposit-r1');
    const refundCall = last('/v1/refunds');
    expect(refundCall.headers['idempotency-key']).toBe('deposit-r1');
    expect(Object.fromEntries(refundCall.body)).toEqual({ payment_intent: intent.id, amount: '2000' });
    expect(refund).toEqual({ id: expect.stringMatching(/^re_fake/), amountCents: 2000 });
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

    fake.confirmSetup(setup.id, { brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2030 });
    const card = await provider.retrieveSetupIntentCard(setup.id);
    expect(last(/^\/v1\/setup_intents\//, 'GET').query.getAll('expand[0]')).toEqual(['payment_method']);
    expect(card).toEqual({
      paymentMethodId: expect.stringMatching(/^pm_fake/),
      customerId: 'cus_777',
      type: 'card',
      brand: 'mastercard',
      last4: '4444',
      expiryMonth: 1,
      expiryYear: 2030,
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

  function signed(event: object, secret = WEBHOOK_SECRET) {
    const payload = JSON.stringify(event);
    return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
  }

  /** Stripe posts from its servers: no Origin, no cookie, a signature header. */
  const deliver = (payload: string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      payload,
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    });

  const setupSucceeded = (id: string, setupIntentId: string, customer: string) => ({
    id,
    object: 'event',
    type: 'setup_intent.succeeded',
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: {
      object: {
        id: setupIntentId,
        object: 'setup_intent',
        customer,
        status: 'succeeded',
        payment_method: 'pm_from_event',
      },
    },
  });

  const eventCount = async (id: string) =>
    (await db().select().from(paymentEvents).where(eq(paymentEvents.id, id))).length;

  it('tells the browser to use Stripe, and allows Stripe in the CSP', async () => {
    const response = await t.get('/api/config');
    expect(response.json()).toEqual({ payments: { provider: 'stripe', publishableKey: 'pk_test_fake' } });
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
      expiryYear: 2031,
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
