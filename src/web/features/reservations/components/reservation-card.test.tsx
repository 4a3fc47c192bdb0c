import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '#shared/booking/availability.ts';
import { campusToday } from '#shared/calendar.ts';
import { DEFAULT_CAMPUS_TIME_ZONE, type ReservationStatus } from '#shared/constants.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { ApiError } from '../../../lib/api.ts';
import { amountLine, ReservationCard, type ReservationCardProps } from './reservation-card.tsx';

const BORROWER = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const PROVIDER = '6f5e4d3c-2b1a-4c9d-8e7f-6a5b4c3d2e1f';
const RESERVATION = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
const ITEM = '4b0c2f1e-8a3d-4e5f-9a6b-7c8d9e0f1a2b';

function makeReservation(overrides: Partial<Reservation> = {}): Reservation {
  return {
    id: RESERVATION,
    itemId: ITEM,
    borrowerId: BORROWER,
    providerId: PROVIDER,
    startDate: '2026-12-01',
    endDate: '2026-12-08',
    status: 'pending',
    depositAmount: '20.00',
    rentalAmount: '35.00',
    serviceFeeAmount: '0.00',
    stripePaymentIntentId: 'pi_123',
    pickupCode: null,
    declineReason: null,
    cancellationPolicy: 'flexible',
    cancelledBy: null,
    overdue: false,
    claim: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    respondBy: null,
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
  };
}

function renderCard(
  as: 'borrower' | 'provider',
  overrides: Partial<Reservation> = {},
  props: Partial<ReservationCardProps> = {},
) {
  const handlers = {
    onApprove: vi.fn(),
    onDecline: vi.fn(),
    onUpdateStatus: vi.fn((_update: unknown) => Promise.resolve()),
    onClaimAction: vi.fn((_action: unknown) => Promise.resolve()),
  };
  render(
    <MemoryRouter>
      <ReservationCard
        reservation={makeReservation(overrides)}
        viewerId={as === 'borrower' ? BORROWER : PROVIDER}
        busy={false}
        {...handlers}
        {...props}
      />
    </MemoryRouter>,
  );
  return handlers;
}

const ACTIONS = [
  'Approve',
  'Decline',
  'Cancel',
  'Picked Up',
  'Item Returned',
  'Returned in good condition',
  'Report a problem',
  'Accept claim',
  'Dispute',
];

function actionNames(): string[] {
  return screen
    .queryAllByRole('button')
    .map((b) => b.textContent?.trim() ?? '')
    .filter((name) => ACTIONS.includes(name));
}

afterEach(cleanup);

describe('ReservationCard actions (spec §4)', () => {
  it.each<[ReservationStatus, 'borrower' | 'provider', string[]]>([
    // The lender answers a request; Cancel is the borrower's (withdrawing it) until it is approved.
    ['pending', 'provider', ['Approve', 'Decline']],
    ['pending', 'borrower', ['Cancel']],
    ['approved', 'borrower', ['Picked Up', 'Cancel']],
    ['approved', 'provider', ['Picked Up', 'Cancel']],
    ['active', 'borrower', ['Item Returned']],
    ['active', 'provider', ['Returned in good condition']],
    // The lender answers a return; the borrower answers a claim; a dispute waits for a moderator.
    ['returned', 'borrower', []],
    ['returned', 'provider', ['Returned in good condition', 'Report a problem']],
    ['claimed', 'borrower', ['Accept claim', 'Dispute']],
    ['claimed', 'provider', []],
    ['disputed', 'borrower', []],
    ['disputed', 'provider', []],
    ['completed', 'borrower', []],
    ['completed', 'provider', []],
    ['cancelled', 'borrower', []],
    ['cancelled', 'provider', []],
    ['declined', 'borrower', []],
    ['declined', 'provider', []],
  ])('%s as %s shows %j', (status, as, expected) => {
    renderCard(as, { status, pickupCode: status === 'approved' ? '123456' : null });
    expect(actionNames()).toEqual(expected);
  });

  it('calls approve and decline for the lender of a pending request', () => {
    const handlers = renderCard('provider');
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(handlers.onApprove).toHaveBeenCalledWith(RESERVATION);
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(handlers.onDecline).toHaveBeenCalledWith(RESERVATION);
  });

  it('sends the borrower straight on: Picked Up, then Item Returned', () => {
    let handlers = renderCard('borrower', { status: 'approved', pickupCode: '123456' });
    fireEvent.click(screen.getByRole('button', { name: 'Picked Up' }));
    expect(handlers.onUpdateStatus).toHaveBeenCalledWith({ id: RESERVATION, status: 'active' });
    cleanup();
    // On its last day or later (here long past), nothing is early: no question asked.
    handlers = renderCard('borrower', { status: 'active', startDate: '2020-01-01', endDate: '2020-01-03' });
    fireEvent.click(screen.getByRole('button', { name: 'Item Returned' }));
    expect(handlers.onUpdateStatus).toHaveBeenCalledWith({ id: RESERVATION, status: 'returned' });
  });

  it('before the last day, Item Returned first says what the early return refunds (decision 034)', async () => {
    const today = campusToday(DEFAULT_CAMPUS_TIME_ZONE).date;
    const end = addDays(today, 4);
    const handlers = renderCard('borrower', {
      status: 'active',
      startDate: today,
      endDate: end,
      cancellationPolicy: 'moderate',
      rentalPeriod: 'day',
      rentalPayments: [{ fromEndDate: null, endDate: end, rentalAmount: '20.00', serviceFeeAmount: '0.00' }],
    });
    fireEvent.click(screen.getByRole('button', { name: 'Item Returned' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Return it early?' });
    // 4 days at $5, back today: 3 unused, half of their $15 by the moderate policy.
    expect(dialog.textContent).toContain(
      "By the item's moderate policy, $7.50 of the rental (50% of the 3 unused days) is refunded to your card.",
    );
    expect(handlers.onUpdateStatus).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Return Early' }));
    // With the amount it showed: the server goes ahead only if today's is the same.
    expect(handlers.onUpdateStatus).toHaveBeenCalledWith({
      id: RESERVATION,
      status: 'returned',
      earlyRefund: '7.50',
    });
  });

  it("the lender's confirm of a borrow still out says first what the borrower gets back", async () => {
    const today = campusToday(DEFAULT_CAMPUS_TIME_ZONE).date;
    const end = addDays(today, 4);
    const early = {
      status: 'active' as const,
      startDate: today,
      endDate: end,
      cancellationPolicy: 'flexible' as const,
      rentalPeriod: 'day' as const,
      rentalPayments: [{ fromEndDate: null, endDate: end, rentalAmount: '20.00', serviceFeeAmount: '0.00' }],
    };
    const handlers = renderCard('provider', early);
    fireEvent.click(screen.getByRole('button', { name: 'Returned in good condition' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'It came back early?' });
    expect(dialog.textContent).toContain(
      "By your flexible policy, $15.00 of the rental (100% of the 3 unused days) is refunded to Jordan Lee's card.",
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Not Yet' }));
    expect(handlers.onUpdateStatus).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Returned in good condition' }));
    const again = await screen.findByRole('alertdialog', { name: 'It came back early?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Confirm Return' }));
    expect(handlers.onUpdateStatus).toHaveBeenCalledWith({
      id: RESERVATION,
      status: 'completed',
      earlyRefund: '15.00',
    });
    cleanup();
    // After the borrower's "Item Returned" the booking has ended already: no question.
    const after = renderCard('provider', { ...early, status: 'returned', endDate: today });
    fireEvent.click(screen.getByRole('button', { name: 'Returned in good condition' }));
    expect(after.onUpdateStatus).toHaveBeenCalledWith({ id: RESERVATION, status: 'completed' });
  });

  it('shows both people what an early return did', () => {
    const early = {
      status: 'returned' as const,
      startDate: '2026-12-01',
      endDate: '2026-12-03',
      earlyReturn: { bookedEndDate: '2026-12-08', rentalRefund: '25.00' },
    };
    renderCard('borrower', early);
    expect(screen.getByText(/Returned early on Dec 3/).parentElement?.textContent).toContain(
      '(booked until Dec 8). $25.00 of the rental refunded to you, by the flexible policy.',
    );
    cleanup();
    renderCard('provider', early);
    expect(screen.getByText(/Returned early on Dec 3/).parentElement?.textContent).toContain(
      '$25.00 of the rental refunded to the borrower',
    );
  });

  it('shows a claim with its amounts and lets the borrower accept it', () => {
    const claim = {
      returnedAt: '2026-12-08T18:00:00.000Z',
      confirmBy: null,
      claimableFrom: null,
      amountClaimed: '8.00',
      description: 'A new scratch on the lens.',
      photos: ['/uploads/items/2026/12/lens.jpg'],
      disputePhotos: [],
      claimedAt: '2026-12-09T10:00:00.000Z',
      disputeNote: null,
      disputedAt: null,
      amountAwarded: null,
      depositRefund: null,
      resolvedAt: null,
    };
    const handlers = renderCard('borrower', { status: 'claimed', claim });
    expect(screen.getByText('Claim open')).toBeTruthy();
    const deposit = screen.getByRole('region', { name: 'Deposit' });
    expect(deposit.textContent).toContain('Claim: $8.00 of the $20.00 deposit.');
    expect(deposit.textContent).toContain('A new scratch on the lens.');
    expect(within(deposit).getByRole('link', { name: 'Photo 1 of the problem' }).getAttribute('href')).toBe(
      '/uploads/items/2026/12/lens.jpg',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Accept claim' }));
    expect(handlers.onClaimAction).toHaveBeenCalledWith({ id: RESERVATION, kind: 'accept' });
  });

  it('lets the lender report a problem only after 24 hours overdue', () => {
    const claim = (from: string) => ({
      returnedAt: null,
      confirmBy: null,
      claimableFrom: from,
      amountClaimed: null,
      description: null,
      photos: [],
      disputePhotos: [],
      claimedAt: null,
      disputeNote: null,
      disputedAt: null,
      amountAwarded: null,
      depositRefund: null,
      resolvedAt: null,
    });
    renderCard('provider', { status: 'active', overdue: true, claim: claim('2999-01-01T00:00:00.000Z') });
    expect(screen.getByText('Overdue')).toBeTruthy();
    expect(actionNames()).toEqual(['Returned in good condition']);
    cleanup();
    renderCard('provider', { status: 'active', overdue: true, claim: claim('2000-01-01T00:00:00.000Z') });
    expect(actionNames()).toEqual(['Returned in good condition', 'Report a problem']);
  });

  it('asks before cancelling', async () => {
    const handlers = renderCard('borrower');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(handlers.onUpdateStatus).not.toHaveBeenCalled();
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this reservation?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel Reservation' }));
    expect(handlers.onUpdateStatus).toHaveBeenCalledWith({ id: RESERVATION, status: 'cancelled' });
  });

  it("asks the lender for the borrower's 6-digit code at pickup", async () => {
    const onUpdateStatus = vi.fn((_update: unknown) =>
      Promise.reject(new ApiError(400, 'That pickup code is not right. Ask the borrower to show it again.')),
    );
    renderCard('provider', { status: 'approved', pickupCode: '123456' }, { onUpdateStatus });
    fireEvent.click(screen.getByRole('button', { name: 'Picked Up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm pickup' });
    const input = within(dialog).getByLabelText('Pickup code');

    fireEvent.change(input, { target: { value: '12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Pickup' }));
    expect(await within(dialog).findByText('The pickup code has 6 digits')).toBeTruthy();
    expect(onUpdateStatus).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { value: '654321' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Pickup' }));
    expect(onUpdateStatus).toHaveBeenCalledWith({ id: RESERVATION, status: 'active', pickupCode: '654321' });
    expect(
      await within(dialog).findByText('That pickup code is not right. Ask the borrower to show it again.'),
    ).toBeTruthy();
  });

  it('closes the pickup dialog once the server accepts the code', async () => {
    const handlers = renderCard('provider', { status: 'approved', pickupCode: '123456' });
    fireEvent.click(screen.getByRole('button', { name: 'Picked Up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm pickup' });
    fireEvent.change(within(dialog).getByLabelText('Pickup code'), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Pickup' }));
    expect(handlers.onUpdateStatus).toHaveBeenCalledWith({
      id: RESERVATION,
      status: 'active',
      pickupCode: '123456',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('disables every action while an update is in flight', () => {
    renderCard('provider', {}, { busy: true });
    for (const name of ['Approve', 'Decline']) {
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    }
  });
});

describe('ReservationCard details (spec §2)', () => {
  it('names the other party by role, with the dates, pickup method and status', () => {
    renderCard('borrower');
    expect(screen.getByRole('heading', { name: 'Cordless drill' })).toBeTruthy();
    expect(screen.getByText('Borrowing from')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Maya Patel' })).toBeTruthy();
    expect(screen.getByText('@maya')).toBeTruthy();
    expect(screen.getByText(/Dec 1 - Dec 8/)).toBeTruthy();
    expect(screen.getByText('Campus Meetup')).toBeTruthy();
    expect(screen.getByText('Pending')).toBeTruthy();
    cleanup();
    renderCard('provider', { item: { id: ITEM, title: '', images: [], pickupMethod: 'locker' } });
    expect(screen.getByText('Lending to')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Jordan Lee' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Unknown Item' })).toBeTruthy();
    expect(screen.getByText('Smart Locker')).toBeTruthy();
  });

  it('uses the first image, else the placeholder', () => {
    const { container } = render(
      <MemoryRouter>
        <ReservationCard
          reservation={makeReservation({
            item: {
              id: ITEM,
              title: 'Tent',
              images: ['https://img.example.com/tent.png'],
              pickupMethod: 'meetup',
            },
          })}
          viewerId={BORROWER}
          busy={false}
          onApprove={vi.fn()}
          onDecline={vi.fn()}
          onUpdateStatus={vi.fn()}
        />
      </MemoryRouter>,
    );
    expect(container.querySelector('img')?.getAttribute('src')).toBe('https://img.example.com/tent.png');
    cleanup();
    renderCard('borrower');
    expect(document.querySelector('img')?.getAttribute('src')).toBe('/placeholder-item.svg');
  });

  it('shows only the amounts above zero, joined by +, else Free', () => {
    expect(amountLine('20.00', '35.00')).toBe('$20.00 deposit + $35.00 rental');
    expect(amountLine('20.00', '0.00')).toBe('$20.00 deposit');
    expect(amountLine('0.00', '7.50')).toBe('$7.50 rental');
    expect(amountLine('0.00', '0.00')).toBe('Free');
    renderCard('borrower');
    expect(screen.getByText('$20.00 deposit + $35.00 rental')).toBeTruthy();
    cleanup();
    renderCard('borrower', { depositAmount: '0.00', rentalAmount: '0.00' });
    expect(screen.getByText('Free')).toBeTruthy();
  });

  it('shows the pickup code to the borrower only while approved', () => {
    renderCard('borrower', { status: 'approved', pickupCode: '482915' });
    expect(screen.getByText('Pickup Code:')).toBeTruthy();
    expect(screen.getByText('482915')).toBeTruthy();
    for (const status of ['pending', 'active', 'completed', 'cancelled'] as const) {
      cleanup();
      // Even if a code came along, it is not shown outside 'approved'.
      renderCard('borrower', { status, pickupCode: '482915' });
      expect(screen.queryByText('Pickup Code:')).toBeNull();
      expect(screen.queryByText('482915')).toBeNull();
    }
  });

  it("tells the lender to ask for the borrower's code instead of showing it", () => {
    renderCard('provider', { status: 'approved', pickupCode: '482915' });
    expect(screen.getByText('Pickup Code:')).toBeTruthy();
    expect(screen.queryByText('482915')).toBeNull();
    expect(screen.getByText(/borrower shows you a 6-digit code/)).toBeTruthy();
  });

  it('shows the decline reason on a declined reservation', () => {
    renderCard('borrower', { status: 'declined', declineReason: 'Away that week, sorry!' });
    expect(screen.getByText('Away that week, sorry!')).toBeTruthy();
    expect(screen.getByText('Declined')).toBeTruthy();
  });
});
