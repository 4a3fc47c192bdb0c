import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { format } from 'date-fns';
import { intlLocale } from '#shared/format.ts';
import { dateFnsLocale } from './i18n.ts';

// Times as the chat, the notifications and the moderators' pages write them, in the active language:
// the spec's English patterns ('MMM d, yyyy • h:mm a'), and the Spanish order of day and
// month ('5 mar 2026 • 3:04 p.m.'). Call them while rendering, so they follow a change of language.

const PATTERNS = {
  en: {
    dateTime: 'MMM d, yyyy • h:mm a',
    date: 'MMM d, yyyy',
    day: 'MMM d',
    time: 'h:mm a',
    month: 'MMMM yyyy',
  },
  es: {
    // 'aaaa': 'p.m.', as Intl writes it for es-US ('a' would be 'PM').
    dateTime: 'd MMM yyyy • h:mm aaaa',
    date: 'd MMM yyyy',
    day: 'd MMM',
    time: 'h:mm aaaa',
    month: "MMMM 'de' yyyy",
  },
} as const;

export type TimeLabel = keyof (typeof PATTERNS)['en'];

/** An instant in one of the spec's shapes: 'dateTime' 'Mar 5, 2026 • 3:04 PM', 'date', 'day' 'Mar 5', 'time', 'month'. */
export function formatTime(value: string | Date, label: TimeLabel): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return i18n.locale === 'es'
    ? format(date, PATTERNS.es[label], { locale: dateFnsLocale() })
    : format(date, PATTERNS.en[label]);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 60 * 60],
  ['month', 30 * 24 * 60 * 60],
  ['day', 24 * 60 * 60],
  ['hour', 60 * 60],
  ['minute', 60],
];

/**
 * How long ago (or, with a fast clock, how soon) an instant is: 'just now', '5 minutes ago',
 * 'yesterday', '3 months ago'; 'hace 5 minutos', 'ayer' in Spanish (Intl's plurals for each language).
 */
export function relativeTime(value: string | Date, now: number = Date.now()): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return t`just now`;
  const rtf = new Intl.RelativeTimeFormat(intlLocale(), { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(Math.round(seconds / 60), 'minute');
}

/** The two, for a component: it renders again when the language changes. */
export function useTimeLabels() {
  useLingui();
  return { formatTime, relativeTime };
}
