import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { renderWithApi, stubApi } from '../../../../../tests/helpers/render-with-api.tsx';
import { dayRange } from '../dates.ts';
import { openRequestsFor, requestSummary } from './my-request.tsx';
import { NextStep, nextStep } from './next-step.tsx';

// 'What happens next': who acts next and by when, per status and side; the item page's own request line;
// 'Message {name}' opens the reservation's chat.

const BORROWER = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const LENDER = '6f5e4d3c-2b1a-4c9d-8e7f-6a5b4c3d2e1f';
const ID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
const ITEM = '4b0c2f1e-8a3d-4e5f-9a6b-7c8d9e0f1a2b';

function reservation(overrides: Partial<Reservation> = {}): Reservation {
  return {
    id: ID,
    itemId: ITEM,
    borrowerId: BORROWER,
    providerId: LENDER,
    startDate: '2026-11-27',
    endDate: '2026-11-29',
    status: 'pending',
    depositAmount: '20.00',
    rentalAmount: '10.00',
    serviceFeeAmount: '0.00',
    stripePaymentIntentId: 'pi_1',
    pickupCode: null,
    declineReason: null,
    cancellationPolicy: 'flexible',
    cancelledBy: null,
    overdue: false,
    claim: null,
    createdAt: '2026-11-24T10:00:00.000Z',
    respondBy: '2026-11-26T10:00:00.000Z',
    pendingExtension: null,
    extraRentalAmount: '0.00',
    extraServiceFeeAmount: '0.00',
    pickedUpAt: null,
    handovers: [],
    rentalPeriod: null,
    rentalPayments: [],
    earlyReturn: null,
    item: { id: ITEM, title: 'Cordless drill', images: [], pickupMethod: 'meetup' },
    provider: { id: LENDER, fullName: 'Maya Chen', username: 'maya', profileImage: null },
    borrower: { id: BORROWER, fullName: 'Jordan Lee', username: 'jordan', profileImage: null },
    ...overrides,
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the next step of a reservation', () => {
  it('says who acts next and by when, for each side', () => {
    const by = /by Thu, Nov 26 at \d{1,2}:\d{2} (AM|PM)/;
    expect(nextStep(reservation(), BORROWER)).toMatchObject({ who: 'them' });
    expect(nextStep(reservation(), BORROWER)?.text).toMatch(
      new RegExp(`^Waiting for Maya Chen to approve or decline ${by.source}\\.$`),
    );
    expect(nextStep(reservation(), LENDER)?.text).toMatch(
      new RegExp(`^Your turn: approve or decline ${by.source}, or the request expires\\.$`),
    );
    const approved = reservation({ status: 'approved', respondBy: null, pickupCode: '123456' });
    expect(nextStep(approved, BORROWER)?.text).toBe(
      'Your turn: meet Maya Chen on Fri, Nov 27 and show your pickup code.',
    );
    expect(nextStep(approved, LENDER)?.text).toBe(
      'Your turn: hand it over to Jordan Lee on Fri, Nov 27 and enter their pickup code under Picked Up.',
    );
    const active = reservation({ status: 'active', respondBy: null });
    expect(nextStep(active, BORROWER)?.text).toBe(
      'Your turn: return it to Maya Chen by Sun, Nov 29, then press Item Returned.',
    );
    expect(nextStep(active, LENDER)).toEqual({
      who: 'them',
      text: 'Jordan Lee returns it by Sun, Nov 29. Once you have it back, confirm it came back in good condition.',
    });
    for (const status of ['completed', 'cancelled', 'declined'] as const) {
      expect(nextStep(reservation({ status, respondBy: null }), BORROWER)).toBeNull();
    }
  });

  it('offers "Message {name}", which opens the reservation’s chat', async () => {
    const api = stubApi({
      [`/api/reservations/${ID}/conversation`]: {
        body: { conversation: { id: 'c0ffee00-0000-4000-8000-000000000000' } },
      },
    });
    renderWithApi(
      <Routes>
        <Route path="/reservations" element={<NextStep reservation={reservation()} viewerId={LENDER} />} />
        <Route path="/chat" element={<p>The chat page</p>} />
      </Routes>,
      '/reservations',
    );
    expect(screen.getByText(/Your turn: approve or decline by/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Message Jordan Lee' }));
    await screen.findByText('The chat page');
    expect(api.calls).toContain(`/api/reservations/${ID}/conversation`);
  });
});

describe('the item page’s own request', () => {
  it('says the dates and the state the way a person reads them', () => {
    expect(dayRange('2026-11-27', '2026-11-29')).toBe('Nov 27–29');
    expect(dayRange('2026-11-30', '2026-12-02')).toBe('Nov 30 – Dec 2');
    expect(dayRange('2026-11-27', '2026-11-27')).toBe('Nov 27');
    expect(requestSummary(reservation()).title).toBe('Requested Nov 27–29 · Pending');
    expect(requestSummary(reservation({ status: 'approved' })).title).toBe(
      'Approved Nov 27–29 · Pickup code ready',
    );
    expect(requestSummary(reservation({ status: 'active' })).title).toBe('Borrowing Nov 27–29 · Active');
  });

  it('counts only the viewer’s open requests for this item, soonest first', () => {
    const later = reservation({ id: 'a', startDate: '2026-12-10', endDate: '2026-12-11' });
    const sooner = reservation({ id: 'b' });
    const done = reservation({ id: 'c', status: 'completed' });
    const lent = reservation({ id: 'd', borrowerId: LENDER });
    const other = reservation({ id: 'e', itemId: 'other' });
    expect(openRequestsFor([later, done, sooner, lent, other], ITEM, BORROWER).map((r) => r.id)).toEqual([
      'b',
      'a',
    ]);
    expect(openRequestsFor(undefined, ITEM, BORROWER)).toEqual([]);
  });
});
