import { msg } from '@lingui/core/macro';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import { wording } from '../../wordings.ts';
import type { NoticeText } from '../notifications/service.ts';

// What moderators and lenders are told of a card dispute (decision 059), registered so each reader
// reads it again in their own language (decision 052).

const dollars = (cents: number) => `$${centsToDecimal(cents)}`;

export const disputeOpenedText = wording(
  'disputes.opened',
  (names: { item: string }, amountCents: number, reason: string, dueBy: string | null): NoticeText => {
    const { item } = names;
    const amount = dollars(amountCents);
    return {
      title: msg`Card dispute`,
      message: dueBy
        ? msg`The borrower's bank disputed the ${amount} card payment for ${item} (${reason}). Send the evidence from Payments by ${dueBy}.`
        : msg`The borrower's bank disputed the ${amount} card payment for ${item} (${reason}). Review it in Payments.`,
    };
  },
);

export const disputeLostText = wording(
  'disputes.lost',
  (names: { item: string }, amountCents: number): NoticeText => {
    const { item } = names;
    const amount = dollars(amountCents);
    return {
      title: msg`Card dispute lost`,
      message: msg`The bank decided the ${amount} card dispute for ${item} for the cardholder. Decide in Payments who bears the loss.`,
    };
  },
);

export const lenderAtFaultText = wording(
  'disputes.lenderAtFault',
  (names: { item: string }, reversalCents: number): NoticeText => {
    const { item } = names;
    const amount = dollars(reversalCents);
    return {
      title: msg`Card dispute decided`,
      message: msg`The borrower's bank took back the card payment for ${item}, and our moderators found the lending was at fault: ${amount} of your earning is taken back.`,
    };
  },
);
