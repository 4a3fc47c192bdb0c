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

export type DisputeStatus =
  | 'warning_needs_response'
  | 'warning_under_review'
  | 'warning_closed'
  | 'needs_response'
  | 'under_review'
  | 'won'
  | 'lost'
  | 'prevented';

/** A card dispute (chargeback) as the provider holds it now (Stripe's Dispute). */
export interface Dispute {
  id: string;
  paymentIntentId: string | null;
  amountCents: number;
  currency: string;
  /** The bank's reason: fraudulent, product_not_received, … */
  reason: string;
  status: DisputeStatus;
  evidenceDueBy: Date | null;
  /** Taken from the platform's balance so far: the sum of the dispute's withdrawals. */
  withdrawnCents: number;
  /** Given back so far: the sum of its reinstatements. */
  reinstatedCents: number;
  /** Dispute fees, net of any the provider gave back. */
  feeCents: number;
  /** How many times evidence was submitted. */
  submissionCount: number;
}

/**
 * The text evidence fields of a dispute, named as Stripe names them. Stripe's file fields
 * (customer_communication, service_documentation, …) take uploaded files; CampusLoop sends text only.
 */
export const DISPUTE_EVIDENCE_FIELDS = [
  'product_description',
  'customer_name',
  'customer_email_address',
  'service_date',
  'refund_policy_disclosure',
  'cancellation_policy_disclosure',
  'access_activity_log',
  'uncategorized_text',
] as const;
export type DisputeEvidence = Partial<Record<(typeof DISPUTE_EVIDENCE_FIELDS)[number], string>>;

/** Paying an intent with a customer's saved card. */
export interface SavedCardPayment {
  paymentIntentId: string;
  paymentMethodId: string;
  customerId: string;
  idempotencyKey: string;
}

export interface PaymentProvider extends ConnectProvider {
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
  confirmWithSavedCard(args: SavedCardPayment): Promise<PaymentIntent>;
  /**
   * Authorises an intent off-session with a card the customer saved (decision 062: a booking far ahead,
   * held close to its start with the borrower not present). The bank may refuse: a PaymentError (402)
   * with code AUTHENTICATION_REQUIRED (the borrower must authenticate in person) or a decline code; the
   * intent then stays `requires_payment_method`, and the borrower can confirm it again themselves.
   */
  authoriseOffSession(args: SavedCardPayment): Promise<PaymentIntent>;
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

  /** A dispute as the provider holds it now (a webhook's copy may be stale or out of order). */
  retrieveDispute(id: string): Promise<Dispute>;
  /** Sends the evidence to the bank (Stripe: update the dispute with `submit: true`). */
  submitDisputeEvidence(id: string, evidence: DisputeEvidence, idempotencyKey: string): Promise<Dispute>;
}

// Stripe Connect (decision 056): lenders are paid by separate charges and transfers. The platform is
// the merchant of record: the borrower's card is charged on the platform's account, and the lender's
// share moves to their Express account as a transfer tied to that charge.

/** Where a lender's connected account stands, as the Earnings page and the approval rule read it. */
export type ConnectAccountStatus = 'in_review' | 'action_needed' | 'active' | 'restricted';

/** A connected account as the provider reports it (Stripe's Account object, the fields we act on). */
export interface ConnectedAccount {
  id: string;
  /** The lender finished the onboarding form (details_submitted). */
  detailsSubmitted: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  /** capabilities.transfers: only 'active' may receive transfers. */
  transfersCapability: 'active' | 'inactive' | 'pending' | null;
  /** requirements.currently_due with requirements.past_due, without repeats. */
  requirementsDue: string[];
  /** requirements.disabled_reason, e.g. 'rejected.fraud', 'requirements.past_due'. */
  disabledReason: string | null;
  metadata: Record<string, string>;
}

/**
 * The status a lender sees, derived from the account alone: rejected or deauthorised accounts are
 * restricted; an account that may receive transfers and pay out is active; one with fields due needs
 * action; one whose details are in but not yet verified is in review.
 */
export function connectStatus(account: ConnectedAccount, deauthorised = false): ConnectAccountStatus {
  const reason = account.disabledReason ?? '';
  if (deauthorised || reason.startsWith('rejected') || reason === 'platform_paused') return 'restricted';
  if (account.transfersCapability === 'active' && account.payoutsEnabled && account.detailsSubmitted) {
    return 'active';
  }
  if (account.requirementsDue.length > 0) return 'action_needed';
  return 'in_review';
}

export interface Transfer {
  id: string;
  amountCents: number;
  /** What was taken back of it so far (transfer reversals). */
  amountReversedCents: number;
  currency: string;
  destination: string;
  /** The charge the money came from (source_transaction). */
  sourceTransaction: string | null;
  transferGroup: string | null;
  metadata: Record<string, string>;
  /** ISO time it was made. */
  created: string;
  /**
   * ISO time its money is (or became) available in the lender's balance, when the provider says it
   * with the transfer (the test provider); Stripe's is on the destination's balance transaction.
   */
  availableAt?: string | null;
}

/** A connected account's payout to its bank (Stripe's Payout, the fields we record). */
export interface BankPayout {
  id: string;
  amountCents: number;
  status: 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled';
  /** When it reaches (or reached) the bank. */
  arrivalAt: Date;
  failureMessage: string | null;
}

export interface ConnectProvider {
  /** An Express account for a lender; the same user asking twice (two tabs) gets the same account. */
  createConnectedAccount(args: {
    userId: string;
    email: string;
    country: string;
    idempotencyKey: string;
  }): Promise<ConnectedAccount>;
  retrieveConnectedAccount(accountId: string): Promise<ConnectedAccount>;
  /** A single-use onboarding link (Account Links, type account_onboarding). */
  createAccountLink(args: {
    accountId: string;
    refreshUrl: string;
    returnUrl: string;
  }): Promise<{ url: string; expiresAt: Date }>;
  /** A single-use link into the lender's Express dashboard. */
  createLoginLink(accountId: string): Promise<{ url: string }>;
  createTransfer(args: {
    amountCents: number;
    currency: string;
    destination: string;
    /** The charge the money comes from: the transfer waits for its funds, never the platform's. */
    sourceTransaction: string | null;
    transferGroup: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<Transfer>;
  retrieveTransfer(id: string): Promise<Transfer>;
  /** Every transfer of a group (one booking), newest first: looked up before a transfer is made. */
  listTransfers(transferGroup: string): Promise<Transfer[]>;
  /** Takes back part of a transfer from the lender's account. */
  reverseTransfer(
    transferId: string,
    amountCents: number,
    idempotencyKey: string,
  ): Promise<{ id: string; amountCents: number }>;
  /** The charge behind a captured payment (what a transfer names as its source_transaction). */
  chargeOf(paymentIntentId: string): Promise<string | null>;
  /** A payout of a connected account to its bank, as the provider holds it now (Connect events name one). */
  retrievePayout(accountId: string, payoutId: string): Promise<BankPayout>;
  /** A connected account's balance (or the platform's, without an account): available and pending. */
  balance(accountId?: string): Promise<{ availableCents: number; pendingCents: number }>;
}
