import { describe, expect, it } from 'vitest';
import { campusMidnight, campusPeriods, campusToday } from './calendar.ts';

describe('campusToday', () => {
  it('answers the campus’s calendar day, not UTC’s', () => {
    // 2026-11-23 03:00 UTC is still Sunday 22 November in California.
    const late = new Date('2026-11-23T03:00:00Z');
    expect(campusToday('America/Los_Angeles', late)).toEqual({ date: '2026-11-22', weekday: 0 });
    expect(campusToday('UTC', late)).toEqual({ date: '2026-11-23', weekday: 1 });
  });
});

describe('campus periods', () => {
  it('finds the instant a campus day begins, on either side of a daylight-saving change', () => {
    expect(campusMidnight('2026-03-01', 'America/Los_Angeles').toISOString()).toBe(
      '2026-03-01T08:00:00.000Z',
    );
    expect(campusMidnight('2026-03-09', 'America/Los_Angeles').toISOString()).toBe(
      '2026-03-09T07:00:00.000Z',
    );
    expect(campusMidnight('2026-03-09', 'UTC').toISOString()).toBe('2026-03-09T00:00:00.000Z');
  });

  it('starts the week on Monday and the months on the 1st, in the campus time zone', () => {
    // Monday 2 March 07:30 UTC is still Sunday 1 March, 23:30, in California.
    const periods = campusPeriods('America/Los_Angeles', new Date('2026-03-02T07:30:00Z'));
    expect(periods.weekStart.toISOString()).toBe('2026-02-23T08:00:00.000Z');
    expect(periods.monthStart.toISOString()).toBe('2026-03-01T08:00:00.000Z');
    expect(periods.lastMonthStart.toISOString()).toBe('2026-02-01T08:00:00.000Z');
  });

  it('reaches back into last year in January', () => {
    const periods = campusPeriods('UTC', new Date('2026-01-15T12:00:00Z'));
    expect(periods.lastMonthStart.toISOString()).toBe('2025-12-01T00:00:00.000Z');
    expect(periods.weekStart.toISOString()).toBe('2026-01-12T00:00:00.000Z');
  });
});
