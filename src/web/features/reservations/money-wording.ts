import { formatMoney } from '#shared/format.ts';
import { toCents } from '#shared/pricing.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';

// What the money does, in the words the screens use (issue 16, decision 025). The flow they describe
// (reservations/service.ts, decision 012): at the request the whole total is authorised (held on the
// card, nothing charged); the lender's approval captures all of it (rental and deposit); the deposit
// is refunded when the item comes back; a decline, cancellation or expiry before approval releases
// the hold. The server's approval notice says the same (chargedNow in reservations/service.ts).

export interface Amounts {
  rentalCents: number;
  depositCents: number;
}

export const amountsOf = (r: Pick<Reservation, 'rentalAmount' | 'depositAmount'>): Amounts => ({
  rentalCents: toCents(r.rentalAmount) ?? 0,
  depositCents: toCents(r.depositAmount) ?? 0,
});

const total = (a: Amounts) => formatMoney(a.rentalCents + a.depositCents);

/** What the charge at approval is made of: '$10.00 rental and a $20.00 deposit'. */
export function chargeParts(a: Amounts): string {
  const parts = [];
  if (a.rentalCents > 0) parts.push(`${formatMoney(a.rentalCents)} rental`);
  if (a.depositCents > 0) parts.push(`a ${formatMoney(a.depositCents)} refundable deposit`);
  return parts.join(' and ');
}

/** The borrower at checkout: what the card sees now, at approval, and if the answer is no. */
export function holdNotice(a: Amounts, lenderName: string): string {
  return `We hold ${total(a)} on your card now; nothing is charged yet. If ${lenderName} approves, your card is charged ${total(a)} (${chargeParts(a)}). If the request is declined or expires, the hold is released.`;
}

/** The deposit line under the approval charge, when there is a deposit. */
export function depositReturnNote(a: Amounts, who: 'you' | 'them'): string | null {
  if (a.depositCents <= 0) return null;
  return `The ${formatMoney(a.depositCents)} deposit is refunded to ${who === 'you' ? 'your card' : 'their card'} when the item is returned.`;
}

/** The lender's toast on approving (spec §8's 'can now proceed with payment' was not true: issue 16). */
export function approvalToast(r: Pick<Reservation, 'rentalAmount' | 'depositAmount' | 'borrower'>): string {
  const a = amountsOf(r);
  const name = r.borrower.fullName;
  if (a.rentalCents + a.depositCents === 0) {
    return `${name} has been notified. Nothing is charged: this item is free.`;
  }
  const earning = a.rentalCents > 0 ? ` You earn the ${formatMoney(a.rentalCents)} rental.` : '';
  return `${name} has been notified. Their card is charged ${total(a)} now (${chargeParts(a)}).${earning}${a.depositCents > 0 ? ` The deposit goes back to ${name} when the item is returned.` : ''}`;
}
