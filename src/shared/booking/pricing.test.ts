import { describe, expect, it } from 'vitest';
import { centsToDecimal, quote, toCents } from './pricing.ts';
import type { ServiceFeeRates } from './service-fee.ts';

describe('cents', () => {
  it('turns decimal strings into cents without floating-point error', () => {
    expect(toCents('12.5')).toBe(1250);
    expect(toCents('0.29')).toBe(29);
    expect(toCents('10000')).toBe(1_000_000);
    expect(toCents(4.1)).toBe(410);
    expect(toCents('')).toBeNull();
    expect(toCents(undefined)).toBeNull();
  });

  it('turns cents into two-decimal strings', () => {
    expect(centsToDecimal(1250)).toBe('12.50');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(null)).toBeNull();
  });
});

const RATES: ServiceFeeRates = {
  serviceFeePercent: 10,
  serviceFeeMinCents: 100,
  serviceFeeMaxCents: 1500,
  lenderCommissionPercent: 0,
};

describe('quote', () => {
  const daily = { rentalPriceCents: 500, rentalPeriod: 'day' as const, depositCents: 2000 };
  it('charges per started period, adds the service fee on the rental and the deposit', () => {
    expect(quote(daily, '2026-12-01', '2026-12-05', RATES)).toEqual({
      days: 4,
      rentalCents: 2000,
      serviceFeeCents: 200,
      depositCents: 2000,
      totalCents: 4200,
    });
    expect(quote({ ...daily, rentalPeriod: 'week' }, '2026-12-01', '2026-12-09', RATES)).toMatchObject({
      days: 8,
      rentalCents: 1000,
      serviceFeeCents: 100,
    });
    expect(quote({ ...daily, rentalPeriod: 'month' }, '2026-12-01', '2026-12-20', RATES)).toMatchObject({
      rentalCents: 500,
      // 10 % is 50 cents: the minimum applies.
      serviceFeeCents: 100,
      totalCents: 2600,
    });
  });
  it('counts at least one day, charges a period-less price once, and a free item nothing, fee included', () => {
    expect(quote(daily, '2026-12-01', '2026-12-01', RATES)).toMatchObject({ days: 1, rentalCents: 500 });
    expect(quote({ ...daily, rentalPeriod: null }, '2026-12-01', '2026-12-30', RATES)).toMatchObject({
      rentalCents: 500,
    });
    expect(
      quote(
        { rentalPriceCents: null, rentalPeriod: null, depositCents: null },
        '2026-12-01',
        '2026-12-03',
        RATES,
      ),
    ).toEqual({
      days: 2,
      rentalCents: 0,
      serviceFeeCents: 0,
      depositCents: 0,
      totalCents: 0,
    });
    // Only a deposit: no rental, so no fee.
    expect(
      quote(
        { rentalPriceCents: null, rentalPeriod: null, depositCents: 3000 },
        '2026-12-01',
        '2026-12-03',
        RATES,
      ),
    ).toMatchObject({ serviceFeeCents: 0, totalCents: 3000 });
  });
});
