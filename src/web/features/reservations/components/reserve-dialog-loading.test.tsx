import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApi, stubApi } from '../../../../../tests/helpers/render-with-api.tsx';
import { ada } from '../../../../../tests/helpers/session-user.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { reservationKeys } from '../queries.ts';
import type { ReservableItem } from './reserve-cost.tsx';
import { ReserveDialog } from './reserve-dialog.tsx';

// The Reserve dialog prices the days with the server's service-fee rates: until they have come it is
// still loading, never "No dates available" for an item whose days are free; if they cannot be loaded
// it says so and tries again.

const item = {
  id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
  title: 'Film camera',
  rentalPrice: '5.00',
  rentalPeriod: 'day',
  depositAmount: '20.00',
  isAvailable: true,
  campus: 'stanford.edu',
  cancellationPolicy: 'flexible',
  user: { id: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a', fullName: 'Lena Park' },
} as unknown as ReservableItem;

const config = {
  body: {
    payments: { provider: 'test', publishableKey: null },
    fees: {
      serviceFeePercent: 10,
      serviceFeeMin: '1.00',
      serviceFeeMax: '15.00',
      lenderCommissionPercent: 0,
    },
  },
};

function answers(configAnswer: () => { status?: number; body: unknown }) {
  const today = new Date().toISOString().slice(0, 10);
  return stubApi({
    '/api/auth/me': { body: { user: ada } },
    '/api/config': configAnswer,
    [`/api/items/${item.id}/availability`]: {
      body: {
        today,
        availableFrom: '2026-01-01',
        availableUntil: null,
        availableDays: [0, 1, 2, 3, 4, 5, 6],
        booked: [],
      },
    },
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Reserve dialog while the service fee’s rates load', () => {
  it('keeps loading, not "No dates available", until the rates come, then shows the calendar', async () => {
    const api = answers(() => config);
    api.hold('/api/config');
    const queryClient = createQueryClient();
    renderWithApi(<ReserveDialog item={item} />, '/', queryClient);
    fireEvent.click(await screen.findByRole('button', { name: 'Reserve Item' }));
    const dialog = await screen.findByRole('dialog');
    // The body is a chunk of its own: the first opening waits for it.
    await within(dialog).findByText('Loading available dates...', {}, { timeout: 10_000 });
    // The dates have come and the dialog has heard (the query's observers are told on a timer); the
    // rates have not.
    await waitFor(() =>
      expect(queryClient.getQueryState(reservationKeys.availability(item.id))?.status).toBe('success'),
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(within(dialog).queryByText('No dates available')).toBeNull();
    expect(within(dialog).getByText('Loading available dates...')).toBeTruthy();

    api.release('/api/config');
    await within(dialog).findByRole('region', { name: 'Cost breakdown' });
    expect(within(dialog).queryByText('No dates available')).toBeNull();
  });

  it('says the dates could not be loaded when the rates fail, and Try again fetches them', async () => {
    let fails = true;
    const api = answers(() => (fails ? { status: 503, body: { message: 'Service unavailable' } } : config));
    renderWithApi(<ReserveDialog item={item} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Reserve Item' }));
    const dialog = await screen.findByRole('dialog');
    const again = await within(dialog).findByRole('button', { name: 'Try again' }, { timeout: 10_000 });
    expect(within(dialog).queryByText('No dates available')).toBeNull();
    fails = false;
    fireEvent.click(again);
    await within(dialog).findByRole('region', { name: 'Cost breakdown' });
    expect(api.calls.filter((url) => url === '/api/config').length).toBeGreaterThan(1);
  });
});
