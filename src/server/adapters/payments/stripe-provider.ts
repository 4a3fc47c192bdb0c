import Stripe from 'stripe';
import type { Config } from '../../config.ts';
import type { CardDetails, PaymentIntent, PaymentIntentStatus, PaymentProvider } from './provider.ts';
import { PaymentError } from './test-provider.ts';

// The production payment provider: Stripe's PaymentIntents (manual capture), SetupIntents and
// saved cards through the official SDK. Every call that moves money passes an idempotency key.

type StripeConfig = NonNullable<Config['stripe']>;

const STATUSES: readonly PaymentIntentStatus[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'canceled',
  'succeeded',
];

function toStatus(status: string): PaymentIntentStatus {
  // A status newer than this code knows is treated as "not paid yet", never as money taken.
  return (STATUSES as readonly string[]).includes(status)
    ? (status as PaymentIntentStatus)
    : 'requires_payment_method';
}

function toCard(method: string | Stripe.PaymentMethod | null): CardDetails | null {
  if (!method || typeof method === 'string') return null;
  return {
    type: method.type,
    brand: method.card?.brand ?? null,
    last4: method.card?.last4 ?? null,
    expiryMonth: method.card?.exp_month ?? null,
    expiryYear: method.card?.exp_year ?? null,
  };
}

function idOf(value: string | { id: string } | null): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

export function toPaymentIntent(intent: Stripe.PaymentIntent): PaymentIntent {
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    status: toStatus(intent.status),
    amountCents: intent.amount,
    amountReceivedCents: intent.amount_received,
    currency: intent.currency,
    metadata: { ...intent.metadata },
    card: toCard(intent.payment_method),
  };
}

/**
 * Stripe's refusals become the same errors the test provider throws: a declined card is a 402 with
 * Stripe's message, a missing object a 404, a call that does not fit the object's state a 409.
 * Outages and bad keys stay as they are: a logged 500, never a made-up answer.
 */
function translate(error: unknown): never {
  if (error instanceof Stripe.errors.StripeCardError) {
    throw new PaymentError(error.message, error.code ?? 'card_declined', 402);
  }
  if (error instanceof Stripe.errors.StripeIdempotencyError) {
    throw new PaymentError(error.message, 'idempotency_error', 409);
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    if (error.statusCode === 404 || error.code === 'resource_missing') {
      throw new PaymentError('No such payment.', 'resource_missing', 404);
    }
    throw new PaymentError(error.message, error.code ?? 'invalid_request', 409);
  }
  throw error;
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    translate(error);
  }
}

export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  readonly publishableKey: string;
  private readonly stripe: Stripe;

  constructor(config: StripeConfig) {
    this.publishableKey = config.publishableKey;
    this.stripe = new Stripe(
      config.secretKey,
      config.api
        ? // A local fake Stripe (tests): no retries, no telemetry, its host and port.
          { ...config.api, maxNetworkRetries: 0, telemetry: false }
        : // Retries are safe: every money call carries an idempotency key.
          { maxNetworkRetries: 2 },
    );
  }

  async ensureCustomer(user: {
    id: string;
    email: string;
    fullName: string;
    customerId: string | null;
  }): Promise<string> {
    if (user.customerId) return user.customerId;
    const customer = await call(() =>
      this.stripe.customers.create(
        { email: user.email, name: user.fullName, metadata: { userId: user.id } },
        // Two tabs asking at once get the same customer.
        { idempotencyKey: `customer-${user.id}` },
      ),
    );
    return customer.id;
  }

  async createPaymentIntent(args: {
    amountCents: number;
    currency: string;
    customerId: string | null;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<PaymentIntent> {
    const intent = await call(() =>
      this.stripe.paymentIntents.create(
        {
          amount: args.amountCents,
          currency: args.currency,
          // Authorise now, take the money when the lender approves (ARCHITECTURE §4).
          capture_method: 'manual',
          // Cards and wallets that confirm in the page: the Reserve dialog never leaves the site.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          ...(args.customerId ? { customer: args.customerId } : {}),
          metadata: args.metadata,
        },
        { idempotencyKey: args.idempotencyKey },
      ),
    );
    return toPaymentIntent(intent);
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntent> {
    const intent = await call(() => this.stripe.paymentIntents.retrieve(id, { expand: ['payment_method'] }));
    return toPaymentIntent(intent);
  }

  async capturePaymentIntent(id: string, idempotencyKey: string): Promise<PaymentIntent> {
    const intent = await call(() => this.stripe.paymentIntents.capture(id, {}, { idempotencyKey }));
    return toPaymentIntent(intent);
  }

  async cancelPaymentIntent(id: string, idempotencyKey: string): Promise<PaymentIntent> {
    const intent = await call(() => this.stripe.paymentIntents.cancel(id, {}, { idempotencyKey }));
    return toPaymentIntent(intent);
  }

  async refund(
    paymentIntentId: string,
    amountCents: number,
    idempotencyKey: string,
  ): Promise<{ id: string; amountCents: number }> {
    const refund = await call(() =>
      this.stripe.refunds.create(
        { payment_intent: paymentIntentId, amount: amountCents },
        { idempotencyKey },
      ),
    );
    return { id: refund.id, amountCents: refund.amount };
  }

  async createSetupIntent(
    customerId: string,
    idempotencyKey: string,
  ): Promise<{ id: string; clientSecret: string }> {
    const intent = await call(() =>
      this.stripe.setupIntents.create({ customer: customerId, usage: 'off_session' }, { idempotencyKey }),
    );
    return { id: intent.id, clientSecret: intent.client_secret ?? '' };
  }

  async retrieveSetupIntentCard(
    setupIntentId: string,
  ): Promise<(CardDetails & { paymentMethodId: string; customerId: string }) | null> {
    let intent: Stripe.SetupIntent;
    try {
      intent = await this.stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] });
    } catch (error) {
      // Unknown id: nothing was saved, the same answer as an unfinished setup.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return null;
      throw error;
    }
    const customerId = idOf(intent.customer);
    const method = intent.payment_method;
    const card = toCard(method);
    if (intent.status !== 'succeeded' || !customerId || !card || !method) return null;
    return { ...card, paymentMethodId: idOf(method)!, customerId };
  }

  async detachPaymentMethod(paymentMethodId: string): Promise<void> {
    try {
      await this.stripe.paymentMethods.detach(paymentMethodId);
    } catch (error) {
      // Already detached or gone at Stripe: what the caller wanted is true.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
      throw error;
    }
  }

  /** Checks a webhook delivery's signature against the raw body; throws when it does not match. */
  static constructEvent(rawBody: Buffer, signature: string, secret: string): Stripe.Event {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret);
  }
}
