import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { Notification } from '#shared/schemas/notifications.ts';
import { paths } from '../../paths.ts';

/**
 * Where a notification leads, for the kinds that have somewhere to go (reviews and badges among them); the
 * link's label is shown with `i18n._(label)`. `payoutsNeeded`: a paid request whose lender must set up
 * payouts before approving it (decision 056) leads to "Get paid".
 */
export function notificationLink(
  n: Notification,
  { payoutsNeeded = false }: { payoutsNeeded?: boolean } = {},
): { to: string; label: MessageDescriptor } | null {
  switch (n.type) {
    case 'reservation_request':
      return payoutsNeeded ? { to: paths.getPaid, label: msg`Set up payouts to accept` } : null;
    case 'payout_sent':
      return { to: paths.earnings, label: msg`See your earnings` };
    case 'review_request':
      return n.relatedReservationId
        ? { to: paths.reviewReservation(n.relatedReservationId), label: msg`Leave a review` }
        : null;
    case 'review_received':
      return n.relatedReservationId
        ? { to: paths.reviewReservation(n.relatedReservationId), label: msg`Open reservation` }
        : null;
    case 'waitlist_available':
      // The Reserve dialog starts on the dates the student was told are free (the item page knows them).
      return n.relatedItemId ? { to: paths.reserveItem(n.relatedItemId), label: msg`Reserve now` } : null;
    case 'extension_requested':
    case 'extension_approved':
    case 'extension_declined':
    case 'extension_cancelled':
    // A reminder, a return to confirm, a claim or a late return is acted on from the booking's card (the
    // pickup code, "Ask for more days", the claim's buttons).
    case 'pickup_reminder':
    case 'return_reminder':
    case 'request_expiring':
    case 'return_confirm':
    case 'deposit_claim':
    case 'overdue':
    case 'handover_added':
      // The booking's card, where the lender answers a request for more days and both see the new end date.
      return n.relatedReservationId
        ? { to: paths.reservation(n.relatedReservationId), label: msg`Open reservation` }
        : null;
    case 'saved_search_match':
      // The first listing of the batch; the e-mail links every one.
      return n.relatedItemId ? { to: paths.item(n.relatedItemId), label: msg`See the listing` } : null;
    case 'badge_earned':
      return { to: paths.profile(), label: msg`See your badges` };
    default:
      return null;
  }
}
