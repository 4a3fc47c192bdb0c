import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { CLAIM_WINDOW_HOURS } from '#shared/booking/deposit-claims.ts';
import { wording } from '../../wordings.ts';
import type { NoticeText } from '../notifications/service.ts';
import { dollars } from './notices.ts';

// The wording of a deposit's end (notices.ts has the rest of a booking's): a lender's claim, the
// borrower's dispute, and the deposit settled by a confirm, the window, an accepted or a decided claim.

// The claim.

export const claimTextForBorrower = wording(
  'deposits.claimTextForBorrower',
  (
    names: { lender: string; item: string },
    problem: string,
    cents: number,
    depositCents: number,
  ): NoticeText => {
    const { lender, item } = names;
    const claimed = dollars(cents);
    const deposit = dollars(depositCents);
    return {
      title: msg`Deposit claim`,
      message: msg`${lender} reported a problem with ${item}: "${problem}". They claim ${claimed} of your ${deposit} deposit. Accept it or dispute it in My Reservations.`,
    };
  },
);

export const claimTextForLender = wording(
  'deposits.claimTextForLender',
  (names: { borrower: string; item: string }, cents: number): NoticeText => {
    const { borrower, item } = names;
    const claimed = dollars(cents);
    return {
      title: msg`Claim sent`,
      message: msg`Your claim of ${claimed} for ${item} was sent to ${borrower}, who can accept or dispute it.`,
    };
  },
);

export const disputeTextForLender = wording(
  'deposits.disputeTextForLender',
  (names: { borrower: string; item: string }, note: string, claimCents: number): NoticeText => {
    const { borrower, item } = names;
    const claimed = dollars(claimCents);
    return {
      title: msg`Claim disputed`,
      message: msg`${borrower} disputed your ${claimed} claim for ${item}: "${note}". A moderator will decide and tell you both.`,
    };
  },
);

export const disputeTextForBorrower = wording(
  'deposits.disputeTextForBorrower',
  (item: string, claimCents: number): NoticeText => {
    const claimed = dollars(claimCents);
    return {
      title: msg`Dispute sent`,
      message: msg`Your dispute of the ${claimed} claim for ${item} went to our moderators. They will decide and tell you both.`,
    };
  },
);

// The deposit settled.

/** How a deposit was settled: the lender's confirm, the window closing, an accepted or a decided claim. */
export type Settlement =
  | { keptCents: 0; how: 'confirmed' | 'window' }
  | { keptCents: number; how: 'accepted' }
  | { keptCents: number; how: 'decided'; moderatorId: string; note: string | null };

/** The amounts of a settlement: what the lender keeps, what comes back, and whether a deposit was paid. */
export interface SettledAmounts {
  depositCents: number;
  claimCents: number | null;
  kept: number;
  back: number;
  paid: boolean;
}

export const keptEarningWords = wording(
  'deposits.keptEarningWords',
  (names: { title: string; borrower: string }, kept: number): MessageDescriptor => {
    const { title, borrower } = names;
    const keptAmount = dollars(kept);
    return msg`Earning: ${title} lent to ${borrower}, with ${keptAmount} of the deposit for the reported problem`;
  },
);

export const depositRefundWords = wording(
  'deposits.depositRefundWords',
  (title: string, amounts: SettledAmounts): MessageDescriptor => {
    const { kept, back } = amounts;
    if (kept === 0) return msg`Deposit refund for ${title}`;
    const backAmount = dollars(back);
    const deposit = dollars(amounts.depositCents);
    const keptAmount = dollars(kept);
    return msg`Deposit refund for ${title}: ${backAmount} of ${deposit}, ${keptAmount} kept for the reported problem`;
  },
);

export const settledText = wording(
  'deposits.settledText',
  (
    how: Settlement,
    names: { title: string; borrower: string; lender: string },
    amounts: SettledAmounts,
  ): NoticeText => {
    const { title, borrower, lender } = names;
    const { kept, back, paid } = amounts;
    const claimed = how.how === 'accepted' || how.how === 'decided';
    const note = how.how === 'decided' ? how.note : null;
    /** What happened, the first sentence of both notices (in the recipient's language). */
    const leadText = (): MessageDescriptor => {
      if (how.how === 'confirmed') return msg`${lender} confirmed ${title} came back in good condition.`;
      if (how.how === 'window') {
        const hours = CLAIM_WINDOW_HOURS;
        return msg`No problem was reported within ${hours} hours of the return of ${title}.`;
      }
      if (how.how === 'accepted') return msg`${borrower} accepted the claim for ${title}.`;
      const keptAmount = dollars(kept);
      const claimedAmount = dollars(amounts.claimCents ?? 0);
      return note
        ? msg`A moderator decided the disputed claim for ${title}: the lender keeps ${keptAmount} of the ${claimedAmount} claimed. Note: ${note}`
        : msg`A moderator decided the disputed claim for ${title}: the lender keeps ${keptAmount} of the ${claimedAmount} claimed.`;
    };
    /** Where the deposit goes, the second sentence (none when there was no deposit paid). */
    const moneyText = (): MessageDescriptor | null => {
      if (!paid) return null;
      const deposit = dollars(amounts.depositCents);
      if (back === 0) return msg`The lender keeps the whole ${deposit} deposit.`;
      if (kept > 0) {
        const backAmount = dollars(back);
        const keptAmount = dollars(kept);
        return msg`${backAmount} of the ${deposit} deposit goes back to the borrower's card; the lender keeps ${keptAmount}.`;
      }
      return msg`The ${deposit} deposit goes back to the borrower's card.`;
    };
    // The notice's sentences are whole messages; this one puts them in order and thanks.
    const lead = i18n._(leadText());
    const moneyMessage = moneyText();
    const money = moneyMessage ? i18n._(moneyMessage) : null;
    return {
      title: claimed ? msg`Claim settled` : msg`Item returned`,
      message: money ? msg`${lead} ${money} Thanks for sharing!` : msg`${lead} Thanks for sharing!`,
    };
  },
);

export const depositRefundedText = wording(
  'deposits.depositRefundedText',
  (title: string, amounts: SettledAmounts): NoticeText => {
    const deposit = dollars(amounts.depositCents);
    const backAmount = dollars(amounts.back);
    return {
      title: msg`Deposit refunded`,
      message:
        amounts.kept > 0
          ? msg`${backAmount} of your ${deposit} deposit for ${title} is on its way back to your card.`
          : msg`Your ${deposit} deposit for ${title} is on its way back to your card.`,
    };
  },
);
