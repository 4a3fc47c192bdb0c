import { describe, expect, it } from 'vitest';
import {
  borrowerCancellationRefund,
  type CANCELLATION_POLICIES,
  cancellationDeadline,
  cancellationTerms,
} from './cancellation-policy.ts';

// Each policy's refund at each boundary, in the campus time zone (Los Angeles: UTC-8 in winter).
const TZ = 'America/Los_Angeles';
const booking = { startDate: '2026-12-10', rentalCents: 2001, depositCents: 5000 };
const at = (iso: string) => new Date(iso);
const ms = (d: Date, n: number) => new Date(d.getTime() + n);

describe('cancellation policies', () => {
  it("deadlines count from the start day's midnight on campus", () => {
    // Dec 10 00:00 in Los Angeles is 08:00 UTC.
    expect(cancellationDeadline('flexible', '2026-12-10', TZ).toISOString()).toBe('2026-12-09T08:00:00.000Z');
    expect(cancellationDeadline('moderate', '2026-12-10', TZ).toISOString()).toBe('2026-12-07T08:00:00.000Z');
    expect(cancellationDeadline('strict', '2026-12-10', TZ).toISOString()).toBe('2026-12-03T08:00:00.000Z');
    // Across the spring DST change: Mar 9 2026 00:00 PDT is 07:00 UTC; 3 days before is 72 real hours.
    expect(cancellationDeadline('moderate', '2026-03-09', TZ).toISOString()).toBe('2026-03-06T07:00:00.000Z');
  });

  const cases: [string, number, number][] = [
    // policy, rental percent at the deadline (in time), one millisecond after
    ['flexible', 100, 0],
    ['moderate', 100, 50],
    ['strict', 50, 0],
  ];
  for (const [policy, before, after] of cases) {
    it(`${policy}: ${before}% of the rental up to the deadline, ${after}% after; the deposit always`, () => {
      const p = policy as (typeof CANCELLATION_POLICIES)[number];
      const deadline = cancellationDeadline(p, booking.startDate, TZ);
      for (const [when, percent] of [
        [ms(deadline, -1), before],
        [deadline, before],
        [ms(deadline, 1), after],
        [at('2026-12-10T07:59:59Z'), after],
        [at('2026-12-10T20:00:00Z'), after],
      ] as const) {
        const refund = borrowerCancellationRefund(p, booking, when, TZ);
        expect(refund.percent, when.toISOString()).toBe(percent);
        expect(refund.depositRefundCents).toBe(5000);
        expect(refund.rentalRefundCents + refund.rentalKeptCents).toBe(2001);
        expect(refund.refundCents).toBe(refund.rentalRefundCents + 5000);
      }
    });
  }

  it("half of an odd rental rounds in the borrower's favour", () => {
    const refund = borrowerCancellationRefund('strict', booking, at('2026-11-01T00:00:00Z'), TZ);
    expect(refund).toMatchObject({ rentalRefundCents: 1001, rentalKeptCents: 1000, refundCents: 6001 });
  });

  it('the terms name both tiers with exact amounts', () => {
    const terms = cancellationTerms('moderate', booking, TZ);
    expect(terms.before.refundCents).toBe(7001);
    expect(terms.after.refundCents).toBe(5000 + 1001);
  });
});
