import { t } from '@lingui/core/macro';
import { heldCents, toCents } from '#shared/booking/pricing.ts';
import { formatMoney } from '#shared/format.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { dateTime } from './dates.ts';

// What the money does, in the words the screens use (decision 025). The flow they describe
// (the money plan of src/shared/booking/money-plan.ts, decisions 012 and 044): at the request the whole total is authorised (held on the
// card, nothing charged); the lender's approval captures all of it (rental, service fee and deposit,
// decision 055); the deposit is
// refunded when the item comes back; a decline, cancellation or expiry before approval releases the
// hold. The server's approval notice says the same (approvedText in reservations/notices.ts).

export interface Amounts {
  rentalCents: number;
  /** The borrower's service fee on the rental (decision 055). */
  serviceFeeCents: number;
  depositCents: number;
}

export const amountsOf = (
  r: Pick<Reservation, 'rentalAmount' | 'depositAmount' | 'serviceFeeAmount'>,
): Amounts => ({
  rentalCents: toCents(r.rentalAmount) ?? 0,
  serviceFeeCents: toCents(r.serviceFeeAmount) ?? 0,
  depositCents: toCents(r.depositAmount) ?? 0,
});

const total = (a: Amounts) => formatMoney(heldCents(a));

// Each sentence is one message with its amounts as placeholders, so it reads in any language.

/**
 * What the charge at approval is made of: '$10.00 rental, a $1.00 service fee and a $20.00 refundable
 * deposit'.
 */
export function chargeParts(a: Amounts): string {
  const rental = formatMoney(a.rentalCents);
  const deposit = formatMoney(a.depositCents);
  const fee = formatMoney(a.serviceFeeCents);
  if (a.serviceFeeCents > 0 && a.depositCents > 0)
    return t`${rental} rental, a ${fee} service fee and a ${deposit} refundable deposit`;
  if (a.serviceFeeCents > 0) return t`${rental} rental and a ${fee} service fee`;
  if (a.rentalCents > 0 && a.depositCents > 0) return t`${rental} rental and a ${deposit} refundable deposit`;
  if (a.rentalCents > 0) return t`${rental} rental`;
  if (a.depositCents > 0) return t`a ${deposit} refundable deposit`;
  return '';
}

/** The borrower at checkout: what the card sees now, at approval, and if the answer is no. */
export function holdNotice(a: Amounts, lenderName: string): string {
  const amount = total(a);
  const parts = chargeParts(a);
  return t`We hold ${amount} on your card now; nothing is charged yet. If ${lenderName} approves, your card is charged ${amount} (${parts}). If the request is declined or expires, the hold is released.`;
}

/**
 * Decision 062: a booking far ahead holds nothing now. Its card is saved, held a few days before the
 * start (`holdFrom`) and charged then if the lender has approved.
 */
export function savedCardNotice(a: Amounts, lenderName: string, holdFromIso: string): string {
  const amount = total(a);
  const parts = chargeParts(a);
  const date = dateTime(holdFromIso, 'weekday');
  return t`Your card is saved now and charged ${amount} (${parts}) on ${date}, a few days before the start, if ${lenderName} has approved. Nothing is held or charged until then. If the request is declined or expires, nothing is charged.`;
}

/** The deposit line under the approval charge, when there is a deposit. */
export function depositReturnNote(a: Amounts, who: 'you' | 'them'): string | null {
  if (a.depositCents <= 0) return null;
  const deposit = formatMoney(a.depositCents);
  return who === 'you'
    ? t`The ${deposit} deposit is refunded to your card when the item is returned.`
    : t`The ${deposit} deposit is refunded to their card when the item is returned.`;
}

/**
 * The lender's toast on approving, saying what approval charged the borrower's card (spec §8's 'can now
 * proceed with payment' was not true: there is nothing left to pay).
 */
export function approvalToast(
  r: Pick<Reservation, 'rentalAmount' | 'depositAmount' | 'serviceFeeAmount' | 'borrower'>,
): string {
  const a = amountsOf(r);
  const name = r.borrower.fullName;
  if (heldCents(a) === 0) {
    return t`${name} has been notified. Nothing is charged: this item is free.`;
  }
  const amount = total(a);
  const parts = chargeParts(a);
  const rental = formatMoney(a.rentalCents);
  const sentences = [t`${name} has been notified. Their card is charged ${amount} now (${parts}).`];
  if (a.rentalCents > 0) sentences.push(t`You earn the ${rental} rental.`);
  if (a.depositCents > 0) sentences.push(t`The deposit goes back to ${name} when the item is returned.`);
  return sentences.join(' ');
}
