import { describe, expect, it } from 'vitest';
import { campusToday } from './calendar.ts';

describe('campusToday', () => {
  it('answers the campus’s calendar day, not UTC’s', () => {
    // 2026-11-23 03:00 UTC is still Sunday 22 November in California.
    const late = new Date('2026-11-23T03:00:00Z');
    expect(campusToday('America/Los_Angeles', late)).toEqual({ date: '2026-11-22', weekday: 0 });
    expect(campusToday('UTC', late)).toEqual({ date: '2026-11-23', weekday: 1 });
  });
});
