import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { AUTHORISATION_ANSWER_DAYS } from '#shared/booking/booking-deadlines.ts';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import { formatDayLabel } from '#shared/format.ts';
import { campusMomentWritten } from '../../../booking-words.ts';
import { only, wording } from '../../../wordings.ts';
import type { NoticeText } from '../../notifications/service.ts';

// Every notification and billing wording of a request for more days (decision 031). Each is called when
// it is written, in its reader's language, so days and amounts are formatted inside.

const dollars = (cents: number) => `$${centsToDecimal(cents)}`;
const HELD_DAYS = AUTHORISATION_ANSWER_DAYS;

interface Asked {
  newEndDate: string;
  rentalCents: number;
  paymentIntentId: string | null;
}

/** A wording's `keep`: of the request for more days (a whole row), only what the words read. */
const keepAsked = <A extends unknown[]>(...args: A): A =>
  args.map((arg) =>
    arg && typeof arg === 'object' && 'newEndDate' in arg
      ? only(arg as Asked, 'newEndDate', 'rentalCents', 'paymentIntentId')
      : arg,
  ) as A;

export const requestedTextForLender = wording(
  'extensions.requestedTextForLender',
  (names: { who: string; item: string }, ext: Asked, previousEndDate: string): NoticeText => {
    const { who, item } = names;
    const until = formatDayLabel(ext.newEndDate);
    const end = formatDayLabel(previousEndDate);
    const extra = dollars(ext.rentalCents);
    return {
      title: msg`More days requested`,
      message: ext.rentalCents
        ? msg`${who} asks to keep ${item} until ${until} instead of ${end} for ${extra} more. Please answer by the end of ${end}.`
        : msg`${who} asks to keep ${item} until ${until} instead of ${end}. Please answer by the end of ${end}.`,
    };
  },
  keepAsked,
);

export const requestedTextForBorrower = wording(
  'extensions.requestedTextForBorrower',
  (names: { lender: string; item: string }, ext: Asked): NoticeText => {
    const { lender, item } = names;
    const until = formatDayLabel(ext.newEndDate);
    const extra = dollars(ext.rentalCents);
    return {
      title: msg`More days requested`,
      message: ext.rentalCents
        ? msg`You asked ${lender} to keep ${item} until ${until}. ${extra} is held on your card and charged only if they approve.`
        : msg`You asked ${lender} to keep ${item} until ${until}.`,
    };
  },
  keepAsked,
);

export const paymentAuthorisedWords = wording(
  'extensions.paymentAuthorisedWords',
  (item: string, newEndDate: string): MessageDescriptor => {
    const until = formatDayLabel(newEndDate);
    return msg`Payment authorised for ${item} (extended to ${until})`;
  },
);

export const approvedTextForBorrower = wording(
  'extensions.approvedTextForBorrower',
  (lenderName: string, item: string, ext: Asked): NoticeText => {
    const until = formatDayLabel(ext.newEndDate);
    const extraAmount = dollars(ext.rentalCents);
    return {
      title: msg`More days approved`,
      message: ext.rentalCents
        ? msg`${lenderName} approved: keep ${item} until ${until}. Your card is charged ${extraAmount} now.`
        : msg`${lenderName} approved: keep ${item} until ${until}.`,
    };
  },
  keepAsked,
);

export const approvedTextForLender = wording(
  'extensions.approvedTextForLender',
  (borrower: string, item: string, ext: Asked): NoticeText => {
    const until = formatDayLabel(ext.newEndDate);
    const extraAmount = dollars(ext.rentalCents);
    return {
      title: msg`More days approved`,
      message: ext.rentalCents
        ? msg`${borrower} now returns ${item} on ${until}. You earn ${extraAmount} more.`
        : msg`${borrower} now returns ${item} on ${until}.`,
    };
  },
  keepAsked,
);

export const paymentWords = wording(
  'extensions.paymentWords',
  (item: string, newEndDate: string): MessageDescriptor => {
    const until = formatDayLabel(newEndDate);
    return msg`Payment for ${item} (extended to ${until})`;
  },
);

export const earningWords = wording(
  'extensions.earningWords',
  (item: string, borrower: string, newEndDate: string): MessageDescriptor => {
    const until = formatDayLabel(newEndDate);
    return msg`Earning: ${item} (extended to ${until}) lent to ${borrower}`;
  },
);

export const declinedText = wording(
  'extensions.declinedText',
  (lender: string, item: string, endDate: string, ext: Asked): NoticeText => {
    const due = formatDayLabel(endDate);
    return {
      title: msg`More days declined`,
      message: ext.paymentIntentId
        ? msg`${lender} declined more days for ${item}: it is still due back on ${due}. The hold on your card was released.`
        : msg`${lender} declined more days for ${item}: it is still due back on ${due}.`,
    };
  },
  keepAsked,
);

export const cancelledText = wording(
  'extensions.cancelledText',
  (borrower: string, item: string, ext: Asked): NoticeText => {
    const until = formatDayLabel(ext.newEndDate);
    return {
      title: msg`More days no longer needed`,
      message: msg`${borrower} took back the request to keep ${item} until ${until}.`,
    };
  },
  keepAsked,
);

/** `held`: unanswered while the card was held as long as an authorisation is kept (decision 057). */
export const expiredTextForBorrower = wording(
  'extensions.expiredTextForBorrower',
  (lender: string, item: string, ext: Asked, held = false): NoticeText => {
    const until = formatDayLabel(ext.newEndDate);
    if (held) {
      return {
        title: msg`Request for more days expired`,
        message: msg`${lender} did not answer your request to keep ${item} until ${until} within ${HELD_DAYS} days, the longest your card is held for a request. The hold on your card was released; you can ask again.`,
      };
    }
    return {
      title: msg`Request for more days expired`,
      message: ext.paymentIntentId
        ? msg`${lender} did not answer your request to keep ${item} until ${until}. The hold on your card was released.`
        : msg`${lender} did not answer your request to keep ${item} until ${until}.`,
    };
  },
  keepAsked,
);

export const expiredTextForLender = wording(
  'extensions.expiredTextForLender',
  (borrower: string, item: string, held = false): NoticeText => {
    return {
      title: msg`Request for more days expired`,
      message: held
        ? msg`${borrower}'s request for more days with ${item} ended unanswered: a card is held for a request for ${HELD_DAYS} days at most.`
        : msg`${borrower}'s request for more days with ${item} expired unanswered.`,
    };
  },
);

/** Another booking was approved for the days this request wanted. */
export const overlapDeclinedText = wording(
  'extensions.overlapDeclinedText',
  (item: string | undefined, ext: Asked): NoticeText => {
    const until = formatDayLabel(ext.newEndDate);
    const title = msg`More days declined`;
    if (!item) {
      return {
        title,
        message: ext.paymentIntentId
          ? msg`Your request to keep the item until ${until} was declined: those days were booked by someone else. The hold on your card was released.`
          : msg`Your request to keep the item until ${until} was declined: those days were booked by someone else.`,
      };
    }
    return {
      title,
      message: ext.paymentIntentId
        ? msg`Your request to keep ${item} until ${until} was declined: those days were booked by someone else. The hold on your card was released.`
        : msg`Your request to keep ${item} until ${until} was declined: those days were booked by someone else.`,
    };
  },
  keepAsked,
);

export const cancelledRefundWords = wording(
  'extensions.cancelledRefundWords',
  (newEndDate: string): MessageDescriptor => {
    const until = formatDayLabel(newEndDate);
    return msg`Refund of the extra days (to ${until}) of a cancelled booking`;
  },
);

/** The lender's reminder that a request for more days lapses soon unless they answer it (decision 057). */
export const lapsingTextForLender = wording(
  'extensions.lapsingTextForLender',
  (borrower: string, item: string, ext: Asked, lapsesAt: Date, timeZone: string): NoticeText => {
    const until = formatDayLabel(ext.newEndDate);
    const at = campusMomentWritten(lapsesAt, timeZone);
    return {
      title: msg`Request for more days expires soon`,
      message: msg`${borrower}'s request to keep ${item} until ${until} expires ${at} unless you approve or decline it.`,
    };
  },
  keepAsked,
);
