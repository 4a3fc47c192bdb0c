import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CANCELLATION_POLICIES, CANCELLATION_POLICY_TEXT } from '#shared/booking/cancellation-policy.ts';
import { i18n } from '../../../lib/i18n.ts';
import { CancellationPolicyNote, POLICY_TEXT, termsText } from './cancellation-policy-note.tsx';

describe('cancellation policy note', () => {
  it('names the campus deadline and both refunds for the chosen dates', () => {
    // Moderate, starting Thu Dec 10: in full until Mon Dec 7, 12:00 AM campus time; $20 + half of $20.01 after.
    expect(termsText('moderate', { startDate: '2026-12-10', rentalCents: 2001, depositCents: 2000 })).toBe(
      'Cancel by Mon, Dec 7 at 12:00 AM and get $40.01 back; after that, $30.01.',
    );
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
