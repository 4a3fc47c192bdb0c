import { describe, expect, it } from 'vitest';
import {
  addDays,
  availableOn,
  inWindow,
  isBookableRange,
  isSelectableDay,
  overlaps,
  rangeProblem,
  weekdayOf,
} from './availability.ts';

// 2026-12-01 is a Tuesday.
const window = { availableFrom: '2026-12-01', availableUntil: '2026-12-31', availableDays: [1, 2, 3, 4, 5] };

describe('availability (one rule for the server, the calendar and the SQL)', () => {
  it('counts days and weekdays in calendar days', () => {
    expect(weekdayOf('2026-12-01')).toBe(2);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-08', 1)).toBe('2026-03-09');
  });

  it('inclusive ranges overlap when they share a day', () => {
    expect(
      overlaps(
        { startDate: '2026-12-01', endDate: '2026-12-03' },
        { startDate: '2026-12-03', endDate: '2026-12-05' },
      ),
    ).toBe(true);
    expect(
      overlaps(
        { startDate: '2026-12-01', endDate: '2026-12-02' },
        { startDate: '2026-12-03', endDate: '2026-12-05' },
      ),
    ).toBe(false);
  });

  it('a window holds its ends and its weekdays only', () => {
    expect(inWindow('2026-12-01', window)).toBe(true);
    expect(inWindow('2026-12-31', window)).toBe(true);
    expect(inWindow('2026-11-30', window)).toBe(false);
    expect(inWindow('2027-01-01', window)).toBe(false);
    expect(inWindow('2026-12-05', window)).toBe(false); // Saturday
    expect(inWindow('2030-01-01', { ...window, availableUntil: null })).toBe(true);
  });

  it('says what the server answers, first problem first', () => {
    const today = '2026-12-02';
    const at = (startDate: string, endDate: string) => rangeProblem({ startDate, endDate }, window, today);
    expect(at('2026-12-01', '2026-12-03')).toEqual({
      path: 'startDate',
      message: 'The start date cannot be in the past.',
    });
    expect(at('2026-12-04', '2026-12-03')?.path).toBe('endDate');
    expect(at('2026-12-03', '2027-01-04')?.message).toMatch(/^This item is available until /);
    expect(at('2026-12-03', '2026-12-05')?.message).toBe(
      'Pickup and return must fall on days the lender is available.',
    );
    expect(at('2026-12-03', '2026-12-07')).toBeNull();
    expect(
      rangeProblem({ startDate: '2026-11-30', endDate: '2026-12-01' }, window, '2026-11-01')?.message,
    ).toMatch(/^This item is available from /);
  });

  it('the calendar refuses booked days and ranges across them', () => {
    const a = {
      ...window,
      today: '2026-12-02',
      booked: [{ startDate: '2026-12-08', endDate: '2026-12-09' }],
    };
    expect(isSelectableDay('2026-12-01', a)).toBe(false);
    expect(isSelectableDay('2026-12-08', a)).toBe(false);
    expect(isSelectableDay('2026-12-07', a)).toBe(true);
    expect(isBookableRange({ startDate: '2026-12-07', endDate: '2026-12-10' }, a)).toBe(false);
    expect(isBookableRange({ startDate: '2026-12-03', endDate: '2026-12-07' }, a)).toBe(true);
  });

  it('"available now" needs the mark, today in the window, and the item at home', () => {
    const item = { ...window, isAvailable: true, outWithBorrower: false };
    expect(availableOn(item, '2026-12-02')).toBe(true);
    expect(availableOn({ ...item, isAvailable: false }, '2026-12-02')).toBe(false);
    expect(availableOn({ ...item, outWithBorrower: true }, '2026-12-02')).toBe(false);
    expect(availableOn(item, '2026-12-05')).toBe(false);
  });
});
