import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '../../lib/i18n.ts';
import { answerWindowNote } from './answer-window.ts';

// The Reserve dialog's line on how long a request waits (decision 057), from the server's answer-by time.

describe('the Reserve dialog’s answer window', () => {
  afterEach(() => activateLocale('en'));

  it('says by when the lender answers, and that a card is held six days at most', () => {
    expect(answerWindowNote('Maya Chen', '2026-12-04T23:00:00.000Z')).toBe(
      'If Maya Chen has not answered by Fri, Dec 4 at 3:00 PM, the request ends and the hold on your card is released. A card is never held for a request longer than 6 days.',
    );
  });

  it('says it in Spanish', async () => {
    await activateLocale('es');
    const note = answerWindowNote('Maya Chen', '2026-12-04T23:00:00.000Z');
    expect(note).toMatch(/^Si Maya Chen no ha respondido para el vie, 4 de dic/);
    expect(note).toMatch(/más de 6 días\.$/);
  });
});
