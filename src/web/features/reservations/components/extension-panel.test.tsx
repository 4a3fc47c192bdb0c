import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Extension } from '#shared/schemas/extensions.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { renderWithApi, stubApi } from '../../../../../tests/helpers/render-with-api.tsx';
import {
  aReservation,
  BORROWER,
  RESERVATION as ID,
  ITEM,
  LENDER,
} from '../../../../../tests/helpers/reservation-view.ts';
import { ExtensionPanel } from './extension-panel.tsx';
import { ReservationCard } from './reservation-card.tsx';

// The card of a booking with a request for more days says what was asked, for how much and who must
// answer; the lender approves or declines it there, the borrower may take it back; an approved or
// picked-up booking offers the borrower 'Ask for more days'.

const EXT = '0d1c2b3a-4f5e-4d6c-8b7a-9f8e7d6c5b4a';

const pending = (overrides: Partial<Extension> = {}): Extension => ({
  id: EXT,
  reservationId: ID,
  previousEndDate: '2026-12-01',
  newEndDate: '2026-12-03',
  rentalAmount: '8.00',
  serviceFeeAmount: '0.00',
  status: 'pending',
  respondBy: '2026-12-02T08:00:00.000Z',
  createdAt: '2026-11-30T10:00:00.000Z',
  ...overrides,
});

const booking = (overrides: Partial<Reservation> = {}) => aReservation(overrides);

function renderCard(as: 'borrower' | 'lender', reservation: Reservation) {
  const viewerId = as === 'borrower' ? BORROWER : LENDER;
  return renderWithApi(
    <ReservationCard
      reservation={reservation}
      viewerId={viewerId}
      busy={false}
      onApprove={vi.fn()}
      onDecline={vi.fn()}
      onUpdateStatus={vi.fn(() => Promise.resolve())}
    >
      <ExtensionPanel reservation={reservation} viewerId={viewerId} />
    </ReservationCard>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a request for more days on the card', () => {
  it('the lender reads what was asked and for how much, and approves it there', async () => {
    const api = stubApi({
      [`/api/extensions/${EXT}/approve`]: {
        body: { success: true, extension: pending({ status: 'approved' }) },
      },
    });
    renderCard('lender', booking({ pendingExtension: pending() }));
    expect(screen.getByText('Extension requested to Dec 3', { exact: false }).closest('p')?.textContent).toBe(
      'Extension requested to Dec 3 · $8.00 · waiting for you',
    );
    expect(screen.getByText(/Jordan Lee asks to return it on Dec 3 instead of Dec 1/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Decline extension' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Take back request' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Approve extension' }));
    await vi.waitFor(() => expect(api.calls).toContain(`/api/extensions/${EXT}/approve`));
  });

  it('the borrower sees whom it waits for and may take it back, but not answer it', async () => {
    const api = stubApi({
      [`/api/extensions/${EXT}/cancel`]: {
        body: { success: true, extension: pending({ status: 'cancelled' }) },
      },
    });
    renderCard('borrower', booking({ pendingExtension: pending() }));
    expect(screen.getByText('Extension requested to Dec 3', { exact: false }).closest('p')?.textContent).toBe(
      'Extension requested to Dec 3 · $8.00 · waiting for Maya Chen',
    );
    expect(screen.queryByRole('button', { name: 'Approve extension' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ask for more days' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Take back request' }));
    await vi.waitFor(() => expect(api.calls).toContain(`/api/extensions/${EXT}/cancel`));
  });

  it('the booking’s amount counts the extra rental of approved extensions', () => {
    stubApi({});
    renderCard('borrower', booking({ extraRentalAmount: '8.00' }));
    // The booking's own service fee is its own part; the extra days' follow.
    expect(screen.getByText(/\$12\.00 rental \+ \$1\.20 service fee \+ \$8\.00 for more days/)).toBeTruthy();
  });

  it('says so when the days cost nothing more', () => {
    stubApi({});
    renderCard('lender', booking({ pendingExtension: pending({ rentalAmount: '0.00' }) }));
    expect(screen.getByText('Extension requested to Dec 3', { exact: false }).closest('p')?.textContent).toBe(
      'Extension requested to Dec 3 · No extra charge · waiting for you',
    );
  });
});

/** The server's rates (GET /api/config): the dialog prices the fee with them. */
const CONFIG = {
  payments: { provider: 'test', publishableKey: null },
  fees: { serviceFeePercent: 10, serviceFeeMin: '1.00', serviceFeeMax: '15.00', lenderCommissionPercent: 0 },
};

describe('asking for more days', () => {
  const freeItem = {
    item: {
      id: ITEM,
      rentalPrice: null,
      rentalPeriod: null,
      depositAmount: null,
      availableFrom: '2026-01-01',
      availableUntil: '2026-12-05',
      availableDays: [0, 1, 2, 3, 4, 5, 6],
    },
    reviews: [],
  };

  it('the borrower of an approved or picked-up booking chooses a day inside the lender’s window and sends it', async () => {
    const api = stubApi({
      [`/api/items/${ITEM}`]: { body: freeItem },
      '/api/config': { body: CONFIG },
      [`/api/reservations/${ID}/extensions`]: { status: 201, body: { success: true, extension: pending() } },
    });
    renderCard('borrower', booking());
    fireEvent.click(screen.getByRole('button', { name: 'Ask for more days' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ask for more days' });
    const day = within(dialog).getByLabelText('New return date');
    expect((day as HTMLInputElement).value).toBe('2026-12-02');
    fireEvent.change(day, { target: { value: '2026-12-08' } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This item is available until Dec 5.',
    );
    fireEvent.change(day, { target: { value: '2026-12-03' } });
    expect(await within(dialog).findByText('Extra rental: No extra charge')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send request' }));
    await vi.waitFor(() => expect(api.calls).toContain(`/api/reservations/${ID}/extensions`));
  });

  it('is not offered to the lender, nor on a booking that is over', () => {
    stubApi({});
    renderCard('lender', booking());
    expect(screen.queryByRole('button', { name: 'Ask for more days' })).toBeNull();
    cleanup();
    renderCard('borrower', booking({ status: 'completed' }));
    expect(screen.queryByRole('button', { name: 'Ask for more days' })).toBeNull();
  });
});
