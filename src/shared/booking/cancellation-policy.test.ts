import { describe, expect, it } from 'vitest';
import { campusAt, campusMidnight } from '../calendar.ts';
import {
  borrowerCancellationRefund,
  type CANCELLATION_POLICIES,
  cancellationDeadline,
  cancellationOutlook,
  cancellationTerms,
  CANCELLATION_POLICIES as POLICIES,
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

describe('what the Reserve dialog may promise, as of now', () => {
  // Every boundary of every policy, in the campus time zone: one millisecond before, at and after each
  // deadline; starts just after the spring and autumn DST changes; a start day of today.
  const starts = [
    ['a winter start', '2026-12-10'],
    ['the day after clocks go forward (Mar 8)', '2026-03-09'],
    ['the day clocks go forward', '2026-03-08'],
    ['the day after clocks go back (Nov 1)', '2026-11-02'],
    ['the day clocks go back', '2026-11-01'],
  ] as const;
  for (const policy of POLICIES) {
    for (const [name, startDate] of starts) {
      it(`${policy}, ${name}: both tiers up to the deadline, what a cancellation returns after`, () => {
        const b = { ...booking, startDate };
        const deadline = cancellationDeadline(policy, startDate, TZ);
        const terms = cancellationTerms(policy, b, TZ);
        for (const when of [ms(deadline, -3600_000), ms(deadline, -1), deadline]) {
          const outlook = cancellationOutlook(policy, b, when, TZ);
          expect(outlook, when.toISOString()).toEqual({ kind: 'open', ...terms });
        }
        for (const when of [
          ms(deadline, 1),
          ms(deadline, 3600_000),
          campusStart(startDate),
          campusNoon(startDate),
        ]) {
          const outlook = cancellationOutlook(policy, b, when, TZ);
          expect(outlook, when.toISOString()).toEqual({ kind: 'closed', refund: terms.after });
          // Whatever it names is what the server would refund at that moment.
          if (outlook.kind === 'closed') {
            expect(outlook.refund).toEqual(borrowerCancellationRefund(policy, b, when, TZ));
          }
        }
      });
    }

    it(`${policy}: a start day of today has its deadline behind it`, () => {
      const today = '2026-11-28';
      const outlook = cancellationOutlook(policy, { ...booking, startDate: today }, campusNoon(today), TZ);
      expect(outlook.kind).toBe('closed');
    });

    it(`${policy}: with no rental to keep, one amount whenever it is asked`, () => {
      const free = { startDate: '2026-12-10', rentalCents: 0, depositCents: 5000 };
      for (const when of [at('2026-11-01T00:00:00Z'), at('2026-12-09T12:00:00Z')]) {
        const outlook = cancellationOutlook(policy, free, when, TZ);
        expect(outlook).toMatchObject({ kind: 'same', refund: { refundCents: 5000 } });
      }
    });
  }

  it('the deadline of a start after a DST change is counted in real hours', () => {
    // Mar 9 00:00 PDT is 07:00 UTC; 24 real hours before is Mar 7, 11 PM PST on campus.
    expect(cancellationDeadline('flexible', '2026-03-09', TZ).toISOString()).toBe('2026-03-08T07:00:00.000Z');
    // Nov 2 00:00 PST is 08:00 UTC; 24 real hours before is Nov 1, 1 AM PDT (the first of the two).
    expect(cancellationDeadline('flexible', '2026-11-02', TZ).toISOString()).toBe('2026-11-01T08:00:00.000Z');
  });
});

/** The start day's midnight and noon on campus. */
const campusStart = (day: string) => campusMidnight(day, TZ);
const campusNoon = (day: string) => campusAt(day, 12, TZ);
