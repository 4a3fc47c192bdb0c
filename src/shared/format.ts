// Display rules shared by every screen (spec §9 number display).

/** Cents to '$1,234.50'. */
export function formatMoney(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Spec §2 Item card: FREE when empty or zero, else $ with 2 decimals. */
export function formatPrice(amount: string | number | null | undefined): string {
  const n = typeof amount === 'string' ? Number.parseFloat(amount) : (amount ?? 0);
  return !n || Number.isNaN(n) ? 'FREE' : `$${n.toFixed(2)}`;
}

/** Spec §9: money saved with thousands separators, in whole dollars ('12.50' → '$13', 1234 → '$1,234'). */
export function formatMoneySaved(dollars: string | number): string {
  return `$${Math.round(Number(dollars)).toLocaleString('en-US')}`;
}

/** Spec §9: CO2 in (metric) tons with one decimal and the suffix 'T' (1250 kg → '1.3T'). */
export function formatCo2Tons(kg: number): string {
  return `${(kg / 1000).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}T`;
}

const POUNDS_PER_KG = 2.20462;

/** Spec §9: waste in pounds with no decimals (100 kg → '220 lbs'). */
export function formatWasteLbs(kg: number): string {
  return `${Math.round(kg * POUNDS_PER_KG).toLocaleString('en-US')} lbs`;
}

/**
 * One person's or one category's CO2, too small for tons to say anything ('0.0T'): kilograms with
 * one decimal up to a ton, then tons as spec §9 shows them.
 */
export function formatCo2Small(kg: number): string {
  return kg >= 1000
    ? formatCo2Tons(kg)
    : `${kg.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 1 })} kg`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A calendar day ('2026-03-05') as notifications name it: 'Mar 5'. Read from the text, so no time zone
 * can move it to another day; written out here because date-fns' format cost the server a fifth of a
 * second of module loading at every start for this one pattern.
 */
export function formatDayLabel(date: string): string {
  const [, month, day] = date.split('-');
  return `${MONTHS[Number(month) - 1]} ${Number(day)}`;
}
