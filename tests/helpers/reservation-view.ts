import type { Reservation } from '#shared/schemas/reservations.ts';

// A reservation as the API answers it, for component tests of the My Reservations card and its panels:
// Jordan Lee borrows Maya Chen's cordless drill ($12 rental, $20 deposit), picked up and not yet back.

export const BORROWER = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
export const LENDER = '6f5e4d3c-2b1a-4c9d-8e7f-6a5b4c3d2e1f';
export const RESERVATION = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
export const ITEM = '4b0c2f1e-8a3d-4e5f-9a6b-7c8d9e0f1a2b';

export function aReservation(overrides: Partial<Reservation> = {}): Reservation {
  return {
    id: RESERVATION,
    itemId: ITEM,
    borrowerId: BORROWER,
    providerId: LENDER,
    startDate: '2026-11-28',
    endDate: '2026-12-01',
    status: 'active',
    depositAmount: '20.00',
    rentalAmount: '12.00',
    serviceFeeAmount: '1.20',
    stripePaymentIntentId: 'pi_1',
    pickupCode: null,
    declineReason: null,
    cancellationPolicy: 'flexible',
    cancelledBy: null,
    createdAt: '2026-11-24T10:00:00.000Z',
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
    provider: { id: LENDER, fullName: 'Maya Chen', username: 'maya', profileImage: null },
    borrower: { id: BORROWER, fullName: 'Jordan Lee', username: 'jordan', profileImage: null },
    ...overrides,
  };
}
