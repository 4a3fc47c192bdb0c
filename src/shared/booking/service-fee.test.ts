import { describe, expect, it } from 'vitest';
import {
  lenderCommissionCents,
  lenderEarningCents,
  platformShare,
  proportionBack,
  type ServiceFeeRates,
  serviceFeeCents,
} from './service-fee.ts';

// The platform's share (decision 055): the fee at the default rates (10 %, at least $1, at most $15),
// rounded down to the cent, none without a rental; the commission rounded down; what comes back with
// part of the rental rounded up.

const DEFAULT: ServiceFeeRates = {
  serviceFeePercent: 10,
  serviceFeeMinCents: 100,
  serviceFeeMaxCents: 1500,
  lenderCommissionPercent: 0,
};

describe('the service fee', () => {
  it.each<[string, number, number]>([
    ['a free item: none', 0, 0],
    ['a small rental: the minimum', 500, 100],
    ['exactly the minimum at 10 %', 1000, 100],
    ['10 % of $12.34, rounded down', 1234, 123],
    ['10 % of $12.39 is $1.239: rounded down', 1239, 123],
    ['just under the maximum', 14_999, 1499],
    ['exactly the maximum', 15_000, 1500],
    ['a large rental: the maximum', 200_000, 1500],
  ])('%s', (_name, rental, fee) => {
    expect(serviceFeeCents(rental, DEFAULT)).toBe(fee);
  });

  it('takes a percent with decimals exactly (7.5 % of $10.01 is 75.075 cents: 75)', () => {
    expect(serviceFeeCents(1001, { ...DEFAULT, serviceFeePercent: 7.5, serviceFeeMinCents: 0 })).toBe(75);
  });

  it('is none at all when the rates say none', () => {
    expect(
      serviceFeeCents(5000, {
        ...DEFAULT,
        serviceFeePercent: 0,
        serviceFeeMinCents: 0,
        serviceFeeMaxCents: 0,
      }),
    ).toBe(0);
  });
});

describe('the lender commission', () => {
  it('is none by default', () => {
    expect(lenderCommissionCents(5000, DEFAULT)).toBe(0);
    expect(platformShare(5000, DEFAULT)).toEqual({ serviceFeeCents: 500, lenderCommissionCents: 0 });
  });

  it('rounds down (the lender keeps the part of a cent) and has no minimum', () => {
    const rates = { ...DEFAULT, lenderCommissionPercent: 7.5 };
    expect(lenderCommissionCents(1001, rates)).toBe(75);
    expect(lenderCommissionCents(13, rates)).toBe(0);
    expect(lenderCommissionCents(0, rates)).toBe(0);
    expect(lenderEarningCents(1001, platformShare(1001, rates))).toBe(926);
  });
});

describe('what comes back with part of the rental', () => {
  it.each<[string, number, number, number, number]>([
    ['nothing refunded: nothing back', 100, 0, 1000, 0],
    ['all refunded: all back', 100, 1000, 1000, 100],
    ['half refunded: half back', 100, 500, 1000, 50],
    ['half of an odd fee: the half cent goes to the borrower', 101, 500, 1000, 51],
    ['a third of $1: 34 cents back, 66 kept', 100, 1, 3, 34],
    ['a third of 99 cents: 33 back', 99, 1, 3, 33],
    ['no fee: nothing back', 0, 500, 1000, 0],
    ['more than the rental asked: all of it, never more', 100, 2000, 1000, 100],
  ])('%s', (_name, cents, refunded, rental, back) => {
    expect(proportionBack(cents, refunded, rental)).toBe(back);
  });
});
