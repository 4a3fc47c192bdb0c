import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { cn } from '../../../lib/cn.ts';
import { DAYS, dayLong, dayShort } from '../../../lib/item-labels.ts';

export const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];
const WEEKDAYS = [1, 2, 3, 4, 5];
const WEEKENDS = [0, 6];

/** Spec §2/§4: seven day toggles, three quick picks, a summary; the last day cannot be turned off. */
export function DaySelector({
  value,
  onChange,
  error,
}: {
  value: number[];
  onChange: (days: number[]) => void;
  error?: string;
}) {
  const { t } = useLingui();
  const selected = new Set(value);
  const dayCount = selected.size;
  const same = (days: number[]) => days.length === selected.size && days.every((d) => selected.has(d));
  const toggle = (day: number) => {
    if (selected.has(day)) {
      if (selected.size === 1) return;
      selected.delete(day);
    } else {
      selected.add(day);
    }
    onChange([...selected].sort((a, b) => a - b));
  };
  const quick: [string, string, number[]][] = [
    ['all', t`All Days`, ALL_DAYS],
    ['weekdays', t`Weekdays`, WEEKDAYS],
    ['weekends', t`Weekends`, WEEKENDS],
  ];

  return (
    <fieldset
      className="space-y-3"
      aria-describedby={error ? 'availableDays-error' : 'availableDays-summary'}
    >
      <legend className="text-sm font-semibold text-ink">
        <Trans>Available days</Trans>
      </legend>
      <div className="flex flex-wrap gap-2">
        {quick.map(([key, label, days]) => (
          <button
            key={key}
            type="button"
            onClick={() => onChange([...days])}
            aria-pressed={same(days)}
            className={cn(
              'min-h-11 rounded-full border px-4 text-sm font-semibold transition-colors',
              same(days)
                ? 'border-brand-700 bg-brand-50 text-brand-800'
                : 'border-stone-300 bg-white text-stone-700 hover:bg-stone-50',
            )}
          >
            {label}
          </button>
        ))}
      </div>
      <div className="grid grid-cols-7 gap-1 sm:flex sm:gap-2">
        {DAYS.map((day) => {
          const on = selected.has(day);
          return (
            <button
              key={day}
              type="button"
              onClick={() => toggle(day)}
              aria-pressed={on}
              aria-label={dayLong(day)}
              title={on && selected.size === 1 ? t`At least one day must stay selected` : undefined}
              className={cn(
                'flex h-11 min-w-0 items-center justify-center rounded-lg border text-sm font-semibold transition-colors sm:w-14',
                on
                  ? 'border-brand-700 bg-brand-700 text-white hover:bg-brand-800'
                  : 'border-stone-300 bg-white text-stone-700 hover:bg-stone-50',
              )}
            >
              {dayShort(day)}
            </button>
          );
        })}
      </div>
      <p id="availableDays-summary" className="text-sm font-medium text-brand-800" aria-live="polite">
        {selected.size === 7 ? (
          <Trans>Available every day</Trans>
        ) : (
          <Plural value={dayCount} one="Available # day(s) per week" other="Available # day(s) per week" />
        )}
      </p>
      {error && (
        <p id="availableDays-error" role="alert" className="text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </fieldset>
  );
}
