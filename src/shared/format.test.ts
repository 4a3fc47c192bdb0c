import { describe, expect, it } from 'vitest';
import { badgeCount } from './constants.ts';
import {
  formatCo2,
  formatCo2Small,
  formatCo2Tons,
  formatDayLabel,
  formatMoney,
  formatMoneySaved,
  formatPrice,
  formatWasteLbs,
} from './format.ts';

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

  it('shows impact figures as spec §9 says: dollars with separators, CO2 in tons, waste in pounds', () => {
    expect(formatMoneySaved('1234567.50')).toBe('$1,234,568');
    expect(formatMoneySaved('0.00')).toBe('$0');
    expect(formatCo2Tons(1240)).toBe('1.2T');
    expect(formatCo2Tons(0)).toBe('0.0T');
    expect(formatCo2Tons(12_345_000)).toBe('12,345.0T');
    expect(formatWasteLbs(100)).toBe('220 lbs');
    expect(formatWasteLbs(0.2)).toBe('0 lbs');
    expect(formatCo2Small(6.7)).toBe('6.7 kg');
    expect(formatCo2Small(2500)).toBe('2.5T');
  });

  it('shows a campus CO2 in kilograms below a ton and in tons with one decimal from a ton up', () => {
    expect(formatCo2(320)).toBe('320 kg');
    expect(formatCo2(264.85)).toBe('265 kg');
    expect(formatCo2(0)).toBe('0 kg');
    // A first borrow's few kilograms keep a decimal instead of reading '0 kg'.
    expect(formatCo2(0.4)).toBe('0.4 kg');
    expect(formatCo2(6.66)).toBe('6.7 kg');
    expect(formatCo2(999.4)).toBe('999 kg');
    // What would be shown as 1,000 kg is a ton.
    expect(formatCo2(999.6)).toBe('1.0T');
    expect(formatCo2(1000)).toBe('1.0T');
    expect(formatCo2(1250)).toBe('1.3T');
    expect(formatCo2(12_345_000)).toBe('12,345.0T');
    expect(formatCo2(Number.NaN)).toBe('0 kg');
    expect(formatCo2(-5)).toBe('0 kg');
  });

  it("names a calendar day as 'Mar 5', whatever the time zone", () => {
    expect(formatDayLabel('2026-03-05')).toBe('Mar 5');
    expect(formatDayLabel('2026-12-31')).toBe('Dec 31');
    expect(formatDayLabel('2027-01-01')).toBe('Jan 1');
  });
});

describe('display rules in Spanish', () => {
  it('writes days, prices and weights as a Spanish reader expects, and English again after', async () => {
    const { i18n } = await import('@lingui/core');
    const { messages } = await import('./locales/es.ts');
    const { prepareI18n } = await import('./i18n.ts');
    prepareI18n(i18n);
    i18n.load({ en: {}, es: messages });
    i18n.activate('es');
    try {
      expect(formatDayLabel('2026-03-05')).toBe('5 mar');
      expect(formatPrice(0)).toBe('GRATIS');
      expect(formatMoney(123456)).toBe('$1,234.56');
      expect(formatWasteLbs(100)).toBe('220 lb');
      expect(formatCo2(320)).toBe('320 kg');
      expect(formatCo2(6.66)).toBe('6.7 kg');
      expect(formatCo2(1250)).toBe('1.3T');
    } finally {
      i18n.activate('en');
    }
    expect(formatDayLabel('2026-03-05')).toBe('Mar 5');
    expect(formatPrice(0)).toBe('FREE');
  });
});
