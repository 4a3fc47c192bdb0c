import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { BillingEntry } from '#shared/schemas/payments.ts';

// Billing History in words a student reads at a glance (decision 025): what each row did to their money,
// with a sign and a colour. 'Held' is an authorisation (nothing left the card); 'Paid' money that left
// it; 'Refunded' money that came back; 'Earned' a lender's rental. A released hold moved no money and
// says so, without a sign. In the language of the given Lingui instance: the page's.

export type BillingTone = 'paid' | 'earned' | 'refunded' | 'held' | 'neutral' | 'failed';

export interface BillingLabel {
  label: string;
  /** '−' money out, '+' money in, '' nothing moved (yet). */
  sign: '−' | '+' | '';
  tone: BillingTone;
  /** One line on what it means. */
  detail: string;
}

export function billingLabel(entry: Pick<BillingEntry, 'kind' | 'status'>, i18n: I18n): BillingLabel {
  const say = (descriptor: MessageDescriptor) => i18n._(descriptor);
  const { kind, status } = entry;
  if (kind === 'payment') {
    if (status === 'pending')
      return {
        label: say(msg`Held`),
        sign: '',
        tone: 'held',
        detail: say(msg`On hold on your card, not charged`),
      };
    if (status === 'completed')
      return { label: say(msg`Paid`), sign: '−', tone: 'paid', detail: say(msg`Charged to your card`) };
    if (status === 'refunded')
      return { label: say(msg`Hold released`), sign: '', tone: 'neutral', detail: say(msg`Never charged`) };
    return { label: say(msg`Payment failed`), sign: '', tone: 'failed', detail: say(msg`Not charged`) };
  }
  if (kind === 'refund') {
    if (status === 'refunded')
      return { label: say(msg`Refunded`), sign: '+', tone: 'refunded', detail: say(msg`Back on your card`) };
    if (status === 'pending')
      return {
        label: say(msg`Refund pending`),
        sign: '+',
        tone: 'held',
        detail: say(msg`On its way back to your card`),
      };
    return {
      label: say(msg`Refund failed`),
      sign: '',
      tone: 'failed',
      detail: say(msg`Our team has been told`),
    };
  }
  if (status === 'completed')
    return { label: say(msg`Earned`), sign: '+', tone: 'earned', detail: say(msg`Rental you earned`) };
  if (status === 'pending')
    return {
      label: say(msg`Earning pending`),
      sign: '+',
      tone: 'held',
      detail: say(msg`Once the borrower’s card is charged`),
    };
  if (status === 'refunded')
    return {
      label: say(msg`Earning reversed`),
      sign: '',
      tone: 'neutral',
      detail: say(msg`The borrower was refunded`),
    };
  return {
    label: say(msg`Earning failed`),
    sign: '',
    tone: 'failed',
    detail: say(msg`The borrower’s card could not be charged`),
  };
}
