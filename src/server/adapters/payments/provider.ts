// The card payment provider: the built-in test provider by default, Stripe with
// STRIPE_SECRET_KEY. Money is authorised when a borrower requests (manual capture), captured when the
// lender approves, released on decline, cancel or expiry, and the deposit refunded on return. Every
// call that moves money carries an idempotency key, so a retry never charges twice.

export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface CardDetails {
  type: string;
  brand: string | null;
  last4: string | null;
  expiryMonth: number | null;
  expiryYear: number | null;
}

export interface PaymentIntent {
  id: string;
  clientSecret: string;
  status: PaymentIntentStatus;
  amountCents: number;
  amountReceivedCents: number;
  /** Refunded so far, of what was received (reconciliation compares it with our billing rows). */
  amountRefundedCents: number;
  currency: string;
  metadata: Record<string, string>;
  /** The card it was confirmed with, once confirmed. */
  card: CardDetails | null;
  /** Where the bank wants the borrower to go to authenticate (3-D Secure), while status is requires_action. */
  nextActionUrl?: string | null;
}

export interface PaymentProvider {
  readonly kind: 'test' | 'stripe';
  /** Stripe's publishable key for the browser; null for the test provider. */
  readonly publishableKey: string | null;

  /** A customer for a user (Stripe Customer); returns its id. */
  ensureCustomer(user: {
    id: string;
    email: string;
    fullName: string;
    customerId: string | null;
  }): Promise<string>;

  /** An intent to authorise `amountCents`, captured later (manual capture). */
  createPaymentIntent(args: {
    amountCents: number;
    currency: string;
    customerId: string | null;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<PaymentIntent>;
  retrievePaymentIntent(id: string): Promise<PaymentIntent>;
  /**
   * Authorises an intent with a card the customer saved (checkout without typing the card again).
   * The same idempotency key answers the first result, so a double click confirms once.
   */
  confirmWithSavedCard(args: {
    paymentIntentId: string;
    paymentMethodId: string;
    customerId: string;
    idempotencyKey: string;
  }): Promise<PaymentIntent>;
  /** Takes the authorised money (on approval). */
  capturePaymentIntent(id: string, idempotencyKey: string): Promise<PaymentIntent>;
  /** Releases an authorisation that was never captured (decline, cancel, expiry). */
  cancelPaymentIntent(id: string, idempotencyKey: string): Promise<PaymentIntent>;
  /** Gives back part or all of a captured payment (the deposit on return; a cancel after capture). */
  refund(
    paymentIntentId: string,
    amountCents: number,
    idempotencyKey: string,
  ): Promise<{ id: string; amountCents: number }>;

  /** Saved cards: a SetupIntent the browser confirms with a card, then the card is listed and saved. */
  createSetupIntent(
    customerId: string,
    idempotencyKey: string,
  ): Promise<{ id: string; clientSecret: string }>;
  /** The card a confirmed SetupIntent saved, with its provider id. */
  retrieveSetupIntentCard(
    setupIntentId: string,
  ): Promise<(CardDetails & { paymentMethodId: string; customerId: string }) | null>;
  detachPaymentMethod(paymentMethodId: string): Promise<void>;
  /**
   * Forgets a customer whose person deleted their account (decision 037): every payment method still
   * attached to it is detached, then the customer itself is deleted where the provider keeps customers.
   * A customer already gone counts as done, so a retry after a partial run finishes the job.
   */
  forgetCustomer(customerId: string): Promise<void>;
}
