import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Reservation } from '#shared/schemas/reservations.ts';
import type { WrittenReview } from '#shared/schemas/reviews.ts';
import { ReservationReview } from './reservation-review.tsx';

const BORROWER = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const PROVIDER = '6f5e4d3c-2b1a-4c9d-8e7f-6a5b4c3d2e1f';
const RESERVATION = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
const ITEM = '4b0c2f1e-8a3d-4e5f-9a6b-7c8d9e0f1a2b';

const reservation = (overrides: Partial<Reservation> = {}): Reservation => ({
  id: RESERVATION,
  itemId: ITEM,
  borrowerId: BORROWER,
  providerId: PROVIDER,
  startDate: '2026-12-01',
  endDate: '2026-12-03',
  status: 'completed',
  depositAmount: '0.00',
  rentalAmount: '0.00',
  serviceFeeAmount: '0.00',
  stripePaymentIntentId: null,
  pickupCode: null,
  declineReason: null,
  cancellationPolicy: 'flexible',
  cancelledBy: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  respondBy: null,
  overdue: false,
  claim: null,
  pendingExtension: null,
  extraRentalAmount: '0.00',
  extraServiceFeeAmount: '0.00',
  pickedUpAt: null,
  handovers: [],
  rentalPeriod: null,
  rentalPayments: [],
  earlyReturn: null,
  item: { id: ITEM, title: 'Cordless drill', images: [], pickupMethod: 'meetup' },
  provider: { id: PROVIDER, fullName: 'Maya Patel', username: 'maya', profileImage: null },
  borrower: { id: BORROWER, fullName: 'Jordan Lee', username: 'jordan', profileImage: null },
  ...overrides,
});

const written = (overrides: Partial<WrittenReview> = {}): WrittenReview => ({
  id: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
  reservationId: RESERVATION,
  reviewType: 'borrower_to_lender',
  rating: 4,
  itemRating: null,
  comment: 'Great drill',
  createdAt: '2026-11-22T18:00:00.000Z',
  revealed: false,
  revealsAt: '2026-12-06T18:00:00.000Z',
  ...overrides,
});

function renderReview(props: Partial<Parameters<typeof ReservationReview>[0]> = {}) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ReservationReview
          reservation={reservation()}
          viewerId={BORROWER}
          written={undefined}
          loading={false}
          {...props}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ReservationReview', () => {
  it('shows nothing before completion, or while the viewer’s reviews load', () => {
    for (const status of ['pending', 'approved', 'active', 'cancelled', 'declined'] as const) {
      const { container } = renderReview({ reservation: reservation({ status }) });
      expect(container.textContent).toBe('');
      cleanup();
    }
    const { container } = renderReview({ loading: true });
    expect(container.textContent).toBe('');
  });

  it('asks the borrower to review the lender and the item, and the lender to review the borrower', () => {
    renderReview();
    expect(screen.getByText(/Leave a review for Maya Patel and the item\./)).toBeTruthy();
    cleanup();
    renderReview({ viewerId: PROVIDER });
    expect(screen.getByText(/Leave a review for Jordan Lee\./)).toBeTruthy();
  });

  it('validates the dialog, then sends both ratings and the trimmed comment', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ success: true, review: written() }), {
          status: 201,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderReview();
    fireEvent.click(screen.getByRole('button', { name: 'Leave a review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Review Maya Patel' });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit Review' }));
    expect(await within(dialog).findByText('Please choose a star rating')).toBeTruthy();
    expect(within(dialog).getByText('Comment is required')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    expect(within(dialog).getByText('Please rate the item')).toBeTruthy();
    const lenderStars = within(dialog).getByRole('group', { name: 'Maya Patel, the lender' });
    const radios = within(lenderStars).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.labels?.[0]?.textContent)).toEqual([
      '1 star (Poor)',
      '2 stars (Fair)',
      '3 stars (Good)',
      '4 stars (Very good)',
      '5 stars (Excellent)',
    ]);
    fireEvent.click(within(lenderStars).getByLabelText('4 stars (Very good)'));
    const itemStars = within(dialog).getByRole('group', { name: 'The item, Cordless drill' });
    fireEvent.click(within(itemStars).getByLabelText('5 stars (Excellent)'));
    fireEvent.change(within(dialog).getByLabelText('Comment'), { target: { value: '  Great drill  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit Review' }));

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/reviews');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({
      reservationId: RESERVATION,
      rating: 4,
      itemRating: 5,
      comment: 'Great drill',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('after writing: when the review will show, or where it shows', () => {
    renderReview({ written: written() });
    expect(screen.getByText('You reviewed Maya Patel')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Rated 4 out of 5' })).toBeTruthy();
    expect(
      screen.getByText('Your review shows once Maya Patel has written theirs, or on Dec 6.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Leave a review' })).toBeNull();
    cleanup();
    renderReview({ written: written({ revealed: true }) });
    expect(screen.getByRole('link', { name: "Maya Patel's profile" }).getAttribute('href')).toBe(
      `/profile/${PROVIDER}`,
    );
  });

  it('asks the lender for one rating, of the borrower', async () => {
    renderReview({ viewerId: PROVIDER });
    fireEvent.click(screen.getByRole('button', { name: 'Leave a review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Review Jordan Lee' });
    expect(within(dialog).getAllByRole('radio')).toHaveLength(5);
    expect(within(dialog).getByRole('group', { name: 'Rating' })).toBeTruthy();
  });

  it('shows both ratings the borrower gave', () => {
    renderReview({ written: written({ itemRating: 5 }) });
    expect(screen.getByRole('img', { name: 'Rated 4 out of 5' })).toBeTruthy();
    expect(screen.getByText('and the item')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Rated 5 out of 5' })).toBeTruthy();
  });

  it('opens by itself when the page was opened from the notification', async () => {
    renderReview({ autoOpen: true });
    expect(await screen.findByRole('dialog', { name: 'Review Maya Patel' })).toBeTruthy();
  });
});
