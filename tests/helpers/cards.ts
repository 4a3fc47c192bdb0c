// Test cards expire a few years after today, like a card in a wallet. The built-in test provider (as
// Stripe does) refuses a card whose month has passed (checkTestCard in
// src/server/adapters/payments/test-provider.ts), so a fixed year would turn every payment test red
// the month it went by.

export interface CardExpiry {
  expMonth: number;
  expYear: number;
}

/** `month` of the year `yearsAhead` after today's. */
export function cardExpiry(month: number, yearsAhead = 4, today = new Date()): CardExpiry {
  return { expMonth: month, expYear: today.getUTCFullYear() + yearsAhead };
}

/** As a person types it into the card form: 'MM / YY'. */
export function typedExpiry({ expMonth, expYear }: CardExpiry): string {
  return `${String(expMonth).padStart(2, '0')} / ${String(expYear % 100).padStart(2, '0')}`;
}
