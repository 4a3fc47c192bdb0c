import { describe, expect, it } from 'vitest';
import { centsToDecimal, toCents } from './pricing.ts';

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
