// Money arithmetic, in integer cents, shared by the web app and the server (ARCHITECTURE §4).

/** "12.5" or "12.50" → 1250; empty, null or undefined → null. The schema has already checked the shape. */
export function toCents(amount: string | number | null | undefined): number | null {
  if (amount === null || amount === undefined || amount === '') return null;
  const [whole = '0', fraction = ''] = String(amount).split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

/** 1250 → "12.50"; null stays null (spec §3: amounts are decimal strings in responses). */
export function centsToDecimal(cents: number | null | undefined): string | null {
  if (cents === null || cents === undefined) return null;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
