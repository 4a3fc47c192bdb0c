import { describe, expect, it } from 'vitest';
import { createI18n } from '#shared/i18n.ts';
import { messages as es } from '#shared/locales/es.ts';
import { billingLabel } from './billing-labels.ts';

// Billing History names what each row did to the money, with a sign.

const en = createI18n('en');

describe('billing labels', () => {
  it('names the four a student meets most: Held, Paid, Refunded, Earned', () => {
    expect(billingLabel({ kind: 'payment', status: 'pending' }, en)).toMatchObject({
      label: 'Held',
      sign: '',
    });
    expect(billingLabel({ kind: 'payment', status: 'completed' }, en)).toMatchObject({
      label: 'Paid',
      sign: '−',
    });
    expect(billingLabel({ kind: 'refund', status: 'refunded' }, en)).toMatchObject({
      label: 'Refunded',
      sign: '+',
    });
    expect(billingLabel({ kind: 'earning', status: 'completed' }, en)).toMatchObject({
      label: 'Earned',
      sign: '+',
    });
  });

  it('does not call a released hold a refund, and says what is still under way', () => {
    expect(billingLabel({ kind: 'payment', status: 'refunded' }, en)).toMatchObject({
      label: 'Hold released',
      sign: '',
      detail: 'Never charged',
    });
    expect(billingLabel({ kind: 'refund', status: 'pending' }, en).label).toBe('Refund pending');
    expect(billingLabel({ kind: 'earning', status: 'pending' }, en).label).toBe('Earning pending');
    expect(billingLabel({ kind: 'earning', status: 'refunded' }, en).label).toBe('Earning reversed');
    for (const kind of ['payment', 'refund', 'earning'] as const) {
      expect(billingLabel({ kind, status: 'failed' }, en)).toMatchObject({ tone: 'failed', sign: '' });
    }
  });

  it('speaks Spanish to a Spanish reader', () => {
    const spanish = createI18n('es', { es });
    expect(billingLabel({ kind: 'payment', status: 'completed' }, spanish)).toMatchObject({
      label: 'Pagado',
      sign: '−',
      detail: 'Cobrado a tu tarjeta',
    });
    expect(billingLabel({ kind: 'refund', status: 'refunded' }, spanish).label).toBe('Reembolsado');
  });
});
