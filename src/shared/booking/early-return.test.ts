import { describe, expect, it } from 'vitest';
import { type EarlyReturnBooking, earlyReturnRefund, earlyReturnSentence } from './early-return.ts';

const booking = (over: Partial<EarlyReturnBooking> = {}): EarlyReturnBooking => ({
  startDate: '2026-03-02',
  endDate: '2026-03-07',
  rentalPeriod: 'day',
  cancellationPolicy: 'flexible',
  payments: [{ fromEndDate: null, endDate: over.endDate ?? '2026-03-07', rentalCents: 500 * 5 }],
  ...over,
});

describe('earlyReturnRefund', () => {
  it('is not early on or after the last day', () => {
    expect(earlyReturnRefund(booking(), '2026-03-07')).toBeNull();
    expect(earlyReturnRefund(booking(), '2026-03-09')).toBeNull();
    // A one-day booking picked up and back before its day: it still ends on its day.
    const oneDay = booking({ startDate: '2026-03-07' });
    expect(earlyReturnRefund(oneDay, '2026-03-05')).toBeNull();
  });

  it('gives back the days after the return day by the policy, rounding in the borrower’s favour', () => {
    // Mar 2 → 7 is 5 days at $5; back on Mar 4, 2 days are used and 3 unused.
    expect(earlyReturnRefund(booking(), '2026-03-04')).toEqual({
      newEndDate: '2026-03-04',
      unusedPeriods: 3,
      unusedRentalCents: 1500,
      percent: 100,
      refundCents: 1500,
      refunds: [1500],
    });
    expect(earlyReturnRefund(booking({ cancellationPolicy: 'moderate' }), '2026-03-04')?.refundCents).toBe(
      750,
    );
    expect(earlyReturnRefund(booking({ cancellationPolicy: 'strict' }), '2026-03-04')?.refundCents).toBe(0);
    const odd = booking({
      cancellationPolicy: 'moderate',
      payments: [{ fromEndDate: null, endDate: '2026-03-07', rentalCents: 5 * 333 }],
    });
    expect(earlyReturnRefund(odd, '2026-03-06')?.refundCents).toBe(167);
  });

  it('counts the start day as used: a return the day of pickup keeps one day', () => {
    expect(earlyReturnRefund(booking(), '2026-03-02')?.unusedPeriods).toBe(4);
    // Before the start (picked up early): the booking still ends on its start day.
    expect(earlyReturnRefund(booking(), '2026-03-01')).toMatchObject({
      newEndDate: '2026-03-02',
      unusedPeriods: 4,
    });
  });

  it('refunds only whole weeks and months at their boundaries', () => {
    const twoWeeks = booking({
      endDate: '2026-03-16',
      rentalPeriod: 'week',
      payments: [{ fromEndDate: null, endDate: '2026-03-16', rentalCents: 2 * 4000 }],
    });
    expect(earlyReturnRefund(twoWeeks, '2026-03-09')?.refundCents).toBe(4000); // 7 days used: one week
    expect(earlyReturnRefund(twoWeeks, '2026-03-10')?.refundCents).toBe(0); // the 2nd week has started
    const twoMonths = booking({
      endDate: '2026-05-01',
      rentalPeriod: 'month',
      payments: [{ fromEndDate: null, endDate: '2026-05-01', rentalCents: 2 * 9000 }],
    });
    expect(earlyReturnRefund(twoMonths, '2026-04-01')?.refundCents).toBe(9000); // 30 days
    expect(earlyReturnRefund(twoMonths, '2026-04-02')?.refundCents).toBe(0); // 31 days
  });

  it('refunds nothing of a flat price', () => {
    expect(earlyReturnRefund(booking({ rentalPeriod: null }), '2026-03-03')).toMatchObject({
      newEndDate: '2026-03-03',
      refundCents: 0,
      refunds: [0],
    });
  });

  it('takes unused days from an approved extension’s payment at its own price', () => {
    // Booked Mar 2–7 (5 days, $25), extended to Mar 10 at $6 a day ($18): back on Mar 5.
    const extended = booking({
      endDate: '2026-03-10',
      payments: [
        { fromEndDate: null, endDate: '2026-03-07', rentalCents: 2500 },
        { fromEndDate: '2026-03-07', endDate: '2026-03-10', rentalCents: 1800 },
      ],
    });
    expect(earlyReturnRefund(extended, '2026-03-05')).toMatchObject({
      unusedPeriods: 5,
      refunds: [1000, 1800],
      refundCents: 2800,
    });
    // Back on Mar 8: the booking's days are all used, one of the extension's.
    expect(earlyReturnRefund(extended, '2026-03-08')?.refunds).toEqual([0, 1200]);
  });

  it('says what it does in the dialog', () => {
    const b = booking({ cancellationPolicy: 'moderate' });
    expect(earlyReturnSentence(b, earlyReturnRefund(b, '2026-03-04')!)).toBe(
      "Your booking ends today, Mar 4, instead of Mar 7, and the days after it are freed for others. By the item's moderate policy, $7.50 of the rental (50% of the 3 unused days) is refunded to your card.",
    );
    const strict = booking({ cancellationPolicy: 'strict' });
    expect(earlyReturnSentence(strict, earlyReturnRefund(strict, '2026-03-06')!)).toContain(
      'the rental of the 1 unused day is not refunded',
    );
    const flat = booking({ rentalPeriod: null });
    expect(earlyReturnSentence(flat, earlyReturnRefund(flat, '2026-03-06')!)).toContain(
      'no rental is refunded',
    );
  });

  it("says it in the lender's words when they confirm a borrow still out", () => {
    const b = booking({ cancellationPolicy: 'moderate' });
    expect(earlyReturnSentence(b, earlyReturnRefund(b, '2026-03-04')!, { borrowerName: 'Jordan Lee' })).toBe(
      "The booking ends today, Mar 4, instead of Mar 7, and the days after it are freed for others. By your moderate policy, $7.50 of the rental (50% of the 3 unused days) is refunded to Jordan Lee's card.",
    );
  });
});
