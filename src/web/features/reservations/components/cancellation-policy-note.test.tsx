import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CANCELLATION_POLICIES,
  CANCELLATION_POLICY_TEXT,
  cancellationDeadline,
} from '#shared/booking/cancellation-policy.ts';
import { activateLocale, i18n } from '../../../lib/i18n.ts';
import { CancellationPolicyNote, POLICY_TEXT, termsText } from './cancellation-policy-note.tsx';

describe('cancellation policy note', () => {
  it('names the campus deadline and both refunds for the chosen dates', () => {
    // Moderate, starting Thu Dec 10: in full until Mon Dec 7, 12:00 AM campus time; $20 + half of $20.01 after.
    const now = new Date('2026-11-28T18:00:00Z');
    expect(
      termsText('moderate', { startDate: '2026-12-10', rentalCents: 2001, depositCents: 2000 }, now),
    ).toBe('Cancel by Mon, Dec 7 at 12:00 AM and get $40.01 back; after that, $30.01.');
  });

  it('says the policy in words without dates', () => {
    render(<CancellationPolicyNote policy="strict" />);
    expect(screen.getByText(/Strict cancellation:/).parentElement?.textContent).toContain(
      '50% of the rental back until 7 days before the start',
    );
  });

  it('says each policy in the same English as src/shared (the listing form and the server)', () => {
    for (const policy of CANCELLATION_POLICIES) {
      expect(i18n._(POLICY_TEXT[policy])).toBe(CANCELLATION_POLICY_TEXT[policy]);
    }
  });
});

describe('the refund sentence never names a deadline that has passed', () => {
  afterEach(async () => {
    await activateLocale('en');
  });
  const TZ = 'America/Los_Angeles';
  const ms = (d: Date, n: number) => new Date(d.getTime() + n);
  const paid = { startDate: '2026-12-10', rentalCents: 3100, depositCents: 2000 };

  // Per policy: the sentence up to the deadline, and the one a millisecond after it.
  const expected = {
    flexible: [
      'Cancel by Wed, Dec 9 at 12:00 AM and get $51.00 back; after that, $20.00.',
      'If you cancel now, only the $20.00 deposit comes back.',
    ],
    moderate: [
      'Cancel by Mon, Dec 7 at 12:00 AM and get $51.00 back; after that, $35.50.',
      'If you cancel now, you get $35.50 back.',
    ],
    strict: [
      'Cancel by Thu, Dec 3 at 12:00 AM and get $35.50 back; after that, $20.00.',
      'If you cancel now, only the $20.00 deposit comes back.',
    ],
  } as const;

  for (const policy of CANCELLATION_POLICIES) {
    it(`${policy}: before, at and after the deadline`, () => {
      const deadline = cancellationDeadline(policy, paid.startDate, TZ);
      const [open, closed] = expected[policy];
      expect(termsText(policy, paid, ms(deadline, -1))).toBe(open);
      expect(termsText(policy, paid, deadline)).toBe(open);
      expect(termsText(policy, paid, ms(deadline, 1))).toBe(closed);
      expect(termsText(policy, paid, new Date('2026-12-10T20:00:00Z'))).toBe(closed);
    });
  }

  it('says a booking with nothing to refund is non-refundable once the deadline is gone', () => {
    const noDeposit = { startDate: '2026-11-28', rentalCents: 3100, depositCents: 0 };
    expect(termsText('flexible', noDeposit, new Date('2026-11-28T20:00:00Z'))).toBe(
      'Non-refundable if you cancel now.',
    );
  });

  it('names one amount when no rental can be kept', () => {
    const depositOnly = { startDate: '2026-11-28', rentalCents: 0, depositCents: 2000 };
    expect(termsText('strict', depositOnly, new Date('2026-11-28T20:00:00Z'))).toBe(
      'Cancel before pickup and get $20.00 back.',
    );
  });

  it('on a start day of today, the note in the dialog says what a cancellation now returns', () => {
    render(
      <CancellationPolicyNote
        policy="flexible"
        booking={{ startDate: '2026-11-28', rentalCents: 3100, depositCents: 2000 }}
        now={new Date('2026-11-28T18:00:00Z')}
      />,
    );
    const note = screen.getByText(/Flexible cancellation:/).parentElement?.textContent ?? '';
    expect(note).toContain('If you cancel now, only the $20.00 deposit comes back.');
    expect(note).not.toContain('Cancel by');
  });

  it('says the same in Spanish', async () => {
    await activateLocale('es');
    const now = new Date('2026-11-28T18:00:00Z');
    const today = { startDate: '2026-11-28', rentalCents: 3100, depositCents: 2000 };
    expect(termsText('flexible', today, now)).toBe(
      'Si cancelas ahora, solo recuperas el depósito de $20.00.',
    );
    expect(termsText('moderate', today, now)).toBe('Si cancelas ahora, recuperas $35.50.');
    expect(termsText('flexible', { ...today, depositCents: 0 }, now)).toBe(
      'Sin reembolso si cancelas ahora.',
    );
    expect(termsText('strict', { ...today, rentalCents: 0 }, now)).toBe(
      'Cancela antes de la recogida y recuperas $20.00.',
    );
  });
});
