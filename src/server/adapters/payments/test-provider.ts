import { createHash, randomBytes } from 'node:crypto';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  testConnectedAccounts,
  testDisputes,
  testIdempotency,
  testPaymentIntents,
  testPaymentMethods,
  testPayouts,
  testSetupIntents,
  testTransfers,
} from '../../db/schema/test-payments.ts';
import { AppError, type UserMessage } from '../../errors.ts';
import type {
  BankPayout,
  CardDetails,
  ConnectedAccount,
  Dispute,
  DisputeEvidence,
  DisputeStatus,
  PaymentIntent,
  PaymentProvider,
  SavedCardPayment,
  Transfer,
} from './provider.ts';

// The built-in test provider: Stripe's objects, statuses and test cards, with its state in our own
// database, so `npm start` takes (pretend) card payments with no account and no network.

/** A card the provider refused, or a call that does not fit the intent's state. */
export class PaymentError extends AppError {
  /** `message`: a `msg` descriptor (written in the caller's language), or the provider's own words. */
  constructor(message: UserMessage, code: string, statusCode = 402) {
    super(statusCode, code.toUpperCase(), message);
    this.name = 'PaymentError';
  }
}

/** Stripe's documented test cards and their outcomes. */
const OUTCOMES: Record<
  string,
  {
    decline?: { code: string; message: MessageDescriptor };
    authenticate?: true;
    dispute?: true;
    /** What a payment with the card saved does off-session (absent: it is authorised). */
    offSession?: 'authenticate' | 'decline';
  }
> = {
  '4242424242424242': {},
  // The charge succeeds, then the cardholder disputes it as fraudulent.
  '4000000000000259': { dispute: true },
  // 3-D Secure: the bank asks the cardholder to authenticate every time, off-session too.
  '4000002760003184': { authenticate: true, offSession: 'authenticate' },
  // 3-D Secure unless set up: a card saved through a SetupIntent pays off-session without it.
  '4000002500003155': { authenticate: true },
  // Attaches to a customer (a SetupIntent succeeds), then every charge is declined.
  '4000000000000341': { offSession: 'decline' },
  '4000056655665556': {},
  '5555555555554444': {},
  '378282246310005': {},
  '4000000000000002': { decline: { code: 'card_declined', message: msg`Your card was declined.` } },
  '4000000000009995': {
    decline: { code: 'insufficient_funds', message: msg`Your card has insufficient funds.` },
  },
  '4000000000000069': { decline: { code: 'expired_card', message: msg`Your card has expired.` } },
  '4000000000000127': {
    decline: { code: 'incorrect_cvc', message: msg`Your card's security code is incorrect.` },
  },
};

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number) || /^2[2-7]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (number.startsWith('6')) return 'discover';
  return 'unknown';
}

export interface TestCardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** Checks a card as Stripe's test mode would; answers its details or throws the decline. */
export function checkTestCard(card: TestCardInput, now = new Date()) {
  const number = card.number.replace(/\D/g, '');
  if (!luhn(number)) throw new PaymentError(msg`Your card number is incorrect.`, 'incorrect_number');
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (
    year < now.getUTCFullYear() ||
    (year === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1)
  ) {
    throw new PaymentError(msg`Your card has expired.`, 'expired_card');
  }
  const decline = OUTCOMES[number]?.decline;
  if (decline) throw new PaymentError(decline.message, decline.code);
  return {
    type: 'card',
    brand: brandOf(number),
    last4: number.slice(-4),
    expiryMonth: card.expMonth,
    expiryYear: year,
  };
}

/** A saved test card at payment time: still in date (Stripe declines an expired saved card). */
function checkSavedCard(
  method: { brand: string; last4: string; expiryMonth: number; expiryYear: number },
  now = new Date(),
) {
  const { expiryMonth: month, expiryYear: year } = method;
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
    throw new PaymentError(msg`Your card has expired.`, 'expired_card');
  }
  return { type: 'card', brand: method.brand, last4: method.last4, expiryMonth: month, expiryYear: year };
}

/** Only an intent waiting for a card can be paid: one authorised, captured or cancelled is refused. */
function assertWaitingForCard(row: IntentRow) {
  if (row.status !== 'requires_payment_method') {
    throw new PaymentError(
      msg`This payment can no longer be confirmed.`,
      'payment_intent_unexpected_state',
      409,
    );
  }
}

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

type IntentRow = typeof testPaymentIntents.$inferSelect;
type SavedCardRow = typeof testPaymentMethods.$inferSelect;

function toIntent(row: IntentRow): PaymentIntent {
  return {
    id: row.id,
    clientSecret: row.clientSecret,
    status: row.status as PaymentIntent['status'],
    amountCents: row.amountCents,
    amountReceivedCents: row.amountReceivedCents,
    amountRefundedCents: row.amountRefundedCents,
    currency: row.currency,
    metadata: row.metadata,
    card: row.card ?? null,
    // The test bank's page stands in for the card issuer's 3-D Secure page.
    nextActionUrl:
      row.status === 'requires_action' ? `/payments/test/authenticate?payment_intent=${row.id}` : null,
  };
}

/** Whether the bank asks this card's holder to authenticate (3-D Secure). */
export function needsAuthentication(number: string): boolean {
  return Boolean(OUTCOMES[number.replace(/\D/g, '')]?.authenticate);
}

/** Whether this card's charge is disputed right after capture (Stripe's dispute test card). */
export function disputedOnCapture(number: string): boolean {
  return Boolean(OUTCOMES[number.replace(/\D/g, '')]?.dispute);
}

/** Stripe's dispute fee, taken with the withdrawal and given back when the dispute is won. */
export const TEST_DISPUTE_FEE_CENTS = 1500;
/** Days the bank gives to answer a dispute (Stripe shows it as evidence_details.due_by). */
const EVIDENCE_DAYS = 7;

type DisputeRow = typeof testDisputes.$inferSelect;

function toDispute(row: DisputeRow): Dispute {
  return {
    id: row.id,
    paymentIntentId: row.paymentIntentId,
    amountCents: row.amountCents,
    currency: row.currency,
    reason: row.reason,
    status: row.status as DisputeStatus,
    evidenceDueBy: row.evidenceDueBy,
    withdrawnCents: row.withdrawnCents,
    reinstatedCents: row.reinstatedCents,
    feeCents: row.feeCents,
    submissionCount: row.submissionCount,
  };
}

/** Where the test onboarding page leaves an account (its buttons). */
export type TestAccountState = 'onboarding' | 'complete' | 'needs_information' | 'rejected';
export const TEST_ACCOUNT_STATES: readonly TestAccountState[] = [
  'onboarding',
  'complete',
  'needs_information',
  'rejected',
];

/** What Stripe asks of a new US individual Express account before it may receive transfers. */
const ONBOARDING_DUE = [
  'business_profile.url',
  'external_account',
  'individual.dob.day',
  'individual.ssn_last_4',
  'tos_acceptance.date',
];

type AccountRow = typeof testConnectedAccounts.$inferSelect;
type TransferRow = typeof testTransfers.$inferSelect;

/** A test account's state as Stripe's Account fields would show it. */
function toAccount(row: AccountRow): ConnectedAccount {
  const base = { id: row.id, metadata: { userId: row.userId } };
  switch (row.state as TestAccountState) {
    case 'complete':
      return {
        ...base,
        detailsSubmitted: true,
        chargesEnabled: true,
        payoutsEnabled: true,
        transfersCapability: 'active',
        requirementsDue: [],
        disabledReason: null,
      };
    case 'needs_information':
      return {
        ...base,
        detailsSubmitted: true,
        chargesEnabled: false,
        payoutsEnabled: false,
        transfersCapability: 'inactive',
        requirementsDue: ['individual.verification.document'],
        disabledReason: 'requirements.past_due',
      };
    case 'rejected':
      return {
        ...base,
        detailsSubmitted: true,
        chargesEnabled: false,
        payoutsEnabled: false,
        transfersCapability: 'inactive',
        requirementsDue: [],
        disabledReason: 'rejected.other',
      };
    default:
      return {
        ...base,
        detailsSubmitted: false,
        chargesEnabled: false,
        payoutsEnabled: false,
        transfersCapability: 'inactive',
        requirementsDue: ONBOARDING_DUE,
        disabledReason: 'requirements.past_due',
      };
  }
}

function toTransfer(row: TransferRow): Transfer {
  return {
    id: row.id,
    amountCents: row.amountCents,
    amountReversedCents: row.amountReversedCents,
    currency: row.currency,
    destination: row.destination,
    sourceTransaction: row.sourceTransaction,
    transferGroup: row.transferGroup,
    metadata: row.metadata,
    created: row.createdAt.toISOString(),
    availableAt: row.availableAt.toISOString(),
  };
}

/**
 * A Connect event as Stripe would deliver it to the Connect webhook (decision 061): its type, the
 * connected account it happened on, and the object it names (read again by the listener).
 */
export interface TestConnectEvent {
  id: string;
  type: string;
  account: string;
  objectId: string;
}

function toPayout(row: typeof testPayouts.$inferSelect): BankPayout {
  return {
    id: row.id,
    amountCents: row.amountCents,
    status: row.status as BankPayout['status'],
    arrivalAt: row.arrivalAt,
    failureMessage: null,
  };
}

/** Funds of a transfer are pending this long in the lender's balance, then available (a Stripe test-mode rhythm). */
const TRANSFER_PENDING_MS = 2 * 24 * 3600_000;

/** The test charge of a test intent: the same random part, Stripe's `ch_` prefix. */
const chargeIdOf = (intentId: string) => intentId.replace(/^pi_/, 'ch_');

export class TestPaymentProvider implements PaymentProvider {
  readonly kind = 'test' as const;
  readonly publishableKey = null;
  /**
   * Told of a dispute that opened or changed, as a webhook would tell us of one at Stripe (the app
   * passes the same service function the webhook calls).
   */
  onDispute: ((disputeId: string) => Promise<void>) | null = null;
  /**
   * Told of what happened on a connected account (account.updated, payout.created, payout.paid, …), as
   * Stripe's Connect webhook would tell us (the app passes the function that webhook calls).
   */
  onConnectEvent: ((event: TestConnectEvent) => Promise<void>) | null = null;

  constructor(private readonly db: Db) {}

  /**
   * Tells the listener of a dispute. Its failure is not the caller's (a capture that succeeded stays
   * succeeded): the dispute stays here, and the next change or a moderator's close tells it again.
   */
  private async announce(disputeId: string): Promise<void> {
    try {
      await this.onDispute?.(disputeId);
    } catch {
      // Told again on the dispute's next change; the listener reads it afresh each time.
    }
  }

  /** Tells the Connect listener; as with disputes, its failure is not the caller's (told again later). */
  private async announceConnect(type: string, account: string, objectId: string): Promise<void> {
    try {
      await this.onConnectEvent?.({ id: newId('evt'), type, account, objectId });
    } catch {
      // The account or payout is read afresh on its next event, or on the lender's refresh.
    }
  }

  /** Runs a money-moving call once per idempotency key; a retry answers the first result. */
  private async once<T>(key: string, run: () => Promise<T>): Promise<T> {
    const [done] = await this.db.select().from(testIdempotency).where(eq(testIdempotency.key, key));
    if (done) return done.result as T;
    const result = await run();
    await this.db.insert(testIdempotency).values({ key, result }).onConflictDoNothing();
    return result;
  }

  private async intent(id: string): Promise<IntentRow> {
    const [row] = await this.db.select().from(testPaymentIntents).where(eq(testPaymentIntents.id, id));
    if (!row) throw new PaymentError(msg`No such payment.`, 'resource_missing', 404);
    return row;
  }

  private async setIntent(id: string, values: Partial<IntentRow>): Promise<PaymentIntent> {
    const [row] = await this.db
      .update(testPaymentIntents)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(testPaymentIntents.id, id))
      .returning();
    return toIntent(row!);
  }

  async ensureCustomer(user: { id: string; customerId: string | null }): Promise<string> {
    return user.customerId ?? `cus_test_${user.id.replaceAll('-', '')}`;
  }

  /**
   * The intent and its idempotency record in one statement, where Stripe answers one HTTP call: a
   * retry with the key answers the first intent, and of calls at once with one key only one makes it.
   */
  async createPaymentIntent(args: {
    amountCents: number;
    currency: string;
    customerId: string | null;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<PaymentIntent> {
    const id = newId('pi');
    const intent: PaymentIntent = {
      id,
      clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      status: 'requires_payment_method',
      amountCents: args.amountCents,
      amountReceivedCents: 0,
      amountRefundedCents: 0,
      currency: args.currency,
      metadata: args.metadata,
      card: null,
      nextActionUrl: null,
    };
    const key = args.idempotencyKey;
    const result = await this.db.execute<{ made: boolean; earlier: PaymentIntent | null }>(sql`
      with claimed as (
        insert into ${testIdempotency} (key, result) values (${key}, ${JSON.stringify(intent)}::jsonb)
        on conflict do nothing
        returning key
      ),
      made as (
        insert into ${testPaymentIntents} (id, client_secret, status, amount_cents, currency, customer_id, metadata)
        select ${id}, ${intent.clientSecret}, ${intent.status}, ${args.amountCents}::int, ${args.currency},
          ${args.customerId}, ${JSON.stringify(args.metadata)}::jsonb
        from claimed
        returning id
      )
      select exists (select 1 from made) as made,
        (select result from ${testIdempotency} where key = ${key}) as earlier`);
    const row = result.rows[0];
    if (row?.made) return intent;
    if (row?.earlier) return row.earlier;
    // The first call with this key committed while this statement ran: its record is there now.
    const [first] = await this.db.select().from(testIdempotency).where(eq(testIdempotency.key, key));
    if (!first) throw new Error(`the payment intent of idempotency key ${key} was neither made nor found`);
    return first.result as PaymentIntent;
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntent> {
    return toIntent(await this.intent(id));
  }

  /**
   * The browser's card confirmation (what Stripe.js does for a real intent): authorises the amount.
   * Stripe.js confirms with the intent's client secret, which only its borrower's page holds. `payer`:
   * the signed-in person confirming; an intent made for someone else is missing to them, as to Stripe.
   * The card's outcome depends on the card alone, so the intent moves from waiting for a card in one
   * conditional update: a confirmation is one statement, and of confirmations at once one writes.
   */
  async confirmPaymentIntent(id: string, card: TestCardInput, payer?: string): Promise<PaymentIntent> {
    let refusal: PaymentError | undefined;
    let written: Partial<IntentRow>;
    try {
      const details = checkTestCard(card);
      const status = needsAuthentication(card.number) ? 'requires_action' : 'requires_capture';
      written = { status, card: details, lastError: null, disputeOnCapture: disputedOnCapture(card.number) };
    } catch (error) {
      if (!(error instanceof PaymentError)) throw error;
      refusal = error;
      written = { lastError: error.message };
    }
    const [updated] = await this.db
      .update(testPaymentIntents)
      .set({ ...written, updatedAt: new Date() })
      .where(
        and(
          eq(testPaymentIntents.id, id),
          eq(testPaymentIntents.status, 'requires_payment_method'),
          payer === undefined ? undefined : sql`${testPaymentIntents.metadata} ->> 'borrowerId' = ${payer}`,
        ),
      )
      .returning();
    if (updated) {
      if (refusal) throw refusal;
      return toIntent(updated);
    }
    // Not waiting for this payer's card: missing, someone else's, or confirmed already.
    const row = await this.intent(id);
    if (payer !== undefined && row.metadata.borrowerId !== payer) {
      throw new PaymentError(msg`No such payment.`, 'resource_missing', 404);
    }
    if (['requires_capture', 'succeeded', 'requires_action'].includes(row.status)) return toIntent(row);
    assertWaitingForCard(row);
    // Waiting again (its bank refused the authentication meanwhile): confirmed with this card now.
    return this.confirmPaymentIntent(id, card, payer);
  }

  /**
   * A saved card pays: the card must be this customer's and still attached. The intent moves from
   * 'requires_payment_method' in one conditional update, so calls at once (a double click, two tabs)
   * authorise it once; every one of them answers the authorised intent.
   */
  confirmWithSavedCard(args: SavedCardPayment): Promise<PaymentIntent> {
    return this.payWithSavedCard(args, true, async (method) => {
      const details = checkSavedCard(method);
      // Stripe's test cards with the cardholder present: 0341 declines every charge, 3184 asks the
      // cardholder to authenticate every time.
      if (method.offSession === 'decline') {
        await this.setIntent(args.paymentIntentId, { lastError: 'Your card was declined.' });
        throw new PaymentError(msg`Your card was declined.`, 'card_declined');
      }
      const status = method.offSession === 'authenticate' ? 'requires_action' : 'requires_capture';
      return this.authoriseWaiting(args, details, status);
    });
  }

  /**
   * A saved card pays, once per idempotency key: the intent must still wait for a card (with the
   * cardholder present, one already authorised is answered as it is), and the card must be this
   * customer's and still attached.
   */
  private payWithSavedCard(
    args: SavedCardPayment,
    cardholderPresent: boolean,
    pay: (method: SavedCardRow) => Promise<PaymentIntent>,
  ): Promise<PaymentIntent> {
    return this.once(args.idempotencyKey, async () => {
      const row = await this.intent(args.paymentIntentId);
      if (cardholderPresent && ['requires_capture', 'succeeded'].includes(row.status)) return toIntent(row);
      assertWaitingForCard(row);
      return pay(await this.savedCard(args.paymentMethodId, args.customerId));
    });
  }

  /**
   * A saved card's authorisation, written only on an intent still waiting for a card: one conditional
   * update, so of calls at once one authorises and the others answer what it wrote.
   */
  private async authoriseWaiting(
    args: { paymentIntentId: string; customerId: string },
    card: ReturnType<typeof checkSavedCard>,
    status: 'requires_capture' | 'requires_action',
  ): Promise<PaymentIntent> {
    const [updated] = await this.db
      .update(testPaymentIntents)
      .set({ status, card, customerId: args.customerId, lastError: null, updatedAt: new Date() })
      .where(
        and(
          eq(testPaymentIntents.id, args.paymentIntentId),
          eq(testPaymentIntents.status, 'requires_payment_method'),
        ),
      )
      .returning();
    return toIntent(updated ?? (await this.intent(args.paymentIntentId)));
  }

  /** A customer's saved card that is still attached, as Stripe finds one to pay with. */
  private async savedCard(paymentMethodId: string, customerId: string) {
    const [method] = await this.db
      .select()
      .from(testPaymentMethods)
      .where(
        and(
          eq(testPaymentMethods.id, paymentMethodId),
          eq(testPaymentMethods.customerId, customerId),
          isNull(testPaymentMethods.detached),
        ),
      );
    if (!method) throw new PaymentError(msg`No such saved card.`, 'resource_missing', 404);
    return method;
  }

  /**
   * An off-session payment with a saved card, as Stripe answers it: Stripe's test cards that need the
   * cardholder (3184) or decline (0341) refuse with the intent left to be paid again, others authorise.
   * One conditional update, so two calls at once authorise once.
   */
  authoriseOffSession(args: SavedCardPayment): Promise<PaymentIntent> {
    return this.payWithSavedCard(args, false, async (method) => {
      try {
        const details = checkSavedCard(method);
        if (method.offSession === 'authenticate') {
          throw new PaymentError(
            msg`Your bank asks you to confirm this payment yourself.`,
            'authentication_required',
          );
        }
        if (method.offSession === 'decline') {
          throw new PaymentError(msg`Your card was declined.`, 'card_declined');
        }
        return await this.authoriseWaiting(args, details, 'requires_capture');
      } catch (error) {
        if (error instanceof PaymentError) {
          await this.setIntent(args.paymentIntentId, { lastError: error.message });
        }
        throw error;
      }
    });
  }

  /** The cardholder's answer on the test bank's 3-D Secure page. */
  async authenticatePaymentIntent(id: string, approved: boolean): Promise<PaymentIntent> {
    const row = await this.intent(id);
    if (row.status !== 'requires_action') return toIntent(row);
    return approved
      ? this.setIntent(id, { status: 'requires_capture', lastError: null })
      : this.setIntent(id, {
          status: 'requires_payment_method',
          card: null,
          lastError:
            'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
        });
  }

  async capturePaymentIntent(id: string, idempotencyKey: string): Promise<PaymentIntent> {
    const captured = await this.capture(id, idempotencyKey);
    const row = await this.intent(id);
    if (row.disputeOnCapture && row.status === 'succeeded') await this.disputePayment(id);
    return captured;
  }

  /**
   * The cardholder disputes a captured payment as fraudulent (the dispute test card does it at the
   * capture; tests and the demo may do it later, after the lender was paid): the amount and the fee
   * leave the balance, and the listener is told. Once per payment.
   */
  async disputePayment(id: string): Promise<void> {
    const row = await this.intent(id);
    if (row.status !== 'succeeded') return;
    await this.db
      .insert(testDisputes)
      .values({
        id: `dp_test_${id.slice('pi_test_'.length)}`,
        paymentIntentId: id,
        amountCents: row.amountReceivedCents - row.amountRefundedCents,
        currency: row.currency,
        reason: 'fraudulent',
        status: 'needs_response',
        evidenceDueBy: new Date(Date.now() + EVIDENCE_DAYS * 86_400_000),
        // As at Stripe, the disputed amount and the fee leave the balance when the dispute opens.
        withdrawnCents: row.amountReceivedCents - row.amountRefundedCents,
        feeCents: TEST_DISPUTE_FEE_CENTS,
      })
      .onConflictDoNothing();
    for (const dispute of await this.disputesOf(id)) await this.announce(dispute.id);
  }

  private capture(id: string, idempotencyKey: string): Promise<PaymentIntent> {
    return this.once(idempotencyKey, async () => {
      const row = await this.intent(id);
      if (row.status === 'succeeded') return toIntent(row);
      if (row.status !== 'requires_capture') {
        throw new PaymentError(
          msg`This payment has not been authorised.`,
          'payment_intent_unexpected_state',
          409,
        );
      }
      return this.setIntent(id, { status: 'succeeded', amountReceivedCents: row.amountCents });
    });
  }

  cancelPaymentIntent(id: string, idempotencyKey: string): Promise<PaymentIntent> {
    return this.once(idempotencyKey, async () => {
      const row = await this.intent(id);
      if (row.status === 'canceled') return toIntent(row);
      if (row.status === 'succeeded') {
        throw new PaymentError(
          msg`A captured payment cannot be cancelled; refund it.`,
          'payment_intent_unexpected_state',
          409,
        );
      }
      return this.setIntent(id, { status: 'canceled' });
    });
  }

  refund(paymentIntentId: string, amountCents: number, idempotencyKey: string) {
    return this.once(idempotencyKey, async () => {
      const row = await this.intent(paymentIntentId);
      if (row.status !== 'succeeded')
        throw new PaymentError(msg`Only a captured payment can be refunded.`, 'charge_not_captured', 409);
      if (amountCents <= 0 || row.amountRefundedCents + amountCents > row.amountReceivedCents) {
        throw new PaymentError(
          msg`The refund is larger than what is left of the payment.`,
          'amount_too_large',
          409,
        );
      }
      await this.db
        .update(testPaymentIntents)
        .set({ amountRefundedCents: sql`${testPaymentIntents.amountRefundedCents} + ${amountCents}` })
        .where(eq(testPaymentIntents.id, paymentIntentId));
      return { id: newId('re'), amountCents };
    });
  }

  createSetupIntent(customerId: string, idempotencyKey: string) {
    return this.once(idempotencyKey, async () => {
      const id = newId('seti');
      const clientSecret = `${id}_secret_${randomBytes(12).toString('hex')}`;
      await this.db
        .insert(testSetupIntents)
        .values({ id, clientSecret, customerId, status: 'requires_payment_method' });
      return { id, clientSecret };
    });
  }

  /** The browser's card confirmation for saving a card. */
  async confirmSetupIntent(
    id: string,
    card: TestCardInput,
    customerId: string,
  ): Promise<CardDetails & { paymentMethodId: string }> {
    const [intent] = await this.db.select().from(testSetupIntents).where(eq(testSetupIntents.id, id));
    if (!intent || intent.customerId !== customerId)
      throw new PaymentError(msg`No such card setup.`, 'resource_missing', 404);
    if (intent.status === 'succeeded')
      throw new PaymentError(msg`This card setup is already complete.`, 'setup_intent_unexpected_state', 409);
    const details = checkTestCard(card);
    const paymentMethodId = newId('pm');
    await this.db.insert(testPaymentMethods).values({
      id: paymentMethodId,
      customerId: intent.customerId,
      brand: details.brand,
      last4: details.last4,
      expiryMonth: details.expiryMonth,
      expiryYear: details.expiryYear,
      offSession: OUTCOMES[card.number.replace(/\D/g, '')]?.offSession ?? 'ok',
    });
    await this.db
      .update(testSetupIntents)
      .set({ status: 'succeeded', paymentMethodId })
      .where(eq(testSetupIntents.id, id));
    return { ...details, paymentMethodId };
  }

  async retrieveSetupIntentCard(setupIntentId: string) {
    const [intent] = await this.db
      .select()
      .from(testSetupIntents)
      .where(eq(testSetupIntents.id, setupIntentId));
    if (!intent?.paymentMethodId || intent.status !== 'succeeded') return null;
    const [method] = await this.db
      .select()
      .from(testPaymentMethods)
      .where(eq(testPaymentMethods.id, intent.paymentMethodId));
    if (!method) return null;
    return {
      paymentMethodId: method.id,
      customerId: intent.customerId,
      type: 'card',
      brand: method.brand,
      last4: method.last4,
      expiryMonth: method.expiryMonth,
      expiryYear: method.expiryYear,
    };
  }

  async detachPaymentMethod(paymentMethodId: string): Promise<void> {
    await this.db
      .update(testPaymentMethods)
      .set({ detached: new Date() })
      .where(eq(testPaymentMethods.id, paymentMethodId));
  }

  /** The built-in provider keeps no customers: their saved cards are detached. */
  async forgetCustomer(customerId: string): Promise<void> {
    await this.db
      .update(testPaymentMethods)
      .set({ detached: new Date() })
      .where(and(eq(testPaymentMethods.customerId, customerId), isNull(testPaymentMethods.detached)));
  }

  private async disputeRow(id: string): Promise<DisputeRow> {
    const [row] = await this.db.select().from(testDisputes).where(eq(testDisputes.id, id));
    if (!row) throw new PaymentError(msg`No such dispute.`, 'resource_missing', 404);
    return row;
  }

  /** The disputes of a payment (tests, and the announcements after a capture). */
  async disputesOf(paymentIntentId: string): Promise<Dispute[]> {
    const rows = await this.db
      .select()
      .from(testDisputes)
      .where(eq(testDisputes.paymentIntentId, paymentIntentId));
    return rows.map(toDispute);
  }

  async retrieveDispute(id: string): Promise<Dispute> {
    return toDispute(await this.disputeRow(id));
  }

  /**
   * Evidence goes to the (pretend) bank: the dispute is under review. As in Stripe's test mode,
   * uncategorized_text "winning_evidence" or "losing_evidence" decides it at once.
   */
  submitDisputeEvidence(id: string, evidence: DisputeEvidence, idempotencyKey: string): Promise<Dispute> {
    return this.once(idempotencyKey, async () => {
      const row = await this.disputeRow(id);
      if (!['needs_response', 'warning_needs_response'].includes(row.status)) {
        throw new PaymentError(
          msg`This dispute is no longer waiting for evidence.`,
          'dispute_unexpected_state',
          409,
        );
      }
      await this.db
        .update(testDisputes)
        .set({
          evidence: evidence as Record<string, string>,
          submissionCount: row.submissionCount + 1,
          status: row.status === 'warning_needs_response' ? 'warning_under_review' : 'under_review',
        })
        .where(eq(testDisputes.id, id));
      const text = evidence.uncategorized_text ?? '';
      if (text.includes('winning_evidence')) return this.decide(id, 'won');
      if (text.includes('losing_evidence')) return this.decide(id, 'lost');
      return toDispute(await this.disputeRow(id));
    });
  }

  /** The bank decides (tests and the demo): won gives the amount and the fee back. */
  private async decide(id: string, outcome: 'won' | 'lost'): Promise<Dispute> {
    const row = await this.disputeRow(id);
    if (row.status === 'won' || row.status === 'lost') return toDispute(row);
    const [updated] = await this.db
      .update(testDisputes)
      .set(
        outcome === 'won'
          ? { status: 'won', reinstatedCents: row.withdrawnCents, feeCents: 0 }
          : { status: 'lost' },
      )
      .where(eq(testDisputes.id, id))
      .returning();
    return toDispute(updated!);
  }

  /** Closes a dispute as the bank would, then tells the listener (the test provider's stand-in for the bank). */
  async closeDispute(id: string, outcome: 'won' | 'lost'): Promise<Dispute> {
    const dispute = await this.decide(id, outcome);
    await this.announce(id);
    return dispute;
  }

  // Connect (decision 056).

  private async account(id: string): Promise<AccountRow> {
    const [row] = await this.db.select().from(testConnectedAccounts).where(eq(testConnectedAccounts.id, id));
    if (!row) throw new PaymentError(msg`No such connected account.`, 'resource_missing', 404);
    return row;
  }

  /**
   * The account's id comes from the idempotency key, so calls at once with the same key (two tabs)
   * meet on one row, as Stripe answers a repeated key with the first account.
   */
  async createConnectedAccount(args: {
    userId: string;
    email: string;
    country: string;
    idempotencyKey: string;
  }): Promise<ConnectedAccount> {
    const id = `acct_test_${createHash('sha256').update(args.idempotencyKey).digest('hex').slice(0, 24)}`;
    await this.db
      .insert(testConnectedAccounts)
      .values({ id, userId: args.userId, email: args.email, country: args.country })
      .onConflictDoNothing();
    return toAccount(await this.account(id));
  }

  async retrieveConnectedAccount(accountId: string): Promise<ConnectedAccount> {
    return toAccount(await this.account(accountId));
  }

  /** The onboarding page's answer (its buttons), or a test's. */
  async setConnectedAccountState(accountId: string, state: TestAccountState): Promise<ConnectedAccount> {
    const [row] = await this.db
      .update(testConnectedAccounts)
      .set({ state, updatedAt: new Date() })
      .where(eq(testConnectedAccounts.id, accountId))
      .returning();
    if (!row) throw new PaymentError(msg`No such connected account.`, 'resource_missing', 404);
    await this.announceConnect('account.updated', accountId, accountId);
    return toAccount(row);
  }

  /** The lender disconnects CampusLoop from their account (Stripe: account.application.deauthorized). */
  async deauthorizeAccount(accountId: string): Promise<void> {
    await this.account(accountId);
    await this.announceConnect('account.application.deauthorized', accountId, accountId);
  }

  /**
   * The daily automatic payout (Stripe's default schedule): each account's available balance goes to
   * its bank, paid at once in test mode, each announced as payout.created then payout.paid. Answers
   * the payouts made.
   */
  async payOutBalances(now = new Date()): Promise<BankPayout[]> {
    const { rows } = await this.db.execute<{ destination: string }>(
      sql`select distinct destination from test_transfers`,
    );
    const made: BankPayout[] = [];
    for (const { destination } of rows) {
      const { availableCents } = await this.balance(destination, now);
      if (availableCents <= 0) continue;
      const [row] = await this.db
        .insert(testPayouts)
        .values({ id: newId('po'), destination, amountCents: availableCents, status: 'paid', arrivalAt: now })
        .returning();
      await this.announceConnect('payout.created', destination, row!.id);
      await this.announceConnect('payout.paid', destination, row!.id);
      made.push(toPayout(row!));
    }
    return made;
  }

  async retrievePayout(accountId: string, payoutId: string): Promise<BankPayout> {
    const [row] = await this.db
      .select()
      .from(testPayouts)
      .where(and(eq(testPayouts.id, payoutId), eq(testPayouts.destination, accountId)));
    if (!row) throw new PaymentError(msg`No such payout.`, 'resource_missing', 404);
    return toPayout(row);
  }

  /** Whose account it is (the onboarding page shows an account only to its lender). */
  async ownerOfConnectedAccount(accountId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ userId: testConnectedAccounts.userId })
      .from(testConnectedAccounts)
      .where(eq(testConnectedAccounts.id, accountId));
    return row?.userId ?? null;
  }

  async createAccountLink(args: { accountId: string; refreshUrl: string; returnUrl: string }) {
    await this.account(args.accountId);
    // The app's own onboarding page stands in for Stripe's hosted one; it goes back to return_url.
    const query = new URLSearchParams({
      account: args.accountId,
      return_url: args.returnUrl,
      refresh_url: args.refreshUrl,
    });
    return { url: `/payouts/test/onboarding?${query}`, expiresAt: new Date(Date.now() + 300_000) };
  }

  async createLoginLink(accountId: string): Promise<{ url: string }> {
    await this.account(accountId);
    // The test provider has no Express dashboard: its onboarding page shows the account instead.
    return { url: `/payouts/test/onboarding?${new URLSearchParams({ account: accountId, dashboard: '1' })}` };
  }

  createTransfer(args: {
    amountCents: number;
    currency: string;
    destination: string;
    sourceTransaction: string | null;
    transferGroup: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<Transfer> {
    return this.once(args.idempotencyKey, async () => {
      if (!Number.isInteger(args.amountCents) || args.amountCents <= 0) {
        throw new PaymentError(
          msg`A transfer must be of a positive amount.`,
          'parameter_invalid_integer',
          409,
        );
      }
      const account = toAccount(await this.account(args.destination));
      if (account.transfersCapability !== 'active') {
        throw new PaymentError(
          msg`The lender's account cannot receive transfers yet.`,
          'insufficient_capabilities_for_transfer',
          409,
        );
      }
      if (args.sourceTransaction) {
        const intentId = args.sourceTransaction.replace(/^ch_/, 'pi_');
        const [intent] = await this.db
          .select()
          .from(testPaymentIntents)
          .where(eq(testPaymentIntents.id, intentId));
        if (intent?.status !== 'succeeded') {
          throw new PaymentError(msg`No such charge.`, 'resource_missing', 404);
        }
        // As at Stripe: transfers from a charge never add up to more than the charge.
        const [{ sent }] = (await this.db
          .select({ sent: sql<number>`coalesce(sum(${testTransfers.amountCents}), 0)::int` })
          .from(testTransfers)
          .where(eq(testTransfers.sourceTransaction, args.sourceTransaction))) as [{ sent: number }];
        if (sent + args.amountCents > intent.amountReceivedCents) {
          throw new PaymentError(
            msg`The transfer is larger than what is left of the charge.`,
            'balance_insufficient',
            409,
          );
        }
      }
      const created = new Date();
      const [row] = await this.db
        .insert(testTransfers)
        .values({
          id: newId('tr'),
          amountCents: args.amountCents,
          currency: args.currency,
          destination: args.destination,
          sourceTransaction: args.sourceTransaction,
          transferGroup: args.transferGroup,
          metadata: args.metadata,
          availableAt: new Date(created.getTime() + TRANSFER_PENDING_MS),
          createdAt: created,
        })
        .returning();
      return toTransfer(row!);
    });
  }

  async retrieveTransfer(id: string): Promise<Transfer> {
    const [row] = await this.db.select().from(testTransfers).where(eq(testTransfers.id, id));
    if (!row) throw new PaymentError(msg`No such transfer.`, 'resource_missing', 404);
    return toTransfer(row);
  }

  async listTransfers(transferGroup: string): Promise<Transfer[]> {
    const rows = await this.db
      .select()
      .from(testTransfers)
      .where(eq(testTransfers.transferGroup, transferGroup))
      .orderBy(sql`${testTransfers.createdAt} desc`);
    return rows.map(toTransfer);
  }

  reverseTransfer(transferId: string, amountCents: number, idempotencyKey: string) {
    return this.once(idempotencyKey, async () => {
      const transfer = await this.retrieveTransfer(transferId);
      if (amountCents <= 0 || transfer.amountReversedCents + amountCents > transfer.amountCents) {
        throw new PaymentError(
          msg`The reversal is larger than what is left of the transfer.`,
          'amount_too_large',
          409,
        );
      }
      await this.db
        .update(testTransfers)
        .set({ amountReversedCents: sql`${testTransfers.amountReversedCents} + ${amountCents}` })
        .where(eq(testTransfers.id, transferId));
      return { id: newId('trr'), amountCents };
    });
  }

  async chargeOf(paymentIntentId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ status: testPaymentIntents.status })
      .from(testPaymentIntents)
      .where(eq(testPaymentIntents.id, paymentIntentId));
    return row?.status === 'succeeded' ? chargeIdOf(paymentIntentId) : null;
  }

  async balance(
    accountId?: string,
    now = new Date(),
  ): Promise<{ availableCents: number; pendingCents: number }> {
    if (!accountId) {
      // The platform's: what it received less refunds and transfers (test money is available at once).
      const [{ net }] = (await this.db
        .select({
          net: sql<number>`coalesce(sum(${testPaymentIntents.amountReceivedCents} - ${testPaymentIntents.amountRefundedCents}), 0)::int`,
        })
        .from(testPaymentIntents)) as [{ net: number }];
      const [{ out }] = (await this.db
        .select({
          out: sql<number>`coalesce(sum(${testTransfers.amountCents} - ${testTransfers.amountReversedCents}), 0)::int`,
        })
        .from(testTransfers)) as [{ out: number }];
      return { availableCents: net - out, pendingCents: 0 };
    }
    const [row] = (await this.db
      .select({
        available: sql<number>`coalesce(sum(${testTransfers.amountCents} - ${testTransfers.amountReversedCents}) filter (where ${testTransfers.availableAt} <= ${now.toISOString()}::timestamptz), 0)::int`,
        pending: sql<number>`coalesce(sum(${testTransfers.amountCents} - ${testTransfers.amountReversedCents}) filter (where ${testTransfers.availableAt} > ${now.toISOString()}::timestamptz), 0)::int`,
      })
      .from(testTransfers)
      .where(eq(testTransfers.destination, accountId))) as [{ available: number; pending: number }];
    // What went to the bank left the balance.
    const [{ paid }] = (await this.db
      .select({ paid: sql<number>`coalesce(sum(${testPayouts.amountCents}), 0)::int` })
      .from(testPayouts)
      .where(and(eq(testPayouts.destination, accountId), sql`${testPayouts.status} <> 'failed'`))) as [
      { paid: number },
    ];
    return { availableCents: row.available - paid, pendingCents: row.pending };
  }
}
