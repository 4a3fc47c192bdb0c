import type { NotificationType } from './constants.ts';
import type { EmailKind } from './schemas/account.ts';

// Which settings kind a notification belongs to, so the person's e-mail and push
// choices for that kind decide how it reaches them. Types not named here (new ones too) are 'updates'.
const KIND_OF: Partial<Record<NotificationType, EmailKind>> = {
  reservation_request: 'requests',
  reservation_approved: 'approvals',
  reservation_declined: 'approvals',
  reservation_cancelled: 'approvals',
  reservation_expired: 'approvals',
  pickup_reminder: 'reminders',
  return_reminder: 'reminders',
  request_expiring: 'reminders',
  // The lender is asked to confirm a return, and a claim asks the borrower to answer; an
  // overdue item is a reminder to both. An extension is a request and its answer.
  return_confirm: 'requests',
  deposit_claim: 'requests',
  overdue: 'reminders',
  extension_requested: 'requests',
  extension_approved: 'approvals',
  extension_declined: 'approvals',
  extension_cancelled: 'approvals',
  waitlist_available: 'approvals',
  saved_search_match: 'saved_searches',
  payout_sent: 'payouts',
  // An offer answers the person's own ask; a match tells of a neighbour's, by push and the bell at once
  // and by e-mail only in the day's digest (never more than one e-mail a day about asks).
  ask_offer: 'approvals',
  ask_match: 'asks',
};

/** Notification types never e-mailed one by one: the daily digest tells of them instead. */
export const DIGEST_ONLY_TYPES: readonly NotificationType[] = ['ask_match'];

export function kindOfNotification(type: NotificationType | string): EmailKind {
  return KIND_OF[type as NotificationType] ?? 'updates';
}
