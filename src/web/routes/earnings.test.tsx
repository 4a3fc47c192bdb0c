import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '#shared/schemas/auth.ts';
import type { PayoutsResponse } from '#shared/schemas/payouts.ts';
import { renderWithApi, stubApi } from '../../../tests/helpers/render-with-api.tsx';
import EarningsRoute from './earnings.tsx';

// The Earnings page (decision 068) with real-looking answers: each transfer's purpose and status in
// words, no figure for one whose amount is not decided yet, the way to finish payouts, the empty and the
// failed states.

const lender: SessionUser = {
  id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  email: 'lena@stanford.edu',
  username: 'lena',
  fullName: 'Lena Lends',
  campus: 'stanford.edu',
  campusName: 'Stanford University',
  profileImage: null,
  isVerified: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  isAdmin: false,
  locale: 'en',
};

const booking = '00000000-0000-4000-8000-0000000000aa';
const transfer = (over: Partial<PayoutsResponse['transfers'][number]>) => ({
  id: crypto.randomUUID(),
  reservationId: booking,
  itemTitle: 'Tripod',
  amount: '0.00',
  purpose: 'rental_rest' as const,
  status: 'scheduled' as const,
  releaseAt: '2026-11-30T18:00:00.000Z',
  sentAt: null,
  paidOutAt: null,
  ...over,
});

const payouts: PayoutsResponse = {
  account: { status: 'action_needed', requirementsDue: ['external_account'] },
  totals: { earned: '42.50', sent: '12.00', upcoming: '30.50' },
  transfers: [
    transfer({ purpose: 'rental_rest', status: 'waiting_account' }),
    transfer({
      purpose: 'rental_secured',
      status: 'sent',
      amount: '12.00',
      sentAt: '2026-11-25T18:00:00.000Z',
      paidOutAt: '2026-11-27T18:00:00.000Z',
    }),
    transfer({
      reservationId: null,
      itemTitle: null,
      purpose: 'deposit_kept',
      status: 'failed',
      amount: '5.00',
    }),
  ],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Earnings page', () => {
  it('says each transfer in words, and leads to finish setting up payouts', async () => {
    stubApi({ '/api/auth/me': { body: { user: lender } }, '/api/payouts': { body: payouts } });
    renderWithApi(<EarningsRoute />, '/earnings');
    const rows = await screen.findAllByTestId('earnings-transfer');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(
        /TripodThe rest of the rentalWaiting for your payout detailsAmount set when sent/,
      ),
      expect.stringMatching(/TripodFirst part of the rentalPaid to your bank Nov 27, 2026\$12\.00/),
      expect.stringMatching(/A bookingKept from the depositFailed\$5\.00/),
    ]);
    const totals = screen.getByTestId('earnings-totals');
    expect(within(totals).getByText('$42.50')).toBeTruthy();
    expect(within(totals).getByText('$30.50')).toBeTruthy();
    const finish = screen.getByRole('link', { name: 'Finish setting up payouts' });
    expect(finish.getAttribute('href')).toBe('/settings#get-paid');
    expect(screen.getByRole('button', { name: 'Open my Stripe dashboard' })).toBeTruthy();
  });

  it('with nothing earned, points to listing an item', async () => {
    stubApi({
      '/api/auth/me': { body: { user: lender } },
      '/api/payouts': {
        body: {
          account: { status: 'active', requirementsDue: [] },
          totals: { earned: '0.00', sent: '0.00', upcoming: '0.00' },
          transfers: [],
        },
      },
    });
    renderWithApi(<EarningsRoute />, '/earnings');
    await screen.findByRole('heading', { name: 'No earnings yet' });
    expect(screen.getByRole('link', { name: 'List an item' }).getAttribute('href')).toBe('/list-item');
    // Active payouts: nothing to set up.
    expect(screen.queryByTestId('earnings-payouts-status')).toBeNull();
  });

  it('shows the loading state, then says it could not load and tries again', async () => {
    let fail = true;
    const api = stubApi({
      '/api/auth/me': { body: { user: lender } },
      '/api/payouts': () => (fail ? { status: 503, body: { message: 'Down' } } : { body: payouts }),
    });
    api.hold('/api/payouts');
    renderWithApi(<EarningsRoute />, '/earnings');
    await screen.findByText('Loading your earnings...');
    api.release('/api/payouts');
    await screen.findByText('Your earnings could not be loaded.', {}, { timeout: 5000 });
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getAllByTestId('earnings-transfer')).toHaveLength(3));
  });
});
