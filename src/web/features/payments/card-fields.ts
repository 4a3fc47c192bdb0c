// What the test card form does to what a person types (components/card-payment-form.tsx).

/** '4242424242424242' → '4242 4242 4242 4242'. */
export function groupDigits(value: string): string {
  return value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * '1230' → '12 / 30': the slash appears as the year starts. A one-digit month is padded: '7/29' typed or
 * pasted with its slash becomes '07 / 29', and a first digit from 2 to 9, which no two-digit month
 * starts with, becomes '0' and that digit ('7' → '07'). Without it '7/29' read as month 72.
 */
export function formatExpiry(value: string): string {
  let digits = value.replace(/\D/g, '');
  if (/^\s*\d\s*\//.test(value) || /^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** 'MM / YY', 'M/YY' or 'MM/YYYY' → month and full year; null when it is none of these. */
export function parseExpiry(value: string): { expMonth: number; expYear: number } | null {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!m) return null;
  const year = Number(m[2]);
  return { expMonth: Number(m[1]), expYear: year < 100 ? 2000 + year : year };
}
