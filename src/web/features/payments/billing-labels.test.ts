import { describe, expect, it } from 'vitest';
import { billingLabel } from './billing-labels.ts';

// Issue 16: Billing History names what each row did to the money, with a sign.

describe('billing labels', () => {
  it('names the four a student meets most: Held, Paid, Refunded, Earned', () => {
    expect(billingLabel({ kind: 'payment', status: 'pending' })).toMatchObject({ label: 'Held', sign: '' });
    expect(billingLabel({ kind: 'payment', status: 'completed' })).toMatchObject({
      label: 'Paid',
      sign: '−',
    });
    expect(billingLabel({ kind: 'refund', status: 'refunded' })).toMatchObject({
      label: 'Refunded',
      sign: '+',
    });
    expect(billingLabel({ kind: 'earning', status: 'completed' })).toMatchObject({
      label: 'Earned',
      sign: '+',
    });
  });

  it('does not call a released hold a refund, and says what is still under way', () => {
    expect(billingLabel({ kind: 'payment', status: 'refunded' })).toMatchObject({
      label: 'Hold released',
      sign: '',
      detail: 'Never charged',
    });
    expect(billingLabel({ kind: 'refund', status: 'pending' }).label).toBe('Refund pending');
    expect(billingLabel({ kind: 'earning', status: 'pending' }).label).toBe('Earning pending');
    expect(billingLabel({ kind: 'earning', status: 'refunded' }).label).toBe('Earning reversed');
    for (const kind of ['payment', 'refund', 'earning'] as const) {
      expect(billingLabel({ kind, status: 'failed' })).toMatchObject({ tone: 'failed', sign: '' });
    }
  });
});
