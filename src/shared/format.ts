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
