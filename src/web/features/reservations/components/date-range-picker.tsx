import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import {
  addDays,
  type DayRange,
  isBookableRange,
  isSelectableDay as isSelectableShared,
  weekdayOf,
} from '#shared/booking/availability.ts';
import { LIMITS } from '#shared/constants.ts';
import type { Availability } from '#shared/schemas/reservations.ts';
import { IconTooltip, TooltipProvider } from '../../../components/ui/tooltip.tsx';
import { cn } from '../../../lib/cn.ts';
import { dayLabel, dayLabelYearApart, weekdayNames } from '../dates.ts';

// The Reserve dialog's dates (spec §2, §5): one month calendar that sets the start, then the end.
// Days are calendar days 'YYYY-MM-DD' throughout, so no time zone ever shifts a date. Which days can be
// picked is the shared rule of src/shared/availability.ts, the one the server checks.
// Keyboard (the WAI-ARIA date picker grid): arrows move a day or a week, Home/End the week's ends,
// Page Up/Down a month, Enter or Space picks the focused day.

export type DateRange = DayRange;

const noon = (day: string) => new Date(`${day}T12:00:00Z`);

/** The same day of another month, clamped to that month's length ('2026-01-31' + 1 → '2026-02-28'). */
function addMonths(day: string, n: number): string {
  const d = noon(day);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1, 12));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0, 12)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return target.toISOString().slice(0, 10);
}

const monthOf = (day: string) => `${day.slice(0, 7)}-01`;

/** A day someone may pick up or return the item (the shared rule the server checks too). */
export function isSelectableDay(day: string, a: Availability): boolean {
  return isSelectableShared(day, a);
}

/** An end for this start: a bookable range by the shared rule, and at most LIMITS.bookingDaysMax days. */
export function isValidEnd(startDate: string, endDate: string, a: Availability): boolean {
  return (
    // A booking is at most LIMITS.bookingDaysMax days (the server refuses longer); later days are greyed out.
    endDate <= addDays(startDate, LIMITS.bookingDaysMax) &&
    isSelectableDay(endDate, a) &&
    isBookableRange({ startDate, endDate }, a)
  );
}

/** A day some request the lender has not answered asks for: bookable, but the lender may approve it first. */
export function isRequestedDay(day: string, a: Availability): boolean {
  return (a.requested ?? []).some((r) => r.startDate <= day && day <= r.endDate);
}

/** The chosen days include requested ones. */
export function includesRequestedDays(range: DateRange, a: Availability): boolean {
  return (a.requested ?? []).some((r) => r.startDate <= range.endDate && r.endDate >= range.startDate);
}

/** How far ahead the calendar looks for a free day (and lets anyone page). */
const HORIZON_DAYS = 2 * 366;

/**
 * Spec §5: start today and end 7 days later when those can be picked; else the first day that can
 * be, and the end as close to a week after it as the bookings and weekdays allow. Null when nothing
 * within two years can be booked.
 */
export function defaultRange(a: Availability, lengthDays = 7): DateRange | null {
  let start: string | null = null;
  for (let i = 0, day = a.today; i < HORIZON_DAYS; i++, day = addDays(day, 1)) {
    if (isSelectableDay(day, a)) {
      start = day;
      break;
    }
  }
  if (!start) return null;
  for (let n = lengthDays; n > 0; n--) {
    const end = addDays(start, n);
    if (isValidEnd(start, end, a)) return { startDate: start, endDate: end };
  }
  return { startDate: start, endDate: start };
}

export function DateRangePicker({
  availability,
  value,
  onChange,
}: {
  availability: Availability;
  value: DateRange;
  onChange: (next: DateRange) => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const [editing, setEditing] = useState<'start' | 'end'>('start');
  const [focused, setFocused] = useState(value.startDate);
  const [month, setMonth] = useState(monthOf(value.startDate));
  const gridRef = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(false);

  const minMonth = monthOf(availability.today);
  const lastDay = availability.availableUntil ?? addDays(availability.today, HORIZON_DAYS);
  const maxMonth = monthOf(lastDay < availability.today ? availability.today : lastDay);
  const minDay = minMonth;
  const maxDay = addDays(addMonths(maxMonth, 1), -1);

  const canPick = (day: string) =>
    editing === 'start' ? isSelectableDay(day, availability) : isValidEnd(value.startDate, day, availability);

  // After a key moves the focus (perhaps into another month), the new day's button takes it.
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-day="${focused}"]`)?.focus();
  }, [focused]);

  const focusDay = (day: string) => {
    const clamped = day < minDay ? minDay : day > maxDay ? maxDay : day;
    moveFocus.current = true;
    setFocused(clamped);
    setMonth(monthOf(clamped));
  };

  const pick = (day: string) => {
    if (!canPick(day)) return;
    setFocused(day);
    if (editing === 'start') {
      const endDate = isValidEnd(day, value.endDate, availability) ? value.endDate : day;
      onChange({ startDate: day, endDate });
      setEditing('end');
    } else {
      onChange({ startDate: value.startDate, endDate: day });
    }
  };

  const edit = (which: 'start' | 'end') => {
    setEditing(which);
    const day = which === 'start' ? value.startDate : value.endDate;
    setFocused(day);
    setMonth(monthOf(day));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(focused, -1),
      ArrowRight: () => addDays(focused, 1),
      ArrowUp: () => addDays(focused, -7),
      ArrowDown: () => addDays(focused, 7),
      Home: () => addDays(focused, -weekdayOf(focused)),
      End: () => addDays(focused, 6 - weekdayOf(focused)),
      PageUp: () => addMonths(focused, event.shiftKey ? -12 : -1),
      PageDown: () => addMonths(focused, event.shiftKey ? 12 : 1),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    focusDay(move());
  };

  const showMonth = (delta: number) => {
    const next = addMonths(month, delta);
    setMonth(next);
    // Keep the roving focus inside the month on show: its first day, or the chosen one if there.
    const chosen = editing === 'start' ? value.startDate : value.endDate;
    setFocused(monthOf(chosen) === next ? chosen : next < minDay ? minDay : next);
  };

  const weeks = monthWeeks(month);
  // Exactly one day of the shown month takes Tab (the roving tabindex).
  const tabbable = monthOf(focused) === month ? focused : month;
  const maxDays = LIMITS.bookingDaysMax;
  const hint =
    editing === 'start'
      ? t`Choose the day you pick the item up.`
      : t`Choose the day you return the item (at most ${maxDays} days later).`;
  const monthTitle = dayLabel(month, 'month');

  return (
    <fieldset className="min-w-0 space-y-3">
      <legend className="text-sm font-semibold text-ink">
        <Trans>Borrowing dates</Trans>
      </legend>
      <div className="grid grid-cols-2 gap-2">
        <RangeEnd
          label={t`Start date`}
          day={value.startDate}
          active={editing === 'start'}
          onClick={() => edit('start')}
        />
        <RangeEnd
          label={t`End date`}
          day={value.endDate}
          active={editing === 'end'}
          onClick={() => edit('end')}
        />
      </div>

      <div className="rounded-xl border border-line p-2 sm:p-3">
        <TooltipProvider>
          <div className="flex items-center justify-between gap-2">
            <IconTooltip label={t`Previous month`}>
              <button
                type="button"
                onClick={() => showMonth(-1)}
                disabled={month <= minMonth}
                aria-label={t`Previous month`}
                className="flex h-11 w-11 items-center justify-center rounded-lg text-ink hover:bg-stone-100 disabled:opacity-40"
              >
                <ChevronLeft className="rtl:-scale-x-100 h-5 w-5" aria-hidden="true" />
              </button>
            </IconTooltip>
            <h3 id={`${id}-month`} className="font-semibold text-ink" aria-live="polite">
              {monthTitle.charAt(0).toLocaleUpperCase() + monthTitle.slice(1)}
            </h3>
            <IconTooltip label={t`Next month`}>
              <button
                type="button"
                onClick={() => showMonth(1)}
                disabled={month >= maxMonth}
                aria-label={t`Next month`}
                className="flex h-11 w-11 items-center justify-center rounded-lg text-ink hover:bg-stone-100 disabled:opacity-40"
              >
                <ChevronRight className="rtl:-scale-x-100 h-5 w-5" aria-hidden="true" />
              </button>
            </IconTooltip>
          </div>
        </TooltipProvider>
        <p id={`${id}-hint`} className="mt-1 text-center text-sm text-muted" aria-live="polite">
          {hint}
        </p>

        <table
          ref={gridRef}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA date picker pattern: a table with the grid role (its cells become gridcells) and arrow-key navigation.
          role="grid"
          aria-labelledby={`${id}-month`}
          aria-describedby={`${id}-hint`}
          onKeyDown={onKeyDown}
          className="mt-2 w-full table-fixed border-collapse"
        >
          <thead>
            <tr>
              {weekdayNames().map(([short, long]) => (
                <th
                  key={short}
                  scope="col"
                  abbr={long}
                  className="pb-1 text-center text-xs font-semibold text-muted"
                >
                  {short}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={week.find(Boolean) ?? 'empty'}>
                {week.map((day, i) => {
                  // biome-ignore lint/suspicious/noArrayIndexKey: an empty slot's place in the week is its identity
                  if (!day) return <td key={`blank-${i}`} />;
                  const disabled = !canPick(day);
                  const isStart = day === value.startDate;
                  const isEnd = day === value.endDate;
                  const inRange = day > value.startDate && day < value.endDate;
                  // Shown on days that can still be picked: a booked or greyed-out day says so already.
                  const requested = !disabled && isRequestedDay(day, availability);
                  const state = isStart
                    ? `${id}-start`
                    : isEnd
                      ? `${id}-end`
                      : inRange
                        ? `${id}-in-range`
                        : disabled
                          ? `${id}-unavailable`
                          : undefined;
                  return (
                    <td key={day} className={cn('p-0.5', inRange && 'bg-brand-50')}>
                      <button
                        type="button"
                        data-day={day}
                        tabIndex={day === tabbable ? 0 : -1}
                        aria-label={dayLabel(day)}
                        aria-disabled={disabled || undefined}
                        aria-current={day === availability.today ? 'date' : undefined}
                        aria-describedby={
                          [state, requested && `${id}-requested`].filter(Boolean).join(' ') || undefined
                        }
                        onClick={() => pick(day)}
                        onFocus={() => setFocused(day)}
                        className={cn(
                          'relative flex h-11 w-full items-center justify-center rounded-lg text-sm tabular-nums',
                          disabled
                            ? 'cursor-not-allowed text-stone-400'
                            : 'font-medium text-ink hover:bg-brand-100',
                          inRange && !disabled && 'text-brand-900',
                          (isStart || isEnd) && 'bg-brand-700 font-bold text-white hover:bg-brand-800',
                          day === availability.today &&
                            !(isStart || isEnd) &&
                            'underline decoration-2 underline-offset-4',
                        )}
                      >
                        {Number(day.slice(8))}
                        {requested && (
                          <RequestedMark
                            className={cn(
                              'absolute bottom-1 start-1/2 -translate-x-1/2 rtl:translate-x-1/2',
                              isStart || isEnd ? 'bg-white' : 'bg-amber-600',
                            )}
                          />
                        )}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-2 text-xs text-muted">
          <Trans>Greyed-out days are past, outside the lender's availability or already booked.</Trans>
        </p>
        {(availability.requested ?? []).length > 0 && (
          <p className="mt-1 flex items-center gap-2 text-xs text-stone-700">
            <RequestedMark />
            <span id={`${id}-requested`}>
              <Trans>Requested by someone: the lender may approve them first.</Trans>
            </span>
          </p>
        )}
        <span hidden id={`${id}-start`}>
          <Trans>Start date</Trans>
        </span>
        <span hidden id={`${id}-end`}>
          <Trans>End date</Trans>
        </span>
        <span hidden id={`${id}-in-range`}>
          <Trans>Within your borrowing period</Trans>
        </span>
        <span hidden id={`${id}-unavailable`}>
          <Trans>Unavailable</Trans>
        </span>
      </div>
    </fieldset>
  );
}

/** The dot under a requested day, and beside its explanation. */
function RequestedMark({ className = 'bg-amber-600' }: { className?: string }) {
  return (
    <span aria-hidden="true" className={cn('inline-block h-1.5 w-1.5 shrink-0 rounded-full', className)} />
  );
}

function RangeEnd({
  label,
  day,
  active,
  onClick,
}: {
  label: string;
  day: string;
  active: boolean;
  onClick: () => void;
}) {
  const [date, year] = dayLabelYearApart(day);
  return (
    <button
      type="button"
      onClick={onClick}
      aria-pressed={active}
      className={cn(
        'min-h-11 rounded-lg border px-3 py-2 text-start',
        active
          ? 'border-brand-700 bg-brand-50 ring-1 ring-brand-700'
          : 'border-stone-300 bg-white hover:bg-stone-50',
      )}
    >
      <span className="block text-xs font-semibold text-muted">{label}</span>
      <span className="block font-semibold text-ink">
        {date}
        <span className="hidden sm:inline">{year}</span>
      </span>
    </button>
  );
}

/** The month's days in Sunday-first weeks, with nulls before the 1st and after the last day. */
function monthWeeks(firstOfMonth: string): (string | null)[][] {
  const cells: (string | null)[] = Array.from({ length: weekdayOf(firstOfMonth) }, () => null);
  for (let day = firstOfMonth; day.slice(0, 7) === firstOfMonth.slice(0, 7); day = addDays(day, 1)) {
    cells.push(day);
  }
  while (cells.length % 7) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}
