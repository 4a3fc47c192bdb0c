import { describe, expect, it } from 'vitest';
import { badgeCount } from './constants.ts';
import { formatMoney, formatPrice } from './format.ts';

describe('display rules (spec §9)', () => {
  it('shows FREE for an empty or zero price, else dollars with two decimals', () => {
    expect(formatPrice(null)).toBe('FREE');
    expect(formatPrice('')).toBe('FREE');
    expect(formatPrice('0')).toBe('FREE');
    expect(formatPrice('0.00')).toBe('FREE');
    expect(formatPrice('12.5')).toBe('$12.50');
    expect(formatPrice(3)).toBe('$3.00');
  });

  it('formats cents with thousands separators', () => {
    expect(formatMoney(123456789)).toBe('$1,234,567.89');
    expect(formatMoney(5)).toBe('$0.05');
  });

  it("shows '9+' above nine", () => {
    expect(badgeCount(0)).toBe('0');
    expect(badgeCount(9)).toBe('9');
    expect(badgeCount(10)).toBe('9+');
  });
});
