import type { BillingEntry } from '#shared/schemas/payments.ts';

// Billing History in words a student reads at a glance (issue 16): what each row did to their money,
// with a sign and a colour. 'Held' is an authorisation (nothing left the card); 'Paid' money that
// left it; 'Refunded' money that came back; 'Earned' a lender's rental. A released hold moved no money
// and says so, without a sign.

export type BillingTone = 'paid' | 'earned' | 'refunded' | 'held' | 'neutral' | 'failed';

export interface BillingLabel {
  label: string;
  /** '−' money out, '+' money in, '' nothing moved (yet). */
  sign: '−' | '+' | '';
  tone: BillingTone;
  /** One line on what it means. */
  detail: string;
}

export function billingLabel(entry: Pick<BillingEntry, 'kind' | 'status'>): BillingLabel {
  const { kind, status } = entry;
  if (kind === 'payment') {
    if (status === 'pending')
      return { label: 'Held', sign: '', tone: 'held', detail: 'On hold on your card, not charged' };
    if (status === 'completed')
      return { label: 'Paid', sign: '−', tone: 'paid', detail: 'Charged to your card' };
    if (status === 'refunded')
      return { label: 'Hold released', sign: '', tone: 'neutral', detail: 'Never charged' };
    return { label: 'Payment failed', sign: '', tone: 'failed', detail: 'Not charged' };
  }
  if (kind === 'refund') {
    if (status === 'refunded')
      return { label: 'Refunded', sign: '+', tone: 'refunded', detail: 'Back on your card' };
    if (status === 'pending')
      return { label: 'Refund pending', sign: '+', tone: 'held', detail: 'On its way back to your card' };
    return { label: 'Refund failed', sign: '', tone: 'failed', detail: 'Our team has been told' };
  }
  if (status === 'completed')
    return { label: 'Earned', sign: '+', tone: 'earned', detail: 'Rental you earned' };
  if (status === 'pending')
    return {
      label: 'Earning pending',
      sign: '+',
      tone: 'held',
      detail: 'Once the borrower’s card is charged',
    };
  if (status === 'refunded')
    return { label: 'Earning reversed', sign: '', tone: 'neutral', detail: 'The borrower was refunded' };
  return {
    label: 'Earning failed',
    sign: '',
    tone: 'failed',
    detail: 'The borrower’s card could not be charged',
  };
}
