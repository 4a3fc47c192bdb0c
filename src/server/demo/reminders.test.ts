import { describe, expect, it } from 'vitest';
import { overdueSince } from '#shared/booking/deposit-claims.ts';
import { campusAt } from '#shared/calendar.ts';
import { readerDueDay } from './reminders.ts';

const zone = 'America/Los_Angeles';
const hour = 3600_000;

describe("the demo's course reader", () => {
  it('is due back today through the afternoon, and tomorrow from late in the evening', () => {
    expect(readerDueDay(campusAt('2026-11-30', 10, zone), zone)).toBe('2026-11-30');
    expect(readerDueDay(new Date(campusAt('2026-11-30', 20, zone).getTime() - 1), zone)).toBe('2026-11-30');
    expect(readerDueDay(campusAt('2026-11-30', 20, zone), zone)).toBe('2026-12-01');
    expect(readerDueDay(new Date(campusAt('2026-12-01', 0, zone).getTime() - 1), zone)).toBe('2026-12-01');
  });

  // The browser journeys run for most of an hour on a demo loaded at their start, and Diego borrows in
  // several of them: an overdue borrow would refuse every one of his requests.
  it('is not overdue within four hours of the load, at any minute of the day or on a clock change', () => {
    for (const day of ['2026-11-30', '2026-03-08', '2026-11-01']) {
      for (let minute = 0; minute < 24 * 60; minute += 7) {
        const now = new Date(campusAt(day, 0, zone).getTime() + minute * 60_000);
        const due = readerDueDay(now, zone);
        expect(
          overdueSince(due, zone).getTime() - now.getTime(),
          `${now.toISOString()}`,
        ).toBeGreaterThanOrEqual(4 * hour);
      }
    }
  });
});
