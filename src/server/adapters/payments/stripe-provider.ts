import { msg } from '@lingui/core/macro';
import type Stripe from 'stripe';
import type { Config } from '../../config.ts';
import type {
  BankPayout,
  CardDetails,
  ConnectedAccount,
  Dispute,
  DisputeEvidence,
  DisputeStatus,
  PaymentIntent,
  PaymentIntentStatus,
  PaymentProvider,
  SavedCardPayment,
  Transfer,
} from './provider.ts';
import { PaymentError } from './test-provider.ts';

// The production payment provider: Stripe's PaymentIntents (manual capture), SetupIntents and
// saved cards through the official SDK. Every call that moves money passes an idempotency key.

type StripeConfig = NonNullable<Config['stripe']>;

/**
 * The SDK, loaded at the first call: it takes a tenth of a second or more to load, and most servers
 * that start (every one on the built-in test provider) never use it.
 */
let sdk: Promise<typeof Stripe> | undefined;
const loadSdk = () => {
  sdk ??= import('stripe').then((module) => module.default);
  return sdk;
};

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
    amountRefundedCents:
      intent.latest_charge && typeof intent.latest_charge === 'object'
        ? intent.latest_charge.amount_refunded
        : 0,
    currency: intent.currency,
    metadata: { ...intent.metadata },
    card: toCard(intent.payment_method),
  };
}

const DISPUTE_STATUSES: readonly DisputeStatus[] = [
  'warning_needs_response',
  'warning_under_review',
  'warning_closed',
  'needs_response',
  'under_review',
  'won',
  'lost',
  'prevented',
];

/**
 * Stripe's dispute as ours: its balance transactions summed into what was withdrawn (negative
 * amounts), reinstated (positive ones) and the fees. A status this code does not know reads as
 * needing a response, so a moderator looks at it.
 */
export function toDispute(dispute: Stripe.Dispute): Dispute {
  let withdrawnCents = 0;
  let reinstatedCents = 0;
  let feeCents = 0;
  for (const txn of dispute.balance_transactions ?? []) {
    if (txn.amount < 0) withdrawnCents += -txn.amount;
    else reinstatedCents += txn.amount;
    feeCents += txn.fee;
  }
  return {
    id: dispute.id,
    paymentIntentId: idOf(dispute.payment_intent),
    amountCents: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason,
    status: (DISPUTE_STATUSES as readonly string[]).includes(dispute.status)
      ? (dispute.status as DisputeStatus)
      : 'needs_response',
    evidenceDueBy: dispute.evidence_details?.due_by ? new Date(dispute.evidence_details.due_by * 1000) : null,
    withdrawnCents,
    reinstatedCents,
    feeCents: Math.max(0, feeCents),
    submissionCount: dispute.evidence_details?.submission_count ?? 0,
  };
}

/** Stripe's Account, as the fields Connect's status is derived from. */
export function toConnectedAccount(account: Stripe.Account): ConnectedAccount {
  const due = [...(account.requirements?.currently_due ?? []), ...(account.requirements?.past_due ?? [])];
  const transfers = account.capabilities?.transfers ?? null;
  return {
    id: account.id,
    detailsSubmitted: account.details_submitted ?? false,
    chargesEnabled: account.charges_enabled ?? false,
    payoutsEnabled: account.payouts_enabled ?? false,
    transfersCapability:
      transfers === 'active' ? 'active' : transfers === 'pending' ? 'pending' : transfers ? 'inactive' : null,
    requirementsDue: [...new Set(due)],
    disabledReason: account.requirements?.disabled_reason ?? null,
    metadata: { ...(account.metadata ?? {}) },
  };
}

export function toTransfer(transfer: Stripe.Transfer): Transfer {
  return {
    id: transfer.id,
    amountCents: transfer.amount,
    amountReversedCents: transfer.amount_reversed,
    currency: transfer.currency,
    destination: idOf(transfer.destination as string | { id: string } | null) ?? '',
    sourceTransaction: idOf(transfer.source_transaction as string | { id: string } | null),
    transferGroup: transfer.transfer_group ?? null,
    metadata: { ...transfer.metadata },
    created: new Date(transfer.created * 1000).toISOString(),
  };
}

/**
 * Stripe's refusals become the same errors the test provider throws: a declined card is a 402 with
 * Stripe's message, a missing object a 404, a call that does not fit the object's state a 409.
 * Outages and bad keys stay as they are: a logged 500, never a made-up answer.
 */
function translate(error: unknown, { errors }: typeof Stripe): never {
  if (error instanceof errors.StripeCardError) {
    throw new PaymentError(error.message, error.code ?? 'card_declined', 402);
  }
  if (error instanceof errors.StripeIdempotencyError) {
    throw new PaymentError(error.message, 'idempotency_error', 409);
  }
  if (error instanceof errors.StripeInvalidRequestError) {
    if (error.statusCode === 404 || error.code === 'resource_missing') {
      throw new PaymentError(msg`No such payment.`, 'resource_missing', 404);
    }
    throw new PaymentError(error.message, error.code ?? 'invalid_request', 409);
  }
  throw error;
}

export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  readonly publishableKey: string;
  private stripe: Promise<Stripe> | undefined;

  constructor(private readonly config: StripeConfig) {
    this.publishableKey = config.publishableKey;
  }

  private client(): Promise<Stripe> {
    this.stripe ??= loadSdk().then(
      (Sdk) =>
        new Sdk(
          this.config.secretKey,
          this.config.api
            ? // A local fake Stripe (tests): no retries, no telemetry, its host and port.
              { ...this.config.api, maxNetworkRetries: 0, telemetry: false }
            : // Retries are safe: every money call carries an idempotency key.
              { maxNetworkRetries: 2 },
        ),
    );
    return this.stripe;
  }

  /** A call to Stripe, its refusals translated (translate). */
  private async call<T>(run: (stripe: Stripe) => Promise<T>): Promise<T> {
    const stripe = await this.client();
    try {
      return await run(stripe);
    } catch (error) {
      translate(error, await loadSdk());
    }
  }

  async ensureCustomer(user: {
    id: string;
    email: string;
    fullName: string;
    customerId: string | null;
  }): Promise<string> {
    if (user.customerId) return user.customerId;
    const customer = await this.call((stripe) =>
      stripe.customers.create(
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
    const intent = await this.call((stripe) =>
      stripe.paymentIntents.create(
        {
          amount: args.amountCents,
          currency: args.currency,
          // Authorise now, take the money when the lender approves: a declined
          // request never charged anyone.
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
    const intent = await this.call((stripe) =>
      // The charge says how much of it was refunded (reconciliation, decision 012).
      stripe.paymentIntents.retrieve(id, { expand: ['payment_method', 'latest_charge'] }),
    );
    return toPaymentIntent(intent);
  }

  confirmWithSavedCard(args: SavedCardPayment): Promise<PaymentIntent> {
    return this.payWithSavedCard(args, false);
  }

  /**
   * The borrower is not here: Stripe asks the bank for an exemption, and answers
   * authentication_required when the bank insists on the cardholder.
   */
  authoriseOffSession(args: SavedCardPayment): Promise<PaymentIntent> {
    return this.payWithSavedCard(args, true);
  }

  private async payWithSavedCard(args: SavedCardPayment, offSession: boolean): Promise<PaymentIntent> {
    const intent = await this.call(async (stripe) => {
      // A saved card belongs to its customer: the intent must name that customer before it can use it.
      await stripe.paymentIntents.update(
        args.paymentIntentId,
        { customer: args.customerId },
        { idempotencyKey: `${args.idempotencyKey}-customer` },
      );
      return stripe.paymentIntents.confirm(
        args.paymentIntentId,
        {
          payment_method: args.paymentMethodId,
          ...(offSession ? { off_session: true } : {}),
          expand: ['payment_method'],
        },
        { idempotencyKey: args.idempotencyKey },
      );
    });
    return toPaymentIntent(intent);
  }

  async capturePaymentIntent(id: string, idempotencyKey: string): Promise<PaymentIntent> {
    const intent = await this.call((stripe) => stripe.paymentIntents.capture(id, {}, { idempotencyKey }));
    return toPaymentIntent(intent);
  }

  async cancelPaymentIntent(id: string, idempotencyKey: string): Promise<PaymentIntent> {
    const intent = await this.call((stripe) => stripe.paymentIntents.cancel(id, {}, { idempotencyKey }));
    return toPaymentIntent(intent);
  }

  async refund(
    paymentIntentId: string,
    amountCents: number,
    idempotencyKey: string,
  ): Promise<{ id: string; amountCents: number }> {
    const refund = await this.call((stripe) =>
      stripe.refunds.create({ payment_intent: paymentIntentId, amount: amountCents }, { idempotencyKey }),
    );
    return { id: refund.id, amountCents: refund.amount };
  }

  async createSetupIntent(
    customerId: string,
    idempotencyKey: string,
  ): Promise<{ id: string; clientSecret: string }> {
    const intent = await this.call((stripe) =>
      stripe.setupIntents.create({ customer: customerId, usage: 'off_session' }, { idempotencyKey }),
    );
    return { id: intent.id, clientSecret: intent.client_secret ?? '' };
  }

  async retrieveSetupIntentCard(
    setupIntentId: string,
  ): Promise<(CardDetails & { paymentMethodId: string; customerId: string }) | null> {
    const stripe = await this.client();
    let intent: Stripe.SetupIntent;
    try {
      intent = await stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] });
    } catch (error) {
      // Unknown id: nothing was saved, the same answer as an unfinished setup.
      if (error instanceof (await loadSdk()).errors.StripeInvalidRequestError) return null;
      throw error;
    }
    const customerId = idOf(intent.customer);
    const method = intent.payment_method;
    const card = toCard(method);
    if (intent.status !== 'succeeded' || !customerId || !card || !method) return null;
    return { ...card, paymentMethodId: idOf(method)!, customerId };
  }

  async detachPaymentMethod(paymentMethodId: string): Promise<void> {
    const stripe = await this.client();
    try {
      await stripe.paymentMethods.detach(paymentMethodId);
    } catch (error) {
      // Already detached or gone at Stripe: what the caller wanted is true.
      if (error instanceof (await loadSdk()).errors.StripeInvalidRequestError) return;
      throw error;
    }
  }

  async forgetCustomer(customerId: string): Promise<void> {
    const stripe = await this.client();
    try {
      // Every page of the customer's cards (the SDK follows `has_more`), each detached, then the customer.
      for await (const method of stripe.customers.listPaymentMethods(customerId, { limit: 100 })) {
        await this.detachPaymentMethod(method.id);
      }
      await stripe.customers.del(customerId);
    } catch (error) {
      const { errors } = await loadSdk();
      // Deleted already (an earlier attempt got that far): nothing is left to forget.
      if (
        error instanceof errors.StripeInvalidRequestError &&
        (error.statusCode === 404 || error.code === 'resource_missing')
      )
        return;
      throw error;
    }
  }

  async retrieveDispute(id: string): Promise<Dispute> {
    return toDispute(await this.call((stripe) => stripe.disputes.retrieve(id)));
  }

  async submitDisputeEvidence(
    id: string,
    evidence: DisputeEvidence,
    idempotencyKey: string,
  ): Promise<Dispute> {
    const dispute = await this.call((stripe) =>
      stripe.disputes.update(id, { evidence, submit: true }, { idempotencyKey }),
    );
    return toDispute(dispute);
  }

  // Connect (decision 056): Express accounts whose fees the platform pays and whose losses it bears,
  // receiving transfers only (the recipient service agreement), paid by separate charges and transfers.

  async createConnectedAccount(args: {
    userId: string;
    email: string;
    country: string;
    idempotencyKey: string;
  }): Promise<ConnectedAccount> {
    const account = await this.call((stripe) =>
      stripe.accounts.create(
        {
          country: args.country,
          email: args.email,
          controller: {
            fees: { payer: 'application' },
            losses: { payments: 'application' },
            stripe_dashboard: { type: 'express' },
          },
          capabilities: { transfers: { requested: true } },
          tos_acceptance: { service_agreement: 'recipient' },
          metadata: { userId: args.userId },
        },
        { idempotencyKey: args.idempotencyKey },
      ),
    );
    return toConnectedAccount(account);
  }

  async retrieveConnectedAccount(accountId: string): Promise<ConnectedAccount> {
    return toConnectedAccount(await this.call((stripe) => stripe.accounts.retrieve(accountId)));
  }

  async createAccountLink(args: { accountId: string; refreshUrl: string; returnUrl: string }) {
    const link = await this.call((stripe) =>
      stripe.accountLinks.create({
        account: args.accountId,
        refresh_url: args.refreshUrl,
        return_url: args.returnUrl,
        type: 'account_onboarding',
      }),
    );
    return { url: link.url, expiresAt: new Date(link.expires_at * 1000) };
  }

  async createLoginLink(accountId: string): Promise<{ url: string }> {
    const link = await this.call((stripe) => stripe.accounts.createLoginLink(accountId));
    return { url: link.url };
  }

  async createTransfer(args: {
    amountCents: number;
    currency: string;
    destination: string;
    sourceTransaction: string | null;
    transferGroup: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<Transfer> {
    const transfer = await this.call((stripe) =>
      stripe.transfers.create(
        {
          amount: args.amountCents,
          currency: args.currency,
          destination: args.destination,
          ...(args.sourceTransaction ? { source_transaction: args.sourceTransaction } : {}),
          transfer_group: args.transferGroup,
          metadata: args.metadata,
        },
        { idempotencyKey: args.idempotencyKey },
      ),
    );
    return toTransfer(transfer);
  }

  async retrieveTransfer(id: string): Promise<Transfer> {
    return toTransfer(await this.call((stripe) => stripe.transfers.retrieve(id)));
  }

  async listTransfers(transferGroup: string): Promise<Transfer[]> {
    return this.call(async (stripe) => {
      const found: Transfer[] = [];
      for await (const transfer of stripe.transfers.list({ transfer_group: transferGroup, limit: 100 })) {
        found.push(toTransfer(transfer));
      }
      return found;
    });
  }

  async reverseTransfer(transferId: string, amountCents: number, idempotencyKey: string) {
    const reversal = await this.call((stripe) =>
      stripe.transfers.createReversal(transferId, { amount: amountCents }, { idempotencyKey }),
    );
    return { id: reversal.id, amountCents: reversal.amount };
  }

  async chargeOf(paymentIntentId: string): Promise<string | null> {
    const intent = await this.call((stripe) => stripe.paymentIntents.retrieve(paymentIntentId));
    return intent.status === 'succeeded' ? idOf(intent.latest_charge) : null;
  }

  async retrievePayout(accountId: string, payoutId: string): Promise<BankPayout> {
    const payout = await this.call((stripe) =>
      stripe.payouts.retrieve(payoutId, {}, { stripeAccount: accountId }),
    );
    return {
      id: payout.id,
      amountCents: payout.amount,
      status: payout.status as BankPayout['status'],
      arrivalAt: new Date(payout.arrival_date * 1000),
      failureMessage: payout.failure_message ?? null,
    };
  }

  async balance(accountId?: string): Promise<{ availableCents: number; pendingCents: number }> {
    const balance = await this.call((stripe) =>
      stripe.balance.retrieve({}, accountId ? { stripeAccount: accountId } : {}),
    );
    const sum = (funds: { amount: number; currency: string }[]) =>
      funds.filter((f) => f.currency === 'usd').reduce((total, f) => total + f.amount, 0);
    return { availableCents: sum(balance.available), pendingCents: sum(balance.pending) };
  }

  /** Checks a webhook delivery's signature against the raw body; throws when it does not match. */
  static async constructEvent(rawBody: Buffer, signature: string, secret: string): Promise<Stripe.Event> {
    return (await loadSdk()).webhooks.constructEvent(rawBody, signature, secret);
  }
}
