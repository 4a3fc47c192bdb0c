import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Availability } from '#shared/schemas/reservations.ts';
import { type DateRange, DateRangePicker, defaultRange, isValidEnd } from './date-range-picker.tsx';

// 2026-12-01 is a Tuesday.
function availability(overrides: Partial<Availability> = {}): Availability {
  return {
    today: '2026-12-01',
    availableFrom: '2026-11-01',
    availableUntil: null,
    availableDays: [0, 1, 2, 3, 4, 5, 6],
    booked: [],
    ...overrides,
  };
}

function Harness({
  a,
  initial,
  onChange,
}: {
  a: Availability;
  initial: DateRange;
  onChange?: (r: DateRange) => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <DateRangePicker
      availability={a}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange?.(next);
      }}
    />
  );
}

const day = (label: string) => screen.getByRole('button', { name: label });

afterEach(cleanup);

describe('defaultRange (spec §5)', () => {
  it('starts today and ends 7 days later when both can be picked', () => {
    expect(defaultRange(availability())).toEqual({ startDate: '2026-12-01', endDate: '2026-12-08' });
  });

  it('starts on the first day that can be picked', () => {
    // Weekends only: Saturday Dec 5 is the first; a week later is Saturday Dec 12.
    expect(defaultRange(availability({ availableDays: [0, 6] }))).toEqual({
      startDate: '2026-12-05',
      endDate: '2026-12-12',
    });
    expect(defaultRange(availability({ availableFrom: '2026-12-10' }))?.startDate).toBe('2026-12-10');
    expect(
      defaultRange(availability({ booked: [{ startDate: '2026-11-28', endDate: '2026-12-03' }] }))?.startDate,
    ).toBe('2026-12-04');
  });

  it('shortens the end so that no booked day falls inside', () => {
    expect(
      defaultRange(availability({ booked: [{ startDate: '2026-12-05', endDate: '2026-12-06' }] })),
    ).toEqual({ startDate: '2026-12-01', endDate: '2026-12-04' });
  });

  it('is null when nothing can be booked', () => {
    expect(defaultRange(availability({ availableUntil: '2026-11-30' }))).toBeNull();
  });

  it('refuses an end across a booking', () => {
    const a = availability({ booked: [{ startDate: '2026-12-05', endDate: '2026-12-06' }] });
    expect(isValidEnd('2026-12-01', '2026-12-04', a)).toBe(true);
    expect(isValidEnd('2026-12-01', '2026-12-08', a)).toBe(false);
    expect(isValidEnd('2026-12-03', '2026-12-02', a)).toBe(false);
  });
});

describe('DateRangePicker', () => {
  it('labels each day in full and greys out past, weekend, booked and out-of-window days', () => {
    render(
      <Harness
        a={availability({
          today: '2026-12-02',
          availableUntil: '2026-12-20',
          availableDays: [1, 2, 3, 4, 5],
          booked: [{ startDate: '2026-12-09', endDate: '2026-12-10' }],
        })}
        initial={{ startDate: '2026-12-02', endDate: '2026-12-08' }}
      />,
    );
    expect(screen.getByRole('grid', { name: 'December 2026' })).toBeTruthy();
    for (const label of [
      'Tuesday, December 1, 2026',
      'Sunday, December 6, 2026',
      'Wednesday, December 9, 2026',
      'Thursday, December 10, 2026',
      'Monday, December 21, 2026',
    ]) {
      expect(day(label).getAttribute('aria-disabled')).toBe('true');
    }
    expect(day('Wednesday, December 2, 2026').getAttribute('aria-disabled')).toBeNull();
    expect(day('Wednesday, December 2, 2026').getAttribute('aria-current')).toBe('date');
    expect(day('Friday, December 11, 2026').getAttribute('aria-disabled')).toBeNull();
  });

  it('sets the start, then the end, never before the start', () => {
    const onChange = vi.fn();
    render(
      <Harness
        a={availability()}
        initial={{ startDate: '2026-12-01', endDate: '2026-12-08' }}
        onChange={onChange}
      />,
    );
    fireEvent.click(day('Thursday, December 3, 2026'));
    expect(onChange).toHaveBeenLastCalledWith({ startDate: '2026-12-03', endDate: '2026-12-08' });
    // Now choosing the end: a day before the start cannot be picked.
    expect(day('Wednesday, December 2, 2026').getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(day('Wednesday, December 2, 2026'));
    expect(onChange).toHaveBeenCalledTimes(1);
    fireEvent.click(day('Friday, December 11, 2026'));
    expect(onChange).toHaveBeenLastCalledWith({ startDate: '2026-12-03', endDate: '2026-12-11' });
    expect(screen.getByRole('button', { name: /End date/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('moves with the arrow keys and picks with Enter', () => {
    const onChange = vi.fn();
    render(
      <Harness
        a={availability()}
        initial={{ startDate: '2026-12-01', endDate: '2026-12-08' }}
        onChange={onChange}
      />,
    );
    const start = day('Tuesday, December 1, 2026');
    expect(start.tabIndex).toBe(0);
    start.focus();
    fireEvent.keyDown(start, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(day('Wednesday, December 2, 2026'));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(day('Wednesday, December 9, 2026'));
    expect(day('Wednesday, December 9, 2026').tabIndex).toBe(0);
    expect(start.tabIndex).toBe(-1);
    // Into the next month and back.
    fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
    expect(screen.getByRole('grid', { name: 'January 2027' })).toBeTruthy();
    expect(document.activeElement).toBe(day('Saturday, January 9, 2027'));
    fireEvent.keyDown(document.activeElement!, { key: 'PageUp' });
    expect(document.activeElement).toBe(day('Wednesday, December 9, 2026'));
    // Enter on a button clicks it.
    fireEvent.click(document.activeElement!);
    expect(onChange).toHaveBeenLastCalledWith({ startDate: '2026-12-09', endDate: '2026-12-09' });
  });

  it('pages months with the Previous and Next buttons, not before this month', () => {
    render(
      <Harness
        a={availability({ availableUntil: '2027-01-15' })}
        initial={{ startDate: '2026-12-01', endDate: '2026-12-08' }}
      />,
    );
    const previous = screen.getByRole('button', { name: 'Previous month' }) as HTMLButtonElement;
    const next = screen.getByRole('button', { name: 'Next month' }) as HTMLButtonElement;
    expect(previous.disabled).toBe(true);
    fireEvent.click(next);
    expect(screen.getByRole('grid', { name: 'January 2027' })).toBeTruthy();
    expect(next.disabled).toBe(true);
    expect(previous.disabled).toBe(false);
    expect(day('Saturday, January 16, 2027').getAttribute('aria-disabled')).toBe('true');
  });
});

describe('requested days', () => {
  const requested = availability({ requested: [{ startDate: '2026-12-03', endDate: '2026-12-04' }] });

  it('marks days someone asked for, says why, and still lets them be chosen', () => {
    const onChange = vi.fn();
    render(
      <Harness
        a={requested}
        initial={{ startDate: '2026-12-01', endDate: '2026-12-01' }}
        onChange={onChange}
      />,
    );
    const dec3 = day('Thursday, December 3, 2026');
    expect(dec3.getAttribute('aria-disabled')).toBeNull();
    const description = (dec3.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent)
      .join(' ');
    expect(description).toContain('Requested by someone: the lender may approve them first.');
    // A day nobody asked for says nothing of the kind.
    expect(day('Saturday, December 5, 2026').getAttribute('aria-describedby')).toBeNull();
    fireEvent.click(dec3);
    expect(onChange).toHaveBeenLastCalledWith({ startDate: '2026-12-03', endDate: '2026-12-03' });
  });

  it('says nothing of requests when there are none (or the server does not say)', () => {
    render(<Harness a={availability()} initial={{ startDate: '2026-12-01', endDate: '2026-12-01' }} />);
    expect(screen.queryByText(/Requested by someone/)).toBeNull();
  });
});
