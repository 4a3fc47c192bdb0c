import { textTable } from './text.ts';

// The product's fixed vocabularies and limits (spec §3, §5, §9): one source for server, web and database checks.
// Labels are written in the active language when read (text.ts: no macros in this module).

export const APP_NAME = 'CampusLoop'; // i18n-ignore: brand

export const CATEGORIES = [
  'clothing',
  'tools',
  'books',
  'kitchen',
  'professional',
  'electronics',
  'furniture',
  'other',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const CONDITIONS = ['new', 'like-new', 'good', 'fair', 'worn'] as const;
export type Condition = (typeof CONDITIONS)[number];

export const PICKUP_METHODS = ['meetup', 'locker'] as const;
export type PickupMethod = (typeof PICKUP_METHODS)[number];

/**
 * How an item list is ordered. Without one: a search's best matches first, any other list newest first.
 * Prices are compared as written, whatever the rental period (as the max-price filter does). Here, not
 * beside the list's schema: Browse reads its address with it, and importing the schema module would build
 * every item schema (and bring zod) into the page's first scripts.
 */
export const ITEM_SORTS = ['newest', 'price-low', 'price-high'] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];

export const RENTAL_PERIODS = ['day', 'week', 'month'] as const;
export type RentalPeriod = (typeof RENTAL_PERIODS)[number];

/** Reservation lifecycle (spec §4); 'declined' is what a lender's decline leaves. */
export const RESERVATION_STATUSES = [
  'pending',
  'approved',
  'active',
  // The borrower says it is back and the lender has 48 hours to answer
  // (returned); the lender reported a problem (claimed); the borrower disputed it (disputed).
  'returned',
  'claimed',
  'disputed',
  'completed',
  'cancelled',
  'declined',
] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

export const BILLING_STATUSES = ['completed', 'pending', 'failed', 'refunded'] as const;
export type BillingStatus = (typeof BILLING_STATUSES)[number];

/**
 * What a billing row records: the borrower's payment (held, charged, or released), a refund of
 * charged money (its own row, with the provider's refund id), or the lender's earning.
 */
export const BILLING_KINDS = ['payment', 'refund', 'earning'] as const;
export type BillingKind = (typeof BILLING_KINDS)[number];

/**
 * Why a lender's earning changed (an entry of the append-only earnings history, decision 045): the
 * rental of an approved payment, a cancellation fee, an early return's refund, a deposit kept, the
 * payment given back; 'carried_over' for the figures earnings had before they became a history.
 */
export const EARNING_REASONS = [
  'rental',
  'cancellation_fee',
  'early_return',
  'deposit_kept',
  'cancelled',
  'carried_over',
] as const;
export type EarningReason = (typeof EARNING_REASONS)[number];

/**
 * A card dispute's status, as the provider says (Stripe's Dispute.status). The warning_ ones are
 * inquiries (no money taken yet); won, lost, warning_closed and prevented are closed.
 */
export const DISPUTE_STATUSES = [
  'warning_needs_response',
  'warning_under_review',
  'warning_closed',
  'needs_response',
  'under_review',
  'won',
  'lost',
  'prevented',
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export const CLOSED_DISPUTE_STATUSES: readonly DisputeStatus[] = [
  'warning_closed',
  'won',
  'lost',
  'prevented',
];
/** A moderator's finding on a lost dispute: who bears the loss. */
export const DISPUTE_FINDINGS = ['lender_at_fault', 'platform_bears'] as const;
export type DisputeFinding = (typeof DISPUTE_FINDINGS)[number];
/** Why a lender owes the platform (a receivable entry), or how it was paid back. */
export const RECEIVABLE_REASONS = ['dispute_reversal', 'netted_from_transfer'] as const;
export type ReceivableReason = (typeof RECEIVABLE_REASONS)[number];

/**
 * The journal's chart of accounts (decision 058). provider_cash: money the provider holds for us;
 * borrower: money of a borrower's we hold (deposits, what is still to go back; below zero, what a
 * dispute took back beyond it); lender_payable: what we owe a lender (below zero, what they owe us);
 * platform_fees: what CampusLoop earned.
 */
export const JOURNAL_ACCOUNTS = ['provider_cash', 'borrower', 'lender_payable', 'platform_fees'] as const;
export type JournalAccount = (typeof JOURNAL_ACCOUNTS)[number];

/** What a journal transaction records: one kind per money movement the platform makes. */
export const JOURNAL_KINDS = [
  'capture',
  'refund',
  'release',
  'earning',
  'fee',
  'fee_returned',
  'transfer',
  'transfer_reversal',
  'dispute_withdrawn',
  'dispute_reinstated',
  'lender_charged',
] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

/**
 * What the journal's reconciliation can find wrong with a booking: its figures do not add up, the
 * journal and the billing rows or earning entries disagree, or the journal and the provider disagree.
 */
export const JOURNAL_PROBLEMS = ['does_not_add_up', 'rows_disagree', 'provider_disagrees'] as const;
export type JournalProblem = (typeof JOURNAL_PROBLEMS)[number];

/**
 * The platform's share of a payment (decision 055): the borrower's service fee, and the commission
 * taken from the lender's rental earning. Each change is an entry of the platform's append-only history.
 */
export const PLATFORM_FEE_PARTS = ['service_fee', 'commission'] as const;
export type PlatformFeePart = (typeof PLATFORM_FEE_PARTS)[number];
/** Where a lender's payouts stand (decision 056); 'not_set_up' until they start onboarding. */
export const PAYOUT_ACCOUNT_STATUSES = [
  'not_set_up',
  'in_review',
  'action_needed',
  'active',
  'restricted',
] as const;
export type PayoutAccountStatus = (typeof PAYOUT_ACCOUNT_STATUSES)[number];
/**
 * A transfer to a lender (decision 056): scheduled until its time, waiting while the lender's account
 * cannot receive it, sent, reversed (taken back, wholly or in part), failed (a moderator must look), or
 * cancelled when nothing was left to send.
 */
export const PAYOUT_TRANSFER_STATUSES = [
  'scheduled',
  'waiting_account',
  'sent',
  'reversed',
  'failed',
  'cancelled',
] as const;
export type PayoutTransferStatus = (typeof PAYOUT_TRANSFER_STATUSES)[number];
/**
 * What a transfer pays: the rental no early return can take back (after pickup), the rest of the rental
 * (at return), the part of the deposit the lender keeps (a settled claim).
 */
export const PAYOUT_PURPOSES = ['rental_secured', 'rental_rest', 'deposit_kept'] as const;
export type PayoutPurpose = (typeof PAYOUT_PURPOSES)[number];
/**
 * Why part of a sent transfer is taken back (decision 061): the lender's earning of its payment fell
 * after it went (a refund), or a moderator found the lender at fault for a lost card dispute.
 */
export const PAYOUT_REVERSAL_REASONS = ['refund', 'lender_at_fault'] as const;
export type PayoutReversalReason = (typeof PAYOUT_REVERSAL_REASONS)[number];
/** A reversal's outbox row: waiting for its provider call, made, or refused on every attempt. */
export const PAYOUT_REVERSAL_STATUSES = ['scheduled', 'sent', 'failed'] as const;
/** A lender's bank payout as the provider reports it (Stripe's Payout.status). */
export const BANK_PAYOUT_STATUSES = ['pending', 'in_transit', 'paid', 'failed', 'canceled'] as const;
export type BankPayoutStatus = (typeof BANK_PAYOUT_STATUSES)[number];

/** A call to the card provider that a status change asks for (the payment outbox, decision 012). */
export const PAYMENT_STEP_KINDS = ['authorise', 'capture', 'release', 'refund'] as const;
export type PaymentStepKind = (typeof PAYMENT_STEP_KINDS)[number];
/**
 * pending → running → succeeded, or failed after its retries; superseded when a later change made it
 * moot; waiting: an off-session authorisation the bank refused, until the borrower fixes the card
 * (decision 062), the steps after it waiting behind it.
 */
export const PAYMENT_STEP_STATUSES = [
  'pending',
  'running',
  'succeeded',
  'failed',
  'superseded',
  'waiting',
] as const;
export type PaymentStepStatus = (typeof PAYMENT_STEP_STATUSES)[number];
/** Why a step exists: decides the billing rows its success writes and the words moderators read. */
export const PAYMENT_STEP_PURPOSES = [
  'approval',
  /** A booking far ahead: its saved card authorised off-session close to the start (decision 062). */
  'deferred',
  'decline',
  'cancellation',
  /** A borrower's cancellation of a paid booking that refunds by the item's policy, the lender keeping part. */
  'policy',
  'expiry',
  'overlap',
  'deposit',
  /** What is left of the deposit after a deposit claim (accepted, or decided by a moderator). */
  'claim',
  /** The rental of the full periods an early return leaves unused, by the item's policy (decision 034). */
  'early_return',
  'abandoned',
  'support',
] as const;
export type PaymentStepPurpose = (typeof PAYMENT_STEP_PURPOSES)[number];

export const NOTIFICATION_TYPES = [
  'reservation_request',
  'reservation_approved',
  'reservation_declined',
  'reservation_cancelled',
  'reservation_expired',
  'reservation_started',
  'reservation_completed',
  'deposit_refunded',
  'review_request',
  'review_received',
  'badge_earned',
  'report_update',
  'system',
  // Reminders sent by the clock, not by anyone's action.
  'pickup_reminder',
  'return_reminder',
  'request_expiring',
  // Dates someone waited for are free.
  'waitlist_available',
  // The return's confirmation and the deposit claim, step by step; a late return.
  'return_confirm',
  'deposit_claim',
  'overdue',
  // A borrower asks for more days; the lender answers (or it expires).
  'extension_requested',
  'extension_approved',
  'extension_declined',
  'extension_cancelled',
  // The item came back before the booking's end; the rest of it is freed (and refunded).
  'early_return',
  // The other person added photos or a note of the item's condition at a handover.
  'handover_added',
  // New listings match a search the person saved ("Tell me when something matches").
  'saved_search_match',
  // Money went to the lender's Stripe account (a transfer of their earnings).
  'payout_sent',
  // Ask your campus: a neighbour offers a listing for your ask; an ask matches your listings.
  'ask_offer',
  'ask_match',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * The reminders a borrow sends by the clock, each at most once per reservation: the evening
 * before and the morning of the pickup (both people), of the return (the borrower), and a request's
 * last 12 hours (the lender).
 */
export const REMINDER_KINDS = [
  'pickup_eve',
  'pickup_morning',
  'return_eve',
  'return_morning',
  'request_expiring',
  /** The borrow is past its end date and not returned (both people, once). */
  'overdue',
] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export const REPORT_REASONS = [
  'scam',
  'inappropriate',
  'fake_listing',
  'harassment',
  'spam',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** Spec §5: the Report dialog's labels. */
export const REPORT_REASON_LABELS: Readonly<Record<ReportReason, string>> = textTable({
  scam: /*i18n*/ { id: 'report.reason.scam', message: 'Scam or Fraud' },
  inappropriate: /*i18n*/ { id: 'report.reason.inappropriate', message: 'Inappropriate Content' },
  fake_listing: /*i18n*/ { id: 'report.reason.fake_listing', message: 'Fake Listing' },
  harassment: /*i18n*/ { id: 'report.reason.harassment', message: 'Harassment' },
  spam: /*i18n*/ { id: 'report.reason.spam', message: 'Spam' },
  other: /*i18n*/ { id: 'report.reason.other', message: 'Other' },
});

export const REPORT_STATUSES = ['pending', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** What an admin can do from the moderation queue; each is logged in moderation_actions. */
export const MODERATION_ACTIONS = [
  'note',
  'resolve',
  'dismiss',
  'hide_item',
  'unhide_item',
  'suspend_user',
  'unsuspend_user',
  'hide_ask',
  'unhide_ask',
] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** What a report is about: a listing, an ask on the campus board, or a person (decision 066). */
export const REPORT_TARGETS = ['item', 'ask', 'user'] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

export const REVIEW_TYPES = ['borrower_to_lender', 'lender_to_borrower'] as const;
export type ReviewType = (typeof REVIEW_TYPES)[number];

/**
 * A review stays hidden until the other party has written theirs or this many days have
 * passed since it was written, so neither can answer the other's review in kind.
 */
export const REVIEW_REVEAL_DAYS = 14;

/**
 * Every calendar day the app accepts (item availability, reservation dates, chat paging) lies in these
 * years: enough for any real booking, and nothing the database or date arithmetic chokes on (year 0).
 */
export const CALENDAR_YEARS = { first: 2000, last: 2100 } as const;

export const LIMITS = {
  passwordMin: 6,
  /** argon2 hashes whatever it is given; a cap keeps a megabyte "password" from tying up a core. */
  passwordMax: 200,
  usernameMin: 3,
  usernameMax: 30,
  fullNameMax: 100,
  emailMax: 254,
  descriptionMin: 10,
  messageMax: 1000,
  reportDescriptionMin: 10,
  reportDescriptionMax: 1000,
  /** A moderator's note or decision text. */
  moderationNoteMax: 2000,
  photosPerItem: 5,
  /** A booking is at most this many days (2,299 days at $10,000 overflowed the total). */
  bookingDaysMax: 90,
  /** The most one booking may authorise on a card, rental and deposit together ($20,000). */
  bookingTotalCentsMax: 2_000_000,
  /** Wrong pickup codes a lender may type before the borrower is given a new code. */
  pickupCodeAttempts: 5,
  photoBytes: 5 * 1024 * 1024,
  ratingMin: 1,
  ratingMax: 5,
  reviewCommentMax: 1000,
  minimumAge: 18,
  universitiesDefault: 20,
  universitiesMax: 50,
  dropdownEntries: 5,
} as const;

/** Badge counts above nine read '9+' (spec §9). */
export function badgeCount(n: number): string {
  return n > 9 ? '9+' : String(n);
}

export const CATEGORY_LABELS: Readonly<Record<Category, string>> = textTable({
  clothing: /*i18n*/ { id: 'category.clothing', message: 'Clothing' },
  tools: /*i18n*/ { id: 'category.tools', message: 'Tools' },
  books: /*i18n*/ { id: 'category.books', message: 'Books' },
  kitchen: /*i18n*/ { id: 'category.kitchen', message: 'Kitchen' },
  professional: /*i18n*/ { id: 'category.professional', message: 'Professional' },
  electronics: /*i18n*/ { id: 'category.electronics', message: 'Electronics' },
  furniture: /*i18n*/ { id: 'category.furniture', message: 'Furniture' },
  other: /*i18n*/ { id: 'category.other', message: 'Other' },
});

/** The campus calendar's time zone unless CAMPUS_TIME_ZONE says otherwise (the one the tests run in). */
export const DEFAULT_CAMPUS_TIME_ZONE = 'America/Los_Angeles';

/** Where people write for help (the Contact page's address, and the one account e-mails name). */
export const SUPPORT_EMAIL_ADDRESS = 'support@campusloop.app';
