import { i18n } from '@lingui/core';
import { INTL_LOCALE, isLocale } from './i18n.ts';

// Display rules shared by every screen (spec §9 number display), in the language the app speaks at the
// moment: the browser's active language, or on the server the recipient's (server/i18n.ts).

/** The BCP 47 tag Intl writes numbers and dates with for the active language ('en-US', 'es-US'). */
export function intlLocale(): string {
  return isLocale(i18n.locale) ? INTL_LOCALE[i18n.locale] : INTL_LOCALE.en;
}

/** Cents to '$1,234.50'. */
export function formatMoney(cents: number): string {
  return `$${(cents / 100).toLocaleString(intlLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Spec §2 Item card: FREE when empty or zero, else $ with 2 decimals. */
export function formatPrice(amount: string | number | null | undefined): string {
  const n = typeof amount === 'string' ? Number.parseFloat(amount) : (amount ?? 0);
  return !n || Number.isNaN(n) ? i18n._(/*i18n*/ { id: 'format.free', message: 'FREE' }) : `$${n.toFixed(2)}`;
}

/** Spec §9: money saved with thousands separators, in whole dollars ('12.50' → '$13', 1234 → '$1,234'). */
export function formatMoneySaved(dollars: string | number): string {
  return `$${Math.round(Number(dollars)).toLocaleString(intlLocale())}`;
}

/** Spec §9: CO2 in (metric) tons with one decimal and the suffix 'T' (1250 kg → '1.3T'). */
export function formatCo2Tons(kg: number): string {
  return `${(kg / 1000).toLocaleString(intlLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 })}T`;
}

/**
 * A campus's CO2 saved, as the impact figures show it (decision 060): kilograms below one ton
 * ('320 kg', one decimal under 10 kg so a first borrow does not read '0 kg'), tons with one decimal
 * and spec §9's 'T' from a ton up ('1.3T'). Spec §9's tons alone made a young campus read '0.3T' or
 * '0.0T', which says nothing was saved.
 */
export function formatCo2(kg: number): string {
  const safe = Number.isFinite(kg) && kg > 0 ? kg : 0;
  const digits = safe < 10 ? 1 : 0;
  // Rounded as it will be shown, so 999.7 kg is '1.0T' rather than '1,000 kg'.
  const shown = Number(safe.toFixed(digits));
  if (shown >= 1000) return formatCo2Tons(safe);
  const amount = shown.toLocaleString(intlLocale(), {
    minimumFractionDigits: 0,
    maximumFractionDigits: digits,
  });
  return i18n._(/*i18n*/ { id: 'format.kilograms', message: '{amount} kg', values: { amount } });
}

const POUNDS_PER_KG = 2.20462;

/** Spec §9: waste in pounds with no decimals (100 kg → '220 lbs'). */
export function formatWasteLbs(kg: number): string {
  const pounds = Math.round(kg * POUNDS_PER_KG).toLocaleString(intlLocale());
  return i18n._(/*i18n*/ { id: 'format.pounds', message: '{pounds} lbs', values: { pounds } });
}

/**
 * One person's or one category's CO2, too small for tons to say anything ('0.0T'): kilograms with
 * one decimal up to a ton, then tons as spec §9 shows them.
 */
export function formatCo2Small(kg: number): string {
  return kg >= 1000
    ? formatCo2Tons(kg)
    : `${kg.toLocaleString(intlLocale(), { minimumFractionDigits: 0, maximumFractionDigits: 1 })} kg`;
}

/**
 * A calendar day ('2026-03-05') as notifications name it: 'Mar 5' ('5 mar' in Spanish). Read from the
 * text and written in UTC, so no time zone can move it to another day.
 */
export function formatDayLabel(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return dayFormatter(intlLocale()).format(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1));
}

/**
 * One formatter per language: making one costs tens of microseconds, and every notification a poll
 * lists names its days with it.
 */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();
function dayFormatter(locale: string): Intl.DateTimeFormat {
  let formatter = dayFormatters.get(locale);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
    dayFormatters.set(locale, formatter);
  }
  return formatter;
}
