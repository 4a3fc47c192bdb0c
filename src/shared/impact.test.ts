import { describe, expect, it } from 'vitest';
import { CATEGORIES } from './constants.ts';
import {
  borrowImpact,
  CATEGORY_FACTORS,
  changePercent,
  embodiedCo2Kg,
  goalProgressPercent,
  IMPACT_ACHIEVEMENTS,
  massKg,
  PURCHASE_AVOIDANCE,
} from './impact.ts';

describe('what one borrow saves (docs/impact-methodology.md)', () => {
  it('uses the published purchase-avoidance share of one half', () => {
    expect(PURCHASE_AVOIDANCE).toBe(0.5);
  });

  it('computes a tool borrowed for a $5 fee by hand', () => {
    // tools: new $90.00; 1.5 kg steel × 2.0 + 0.8 kg plastic × 3.0 + 0.2 kg electronics × 40 = 13.4 kg CO2e; 2.5 kg.
    expect(embodiedCo2Kg('tools')).toBeCloseTo(13.4, 10);
    expect(massKg('tools')).toBeCloseTo(2.5, 10);
    expect(borrowImpact('tools', 500)).toEqual({
      moneySavedCents: 4250, // 0.5 × (9000 − 500)
      co2SavedGrams: 6700, // 0.5 × 13.4 kg
      wasteReducedGrams: 1250, // 0.5 × 2.5 kg
    });
  });

  it('saves no money when the fee is more than a new one costs, but still the CO2e and waste', () => {
    // clothing: new $60; 0.8 kg textile × 20 = 16 kg CO2e.
    expect(borrowImpact('clothing', 7000)).toEqual({
      moneySavedCents: 0,
      co2SavedGrams: 8000,
      wasteReducedGrams: 400,
    });
  });

  it('has a price, a mass and an embodied footprint for every category', () => {
    for (const category of CATEGORIES) {
      expect(CATEGORY_FACTORS[category].newPriceCents, category).toBeGreaterThan(0);
      expect(massKg(category), category).toBeGreaterThan(0);
      expect(embodiedCo2Kg(category), category).toBeGreaterThan(0);
      const free = borrowImpact(category, 0);
      expect(free.moneySavedCents).toBe(CATEGORY_FACTORS[category].newPriceCents / 2);
      expect(Number.isInteger(free.co2SavedGrams) && Number.isInteger(free.wasteReducedGrams)).toBe(true);
    }
  });
});

describe('the dashboard’s rules (spec §9)', () => {
  it('shows monthly progress toward 500 with one decimal, capped at 100 %', () => {
    expect(goalProgressPercent(0)).toBe(0);
    expect(goalProgressPercent(37)).toBe(7.4);
    expect(goalProgressPercent(500)).toBe(100);
    expect(goalProgressPercent(750)).toBe(100);
  });

  it('gives the change from last month in whole percent, and none without a last month', () => {
    expect(changePercent(12, 10)).toBe(20);
    expect(changePercent(3, 4)).toBe(-25);
    expect(changePercent(2, 3)).toBe(-33);
    expect(changePercent(5, 0)).toBeNull();
  });

  it('has the spec’s four achievements and thresholds', () => {
    expect(IMPACT_ACHIEVEMENTS.map((a) => [a.title, a.metric, a.threshold])).toEqual([
      ['First 100', 'itemsShared', 100],
      ['Green Campus', 'co2SavedKg', 1000],
      ['Community Builder', 'members', 100],
      ['Sustainability Champion', 'itemsShared', 1000],
    ]);
  });
});
