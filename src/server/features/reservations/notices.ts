import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { AUTHORISATION_ANSWER_DAYS } from '#shared/booking/booking-deadlines.ts';
import { centsToDecimal, heldCents } from '#shared/booking/pricing.ts';
import { proportionBack } from '#shared/booking/service-fee.ts';
import { LIMITS } from '#shared/constants.ts';
import { formatDayLabel } from '#shared/format.ts';
import { campusMomentWritten, daysOf, policyName } from '../../booking-words.ts';
import { only, wording } from '../../wordings.ts';
import type { NoticeText } from '../notifications/service.ts';

// Every notification and billing wording of a booking's transitions (deposit-notices.ts has a claim's and a
// settlement's, extensions/notices.ts a request for more days'). Each is called when it is written, in its
// reader's language, so days and amounts are formatted inside. The transitions decide what happens;
// these only say it.

type Days = { startDate: string; endDate: string };

/** A wording's `keep`: of a booking's row given for its days, only the days. */
const keepDays = <A extends unknown[]>(...args: A): unknown[] =>
  args.map((arg) =>
    arg && typeof arg === 'object' && 'startDate' in arg && 'endDate' in arg
      ? only(arg as Days, 'startDate', 'endDate')
      : arg,
  );

export const dollars = (cents: number) => `$${centsToDecimal(cents)}`;

// The request.

export const requestedText = wording(
  'reservations.requestedText',
  (who: string, title: string, days: Days): NoticeText => {
    const { start, end } = daysOf(days);
    return {
      title: msg`New reservation request`,
      message: msg`${who} wants to borrow ${title} from ${start} to ${end}.`,
    };
  },
  keepDays,
);

export const paymentAuthorisedWords = wording(
  'reservations.paymentAuthorisedWords',
  (title: string, days: Days): MessageDescriptor => {
    const { start, end } = daysOf(days);
    return msg`Payment authorised for ${title} (${start} to ${end})`;
  },
  keepDays,
);

// The answer.

/**
 * The approval notice, with what approval does to the borrower's card: the whole authorised amount is
 * captured now, the deposit in it comes back on return.
 */
export const approvedText = wording(
  'reservations.approvedText',
  (
    row: {
      stripePaymentIntentId: string | null;
      depositCents: number;
      rentalCents: number;
      /** Absent from notices written before the service fee (decision 055): none then. */
      serviceFeeCents?: number;
      /** Decision 062: a booking far ahead whose saved card is not held yet, and when it is charged. */
      chargeOn?: string | null;
    } & Days,
    names: { lender: string; item: string },
  ): NoticeText => {
    const { lender, item } = names;
    const { start, end } = daysOf(row);
    const title = msg`Reservation approved`;
    if (row.stripePaymentIntentId && row.chargeOn) {
      const total = dollars(heldCents({ ...row, serviceFeeCents: row.serviceFeeCents ?? 0 }));
      const on = formatDayLabel(row.chargeOn);
      return {
        title,
        message: msg`${lender} approved your request for ${item} (${start} to ${end}). Your saved card is charged ${total} on ${on}, a few days before the start. Your pickup code is in My Reservations.`,
      };
    }
    if (!row.stripePaymentIntentId) {
      return {
        title,
        message: msg`${lender} approved your request for ${item} (${start} to ${end}). Your pickup code is in My Reservations.`,
      };
    }
    const serviceFeeCents = row.serviceFeeCents ?? 0;
    const total = dollars(heldCents({ ...row, serviceFeeCents }));
    if (!row.depositCents) {
      return {
        title,
        message: msg`${lender} approved your request for ${item} (${start} to ${end}). Your card is charged ${total} now. Your pickup code is in My Reservations.`,
      };
    }
    const rental = dollars(row.rentalCents);
    const deposit = dollars(row.depositCents);
    if (serviceFeeCents > 0) {
      const fee = dollars(serviceFeeCents);
      return {
        title,
        message: msg`${lender} approved your request for ${item} (${start} to ${end}). Your card is charged ${total} now: ${rental} rental, a ${fee} service fee and a ${deposit} deposit that is refunded when you return the item. Your pickup code is in My Reservations.`,
      };
    }
    return {
      title,
      message: msg`${lender} approved your request for ${item} (${start} to ${end}). Your card is charged ${total} now: ${rental} rental and a ${deposit} deposit that is refunded when you return the item. Your pickup code is in My Reservations.`,
    };
  },
  (row, names) => [
    only(
      { serviceFeeCents: 0, ...row },
      'startDate',
      'endDate',
      'stripePaymentIntentId',
      'depositCents',
      'rentalCents',
      'serviceFeeCents',
      'chargeOn',
    ),
    names,
  ],
);

export const paymentWords = wording(
  'reservations.paymentWords',
  (title: string, days: Days): MessageDescriptor => {
    const { start, end } = daysOf(days);
    return msg`Payment for ${title} (${start} to ${end})`;
  },
  keepDays,
);

export const earningWords = wording(
  'reservations.earningWords',
  (title: string, borrower: string): MessageDescriptor => msg`Earning: ${title} lent to ${borrower}`,
);

export const declinedText = wording(
  'reservations.declinedText',
  (
    row: Days,
    names: { lender: string; item: string },
    why: string | undefined,
    paid: boolean,
  ): NoticeText => {
    const { lender, item } = names;
    const { start, end } = daysOf(row);
    const title = msg`Reservation declined`;
    if (why) {
      return {
        title,
        message: paid
          ? msg`${lender} declined your request for ${item} (${start} to ${end}). Reason: ${why} Your payment was released.`
          : msg`${lender} declined your request for ${item} (${start} to ${end}). Reason: ${why}`,
      };
    }
    return {
      title,
      message: paid
        ? msg`${lender} declined your request for ${item} (${start} to ${end}). Your payment was released.`
        : msg`${lender} declined your request for ${item} (${start} to ${end}).`,
    };
  },
  (row, ...rest) => [only(row, 'startDate', 'endDate'), ...rest],
);

/**
 * Why a pending request ended on its own: unanswered in time, its authorisation cancelled by the
 * provider, or its card held as long as an authorisation is kept (decision 057).
 */
export type ExpiryReason = 'unanswered' | 'authorisation' | 'held';

const HELD_DAYS = AUTHORISATION_ANSWER_DAYS;

export const expiredReasonWords = (why: ExpiryReason): MessageDescriptor =>
  why === 'unanswered'
    ? msg`The request expired before the lender answered.`
    : why === 'held'
      ? msg`The lender did not answer within ${HELD_DAYS} days, the longest a card is held for a request.`
      : msg`The card authorisation expired before the lender answered.`;

export const expiredTextForBorrower = wording(
  'reservations.expiredTextForBorrower',
  (
    row: Days & { stripePaymentIntentId: string | null },
    names: { item: string; lender: string },
    why: ExpiryReason,
  ): NoticeText => {
    const { item, lender } = names;
    const title = msg`Reservation request expired`;
    const { start, end } = daysOf(row);
    if (why === 'authorisation') {
      return {
        title,
        message: msg`Your request for ${item} (${start} to ${end}) ended because the card authorisation expired. Nothing was charged; you can request it again.`,
      };
    }
    if (why === 'held') {
      return {
        title,
        message: msg`${lender} did not answer your request for ${item} (${start} to ${end}) within ${HELD_DAYS} days, the longest your card is held for a request. Nothing was charged and the hold was released; you can request it again.`,
      };
    }
    return {
      title,
      message: row.stripePaymentIntentId
        ? msg`Your request for ${item} (${start} to ${end}) expired before ${lender} answered. Your payment was released.`
        : msg`Your request for ${item} (${start} to ${end}) expired before ${lender} answered.`,
    };
  },
  (row, ...rest) => [only(row, 'startDate', 'endDate', 'stripePaymentIntentId'), ...rest],
);

export const expiredTextForLender = wording(
  'reservations.expiredTextForLender',
  (row: Days, names: { item: string; borrower: string }, why: ExpiryReason): NoticeText => {
    const { item, borrower } = names;
    const title = msg`Reservation request expired`;
    const { start, end } = daysOf(row);
    return {
      title,
      message:
        why === 'unanswered'
          ? msg`${borrower}'s request for ${item} (${start} to ${end}) expired without an answer.`
          : why === 'held'
            ? msg`${borrower}'s request for ${item} (${start} to ${end}) ended unanswered: a card is held for a request for ${HELD_DAYS} days at most.`
            : msg`${borrower}'s request for ${item} (${start} to ${end}) ended because the card authorisation expired.`,
    };
  },
  (row, ...rest) => [only(row, 'startDate', 'endDate'), ...rest],
);

// The pickup.

export const startedText = wording(
  'reservations.startedText',
  (endDate: string, byBorrower: boolean, actor: string, item: string): NoticeText => {
    const due = formatDayLabel(endDate);
    return {
      title: byBorrower ? msg`Item picked up` : msg`Item collected`,
      message: msg`${actor} marked ${item} as handed over. It is due back on ${due}.`,
    };
  },
);

export const newPickupCodeText = wording('reservations.newPickupCodeText', (item: string): NoticeText => {
  const times = LIMITS.pickupCodeAttempts;
  return {
    title: msg`New pickup code`,
    message: msg`A wrong pickup code for ${item} was typed ${times} times, so your code was changed. Show the new one in My Reservations at the meetup.`,
  };
});

// The return.

export const returnedTextForLender = wording(
  'reservations.returnedTextForLender',
  (
    confirmByAt: Date,
    timeZone: string,
    names: { borrower: string; item: string },
    depositCents: number,
  ): NoticeText => {
    const { borrower, item } = names;
    const by = campusMomentWritten(confirmByAt, timeZone);
    const deposit = dollars(depositCents);
    return {
      title: msg`Confirm the return`,
      message: depositCents
        ? msg`${borrower} says ${item} is back. Confirm it came back in good condition, or report a problem by ${by}. With no answer by then, the ${deposit} deposit goes back to them.`
        : msg`${borrower} says ${item} is back. Confirm it came back in good condition, or report a problem by ${by}.`,
    };
  },
);

export const returnedTextForBorrower = wording(
  'reservations.returnedTextForBorrower',
  (
    confirmByAt: Date,
    timeZone: string,
    names: { lender: string; item: string },
    depositCents: number,
  ): NoticeText => {
    const { lender, item } = names;
    const by = campusMomentWritten(confirmByAt, timeZone);
    const deposit = dollars(depositCents);
    return {
      title: msg`Return noted`,
      message: depositCents
        ? msg`${lender} has until ${by} to confirm ${item} came back in good condition. Your ${deposit} deposit comes back then at the latest, unless they report a problem.`
        : msg`${lender} has until ${by} to confirm ${item} came back in good condition.`,
    };
  },
);

/** The new last day and the booked one of an early return, in the active language. */
function earlyDays(early: { newEndDate: string }, bookedEndDate: string) {
  return { newEnd: formatDayLabel(early.newEndDate), bookedEnd: formatDayLabel(bookedEndDate) };
}

export const earlyEarningWords = wording(
  'reservations.earlyEarningWords',
  (
    names: { title: string; borrower: string },
    early: { newEndDate: string },
    bookedEndDate: string,
    cents: number,
  ): MessageDescriptor => {
    const { title, borrower } = names;
    const { newEnd, bookedEnd } = earlyDays(early, bookedEndDate);
    const amount = dollars(cents);
    return msg`Earning: ${title} lent to ${borrower}, returned early (${newEnd} instead of ${bookedEnd}), ${amount} of the rental refunded`;
  },
);

export const earlyRefundWords = wording(
  'reservations.earlyRefundWords',
  (
    title: string,
    early: { newEndDate: string },
    bookedEndDate: string,
    cancellationPolicy: string,
  ): MessageDescriptor => {
    const { newEnd, bookedEnd } = earlyDays(early, bookedEndDate);
    const policy = policyName(cancellationPolicy);
    return msg`Rental refund for ${title}: returned early (${newEnd} instead of ${bookedEnd}), ${policy} policy`;
  },
);

export const earlyReturnText = wording(
  'reservations.earlyReturnText',
  (
    toBorrower: boolean,
    names: { title: string; borrower: string },
    early: { newEndDate: string; refundCents: number; unusedRentalCents: number },
    bookedEndDate: string,
    cancellationPolicy: string,
  ): NoticeText => {
    const { title, borrower } = names;
    const { newEnd, bookedEnd } = earlyDays(early, bookedEndDate);
    const policy = policyName(cancellationPolicy);
    const amount = dollars(early.refundCents);
    const heading = msg`Returned early`;
    if (early.refundCents > 0) {
      return {
        title: heading,
        message: toBorrower
          ? msg`You returned ${title} early: your booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book. By the item's ${policy} policy, ${amount} of the rental for the unused days goes back to the borrower's card.`
          : msg`${borrower} returned ${title} early: the booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book. By the item's ${policy} policy, ${amount} of the rental for the unused days goes back to the borrower's card.`,
      };
    }
    if (early.unusedRentalCents > 0) {
      return {
        title: heading,
        message: toBorrower
          ? msg`You returned ${title} early: your booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book. By the item's ${policy} policy, the rental of the unused days is not refunded.`
          : msg`${borrower} returned ${title} early: the booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book. By the item's ${policy} policy, the rental of the unused days is not refunded.`,
      };
    }
    return {
      title: heading,
      message: toBorrower
        ? msg`You returned ${title} early: your booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book.`
        : msg`${borrower} returned ${title} early: the booking now ends ${newEnd} instead of ${bookedEnd}. The days after it are free for others to book.`,
    };
  },
);

// The cancellation.

export const cancelledText = wording(
  'reservations.cancelledText',
  (
    row: Days & {
      stripePaymentIntentId: string | null;
      depositCents: number;
      rentalCents: number;
      /** Absent from notices written before the service fee (decision 055): none then. */
      serviceFeeCents?: number;
    },
    names: { actor: string; item: string },
    wasApproved: boolean,
    keptCents: number,
    cancellationPolicy: string,
  ): NoticeText => {
    const { actor, item } = names;
    const { start, end } = daysOf(row);
    const title = msg`Reservation cancelled`;
    if (!row.stripePaymentIntentId) {
      return {
        title,
        message: msg`${actor} cancelled the reservation of ${item} (${start} to ${end}).`,
      };
    }
    if (!wasApproved) {
      return {
        title,
        message: msg`${actor} cancelled the reservation of ${item} (${start} to ${end}). The payment was released.`,
      };
    }
    if (keptCents) {
      const policy = policyName(cancellationPolicy);
      // The fee comes back in the proportion the rental does (service-fee.ts); the rest of it is kept.
      const serviceFeeCents = row.serviceFeeCents ?? 0;
      const feeBack = proportionBack(serviceFeeCents, row.rentalCents - keptCents, row.rentalCents);
      const refunded = dollars(row.depositCents + row.rentalCents - keptCents + feeBack);
      const kept = dollars(keptCents);
      return {
        title,
        message: msg`${actor} cancelled the reservation of ${item} (${start} to ${end}). By the item's ${policy} cancellation policy, ${refunded} is refunded and the lender keeps ${kept} of the rental.`,
      };
    }
    const total = dollars(heldCents({ ...row, serviceFeeCents: row.serviceFeeCents ?? 0 }));
    return {
      title,
      message: msg`${actor} cancelled the reservation of ${item} (${start} to ${end}). The full ${total} is refunded.`,
    };
  },
  (row, ...rest) => [
    only(
      { serviceFeeCents: 0, ...row },
      'startDate',
      'endDate',
      'stripePaymentIntentId',
      'depositCents',
      'rentalCents',
      'serviceFeeCents',
    ),
    ...rest,
  ],
);

export const cancellationFeeWords = wording(
  'reservations.cancellationFeeWords',
  (item: string, days: Days, cancellationPolicy: string): MessageDescriptor => {
    const { start, end } = daysOf(days);
    const policy = policyName(cancellationPolicy);
    return msg`Cancellation fee: ${item} (${start} to ${end}), ${policy} policy`;
  },
  keepDays,
);

export const policyRefundWords = wording(
  'reservations.policyRefundWords',
  (item: string, days: Days, cancellationPolicy: string): MessageDescriptor => {
    const { start, end } = daysOf(days);
    const policy = policyName(cancellationPolicy);
    return msg`Refund for the cancelled reservation of ${item} (${start} to ${end}): ${policy} policy`;
  },
  keepDays,
);

export const cancelledRefundWords = wording(
  'reservations.cancelledRefundWords',
  (item: string, days: Days): MessageDescriptor => {
    const { start, end } = daysOf(days);
    return msg`Refund for the cancelled reservation of ${item} (${start} to ${end})`;
  },
  keepDays,
);

// Decision 062: a booking far ahead whose card could not be held close to the start.

export const unpaidTextForBorrower = wording(
  'reservations.unpaidTextForBorrower',
  (row: Days, item: string): NoticeText => {
    const { start, end } = daysOf(row);
    return {
      title: msg`Booking cancelled`,
      message: msg`Your booking of ${item} (${start} to ${end}) was cancelled: your card could not be held and was not fixed in time. Nothing was charged.`,
    };
  },
  (row, ...rest) => [only(row, 'startDate', 'endDate'), ...rest],
);

export const unpaidTextForLender = wording(
  'reservations.unpaidTextForLender',
  (row: Days, names: { item: string; borrower: string }): NoticeText => {
    const { item, borrower } = names;
    const { start, end } = daysOf(row);
    return {
      title: msg`Booking cancelled`,
      message: msg`The booking of ${item} by ${borrower} (${start} to ${end}) was cancelled: their card could not be charged. Those days are free again.`,
    };
  },
  (row, ...rest) => [only(row, 'startDate', 'endDate'), ...rest],
);

export const unpaidReasonWords = (): MessageDescriptor =>
  msg`The card could not be held before the start and was not fixed in time.`;
