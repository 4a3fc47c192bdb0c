import { randomUUID } from 'node:crypto';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import type { ServiceFeeRates } from '#shared/booking/service-fee.ts';
import type { BillingKind, BillingStatus } from '#shared/constants.ts';
import type { Locale } from '#shared/i18n.ts';
import type { BillingEntry, ClientConfig, SavedPaymentMethod } from '#shared/schemas/payments.ts';
import type { CardDetails, PaymentProvider } from '../../adapters/payments/provider.ts';
import { StripePaymentProvider } from '../../adapters/payments/stripe-provider.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { inLocale } from '../../i18n.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { rewritten } from '../../wordings.ts';
import { disputeService } from '../disputes/service.ts';
import { paymentStepService } from '../payment-steps/service.ts';
import { payoutService } from '../payouts/service.ts';
import { reservationService } from '../reservations/service.ts';
import * as queries from './queries.ts';

// Saved cards (spec §2 Payment Methods), billing history, the provider's customer for each person,
// and Stripe's webhooks. Cards are added through a SetupIntent the browser confirms; the card is
// saved by the browser's follow-up call or by the webhook, whichever comes first.

export interface PaymentDeps {
  db: Db;
  payments: PaymentProvider;
  jobs: JobQueue;
  payment: Config['payments'];
  timeZone: string;
  /** The service fee's rates (decision 055): the webhook may end a request, which reads reservations' deps. */
  fees: ServiceFeeRates;
  log?: { error: (obj: object, msg: string) => void; warn?: (obj: object, msg: string) => void };
  /** The moderators (ADMIN_EMAILS), told of a card dispute. */
  adminEmails?: readonly string[];
  /** Links in a dispute's evidence start with this. */
  appUrl?: string;
}

/**
 * Stripe's dispute events (decision 059): each names a dispute, which is read again from Stripe, so
 * all five are handled alike, in any order.
 */
/** Transfers to lenders (decision 061): each is read again and compared with our row. */
const TRANSFER_EVENTS = new Set(['transfer.created', 'transfer.reversed', 'transfer.updated']);

const DISPUTE_EVENTS = new Set([
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
]);

/** The payment intent events CampusLoop listens to (decision 012). */
const INTENT_EVENTS = new Set([
  'payment_intent.amount_capturable_updated',
  'payment_intent.succeeded',
  'payment_intent.canceled',
  'payment_intent.payment_failed',
]);

export const CARD_ALREADY_SAVED: MessageDescriptor = msg`This card is already saved.`;

function toSavedMethod(row: queries.SavedMethodRow): SavedPaymentMethod {
  return {
    id: row.id,
    type: row.type,
    brand: row.brand,
    last4: row.last4,
    expiryMonth: row.expiryMonth,
    expiryYear: row.expiryYear,
    isDefault: row.isDefault,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * A billing row's description in `locale`: written again from its wording (wordings.ts) when it has
 * one, else (rows from before, text written by hand) as stored.
 */
function describedIn(row: queries.BillingRow, locale: Locale | undefined): string {
  if (!locale || !row.descriptionKind) return row.description;
  return (
    inLocale(locale, () => {
      const words = rewritten<MessageDescriptor>(row.descriptionKind, row.descriptionValues);
      return words && i18n._(words);
    }) ?? row.description
  );
}

/** `locale` is the reader's; without one, the description as stored. */
function toBillingEntry(
  row: queries.BillingRow & { serviceFeeCents?: number | null },
  locale?: Locale,
): BillingEntry {
  return {
    id: row.id,
    reservationId: row.reservationId,
    stripePaymentIntentId: row.stripePaymentIntentId,
    amount: centsToDecimal(row.amountCents)!,
    currency: row.currency,
    status: row.status as BillingStatus,
    kind: row.kind as BillingKind,
    refundId: row.kind === 'refund' ? row.providerRefundId : null,
    description: describedIn(row, locale),
    paymentMethodType: row.paymentMethodType,
    paymentMethodLast4: row.paymentMethodLast4,
    refundAmount: centsToDecimal(row.refundAmountCents),
    refundedAt: row.refundedAt?.toISOString() ?? null,
    // A payment's service fee, its own line under it; none recorded (a free payment, an old one): null.
    serviceFee: row.kind === 'payment' && row.serviceFeeCents ? centsToDecimal(row.serviceFeeCents) : null,
    createdAt: row.createdAt.toISOString(),
  };
}

function isUniqueViolation(error: unknown): boolean {
  const e = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string } | undefined);
  return e?.code === '23505';
}

type SetupCard = CardDetails & { paymentMethodId: string; customerId: string };

/** Saves a confirmed card for a user: their first card becomes the default. */
async function saveCard(db: Db, userId: string, card: SetupCard): Promise<queries.SavedMethodRow> {
  try {
    return await transaction(db, async (tx) => {
      await queries.lockUser(tx, userId);
      if (await queries.findMethodByProviderId(tx, card.paymentMethodId)) {
        throw conflict(CARD_ALREADY_SAVED, 'CARD_ALREADY_SAVED');
      }
      const isDefault = (await queries.countMethods(tx, userId)) === 0;
      return queries.insertMethod(tx, {
        userId,
        stripePaymentMethodId: card.paymentMethodId,
        type: card.type,
        brand: card.brand,
        last4: card.last4,
        expiryMonth: card.expiryMonth,
        expiryYear: card.expiryYear,
        isDefault,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(CARD_ALREADY_SAVED, 'CARD_ALREADY_SAVED');
    throw error;
  }
}

export const paymentService = {
  clientConfig(payments: PaymentProvider, fees: ServiceFeeRates): ClientConfig {
    return {
      payments: { provider: payments.kind, publishableKey: payments.publishableKey },
      fees: {
        serviceFeePercent: fees.serviceFeePercent,
        serviceFeeMin: centsToDecimal(fees.serviceFeeMinCents)!,
        serviceFeeMax: centsToDecimal(fees.serviceFeeMaxCents)!,
        lenderCommissionPercent: fees.lenderCommissionPercent,
      },
    };
  },

  async listMethods(db: Db, userId: string): Promise<SavedPaymentMethod[]> {
    return (await queries.listMethods(db, userId)).map(toSavedMethod);
  },

  async setDefault(db: Db, userId: string, id: string): Promise<void> {
    await transaction(db, async (tx) => {
      await queries.lockUser(tx, userId);
      if (!(await queries.findMethod(tx, userId, id))) throw notFound(msg`Payment method not found.`);
      await queries.setDefault(tx, userId, id);
    });
  },

  /** Detaches the card at the provider first: a card we forget must not stay chargeable there. */
  async removeMethod(deps: PaymentDeps, userId: string, id: string): Promise<void> {
    const row = await queries.findMethod(deps.db, userId, id);
    if (!row) throw notFound(msg`Payment method not found.`);
    await deps.payments.detachPaymentMethod(row.stripePaymentMethodId);
    await transaction(deps.db, async (tx) => {
      await queries.lockUser(tx, userId);
      const removed = await queries.deleteMethod(tx, userId, id);
      // The newest remaining card takes over as default, so there is one whenever there are cards.
      if (removed?.isDefault) {
        const [next] = await queries.listMethods(tx, userId);
        if (next) await queries.setDefault(tx, userId, next.id);
      }
    });
  },

  /** The provider's customer for this person, created and stored on first use. */
  async ensureCustomer(
    deps: PaymentDeps,
    user: { id: string; email: string; fullName: string },
  ): Promise<string> {
    const stored = await queries.customerIdOf(deps.db, user.id);
    if (stored) return stored;
    const created = await deps.payments.ensureCustomer({ ...user, customerId: null });
    return queries.storeCustomerId(deps.db, user.id, created);
  },

  async createSetupIntent(
    deps: PaymentDeps,
    user: { id: string; email: string; fullName: string },
  ): Promise<{ clientSecret: string; setupIntentId: string }> {
    const customerId = await paymentService.ensureCustomer(deps, user);
    const intent = await deps.payments.createSetupIntent(customerId, `seti-${user.id}-${randomUUID()}`);
    return { clientSecret: intent.clientSecret, setupIntentId: intent.id };
  },

  /** The browser's call after confirming a SetupIntent: the card it saved joins the person's list. */
  async addFromSetupIntent(
    deps: PaymentDeps,
    userId: string,
    setupIntentId: string,
  ): Promise<SavedPaymentMethod> {
    const card = await deps.payments.retrieveSetupIntentCard(setupIntentId);
    if (!card) {
      throw badRequest(msg`This card has not been confirmed yet. Please enter your card details again.`);
    }
    const customerId = await queries.customerIdOf(deps.db, userId);
    if (!customerId || card.customerId !== customerId) {
      throw forbidden(msg`This card was added by another account.`);
    }
    return toSavedMethod(await saveCard(deps.db, userId, card));
  },

  /**
   * Checkout with a saved card: the borrower's own checkout intent is authorised with one of
   * their saved cards, no card typed. The idempotency key is the intent's and the card's, so a double
   * click or a retry confirms once and answers the same; the request that follows still takes the
   * intent under its lock (one payment, one request).
   */
  async payWithSavedCard(
    deps: PaymentDeps,
    userId: string,
    input: { paymentIntentId: string; paymentMethodId: string },
  ): Promise<{ status: string; paymentIntentId: string; nextActionUrl: string | null }> {
    const recorded = await paymentStepService.findIntent(deps.db, input.paymentIntentId);
    if (!recorded || recorded.borrowerId !== userId) throw notFound(msg`Payment not found.`);
    if (recorded.status === 'used') {
      throw conflict(msg`That payment is already used by another reservation.`, 'PAYMENT_ALREADY_USED');
    }
    if (recorded.status === 'abandoned') {
      throw conflict(
        msg`That payment was released because no request followed it in time. Please pay again.`,
        'PAYMENT_RELEASED',
      );
    }
    const method = await queries.findMethod(deps.db, userId, input.paymentMethodId);
    if (!method) throw notFound(msg`Payment method not found.`);
    const customerId = await queries.customerIdOf(deps.db, userId);
    if (!customerId) throw notFound(msg`Payment method not found.`);
    const intent = await deps.payments.confirmWithSavedCard({
      paymentIntentId: input.paymentIntentId,
      paymentMethodId: method.stripePaymentMethodId,
      customerId,
      idempotencyKey: `pay-saved-${input.paymentIntentId}-${method.id}`,
    });
    return { status: intent.status, paymentIntentId: intent.id, nextActionUrl: intent.nextActionUrl ?? null };
  },

  /** A person's billing rows, described in `locale` (the reader's language); as stored without one. */
  async billingHistory(db: Db, userId: string, locale?: Locale): Promise<BillingEntry[]> {
    return (await queries.listBilling(db, userId)).map((row) => toBillingEntry(row, locale));
  },

  /**
   * A Stripe webhook delivery: the signature is checked on the raw body, each event is applied once
   * (Stripe retries deliveries), and a saved card arrives here even when the browser closed early.
   * Payment intent and refund events are recorded against the intent and its payment steps run now
   * (each asks Stripe again before acting, so a replayed or out-of-order event is harmless).
   * Answers what was done, for the log.
   */
  async handleWebhook(
    deps: PaymentDeps,
    stripe: Config['stripe'],
    rawBody: Buffer | undefined,
    signature: string | string[] | undefined,
  ): Promise<{ eventId: string; type: string; outcome: string }> {
    if (!stripe?.webhookSecret) throw notFound(msg`Stripe webhooks are not configured.`);
    if (typeof signature !== 'string' || !signature) {
      throw badRequest(msg`The Stripe-Signature header is missing.`);
    }
    if (!rawBody?.length) throw badRequest(msg`The webhook body is empty.`);
    let event: Awaited<ReturnType<typeof StripePaymentProvider.constructEvent>>;
    try {
      event = await StripePaymentProvider.constructEvent(rawBody, signature, stripe.webhookSecret);
    } catch {
      throw new AppError(
        400,
        'BAD_SIGNATURE',
        msg`The webhook signature does not match. Check STRIPE_WEBHOOK_SECRET.`,
      );
    }
    if (await queries.eventSeen(deps.db, event.id)) {
      return { eventId: event.id, type: event.type, outcome: 'already handled' };
    }
    let outcome = 'acknowledged';
    if (event.type === 'setup_intent.succeeded') {
      outcome = await savedFromWebhook(deps, event.data.object);
    } else if (INTENT_EVENTS.has(event.type)) {
      const intent = event.data.object as {
        id: string;
        status: string;
        last_payment_error?: { message?: string } | null;
      };
      // A request still waiting for the lender cannot be paid any more: it ends now.
      if (
        event.type === 'payment_intent.canceled' &&
        (await reservationService.authorisationLapsed(deps, intent.id))
      ) {
        outcome = 'ended the request its authorisation paid for; ';
      } else outcome = '';
      outcome += await paymentStepService.providerReported(deps, {
        paymentIntentId: intent.id,
        status: intent.status,
        lastError:
          event.type === 'payment_intent.payment_failed'
            ? (intent.last_payment_error?.message ?? 'The card payment failed.')
            : null,
      });
    } else if (DISPUTE_EVENTS.has(event.type)) {
      const dispute = event.data.object as { id?: unknown };
      outcome =
        typeof dispute.id === 'string'
          ? (await disputeService.providerReported(deps, dispute.id)).outcome
          : 'no dispute';
    } else if (TRANSFER_EVENTS.has(event.type)) {
      const transfer = event.data.object as { id?: unknown };
      outcome =
        typeof transfer.id === 'string'
          ? await payoutService.transferReported(deps, transfer.id)
          : 'no transfer';
      if (outcome.startsWith('finding')) deps.log?.error({ eventId: event.id, outcome }, 'transfer finding');
    } else if (event.type === 'charge.refunded') {
      const charge = event.data.object as {
        payment_intent: string | { id: string } | null;
        amount_refunded: number;
      };
      const intentId =
        typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
      outcome = intentId
        ? await paymentStepService.providerReported(deps, {
            paymentIntentId: intentId,
            refundedCents: charge.amount_refunded,
          })
        : 'no payment intent';
    }
    // Recorded after the work: a failure above answers 500 and Stripe delivers the event again.
    await queries.recordEvent(deps.db, event.id, event.type);
    return { eventId: event.id, type: event.type, outcome };
  },
};

async function savedFromWebhook(
  deps: PaymentDeps,
  intent: { id: string; customer: string | { id: string } | null },
): Promise<string> {
  const customerId = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
  const userId = customerId ? await queries.findUserIdByCustomerId(deps.db, customerId) : undefined;
  if (!userId) return 'no user for this customer';
  const card = await deps.payments.retrieveSetupIntentCard(intent.id);
  if (!card || card.customerId !== customerId) return 'no card to save';
  try {
    await saveCard(deps.db, userId, card);
    return 'card saved';
  } catch (error) {
    if (error instanceof AppError && error.code === 'CARD_ALREADY_SAVED') return 'card already saved';
    throw error;
  }
}
