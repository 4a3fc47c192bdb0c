import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { activateLocale } from '../../../lib/i18n.ts';
import { approvalToast, holdNotice } from '../money-wording.ts';
import { CancellationPolicyNote } from './cancellation-policy-note.tsx';
import { DateRangePicker } from './date-range-picker.tsx';
import { nextStep } from './next-step.tsx';
import { ReservationCard } from './reservation-card.tsx';

// The reservation screens in Spanish: status names, dates, money sentences and plurals come from the
// catalogue and the active locale, and no English is left over.

const BORROWER = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const PROVIDER = '6f5e4d3c-2b1a-4c9d-8e7f-6a5b4c3d2e1f';
const ITEM = '4b0c2f1e-8a3d-4e5f-9a6b-7c8d9e0f1a2b';

function reservation(overrides: Partial<Reservation> = {}): Reservation {
  return {
    id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
    itemId: ITEM,
    borrowerId: BORROWER,
    providerId: PROVIDER,
    startDate: '2026-12-01',
    endDate: '2026-12-08',
    status: 'approved',
    depositAmount: '20.00',
    rentalAmount: '35.00',
    serviceFeeAmount: '0.00',
    stripePaymentIntentId: 'pi_123',
    pickupCode: '123456',
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

beforeEach(async () => {
  await activateLocale('es');
});

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

describe('reservations in Spanish', () => {
  it('the card says its status, dates, amounts and pickup code in Spanish', () => {
    render(
      <MemoryRouter>
        <ReservationCard
          reservation={reservation()}
          viewerId={BORROWER}
          busy={false}
          onApprove={vi.fn()}
          onDecline={vi.fn()}
          onUpdateStatus={vi.fn(() => Promise.resolve())}
        />
      </MemoryRouter>,
    );
    const card = screen.getByRole('article');
    expect(within(card).getByText('Aprobada')).toBeTruthy();
    expect(card.textContent).toContain('Te presta Maya Patel');
    expect(card.textContent).toContain('1 dic - 8 dic');
    expect(card.textContent).toContain('Encuentro en el campus');
    expect(card.textContent).toContain('$20.00 de depósito + $35.00 de alquiler');
    expect(screen.getByText('Código de recogida:')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeTruthy();
    const text = document.body.textContent ?? '';
    for (const english of [
      /Approved/,
      /Borrowing from/,
      /deposit/,
      /Pickup Code/,
      /Campus Meetup/,
      /Cancel\b/,
    ]) {
      expect(text).not.toMatch(english);
    }
  });

  it('the date picker names months and weekdays in Spanish', () => {
    render(
      <DateRangePicker
        availability={{
          today: '2026-12-01',
          availableFrom: '2026-11-01',
          availableUntil: null,
          availableDays: [0, 1, 2, 3, 4, 5, 6],
          booked: [],
        }}
        value={{ startDate: '2026-12-01', endDate: '2026-12-08' }}
        onChange={vi.fn()}
      />,
    );
    expect(screen.getByRole('heading', { name: /diciembre/i })).toBeTruthy();
    expect(screen.getByText('dom').getAttribute('abbr')).toBe('domingo');
    expect(screen.getByRole('button', { name: 'martes, 1 de diciembre de 2026' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Fechas del préstamo' })).toBeTruthy();
    expect(screen.getByText('Elige el día en que recoges el artículo.')).toBeTruthy();
    expect(screen.queryByText(/December|Sun|Start date/)).toBeNull();
  });

  it('says the money sentences and the next step in Spanish', () => {
    expect(holdNotice({ rentalCents: 1000, serviceFeeCents: 0, depositCents: 2000 }, 'Maya Chen')).toBe(
      'Ahora retenemos $30.00 en tu tarjeta; todavía no se cobra nada. Si Maya Chen aprueba, se cobran $30.00 a tu tarjeta ($10.00 de alquiler y un depósito reembolsable de $20.00). Si la solicitud se rechaza o vence, se libera la retención.',
    );
    expect(
      approvalToast({
        rentalAmount: '0.00',
        serviceFeeAmount: '0.00',
        depositAmount: '0.00',
        borrower: reservation().borrower,
      }),
    ).toBe('Le avisamos a Jordan Lee. No se cobra nada: este artículo es gratis.');
    expect(nextStep(reservation(), BORROWER)?.text).toBe(
      'Te toca: encuéntrate con Maya Patel el mar, 1 de dic y muestra tu código de recogida.',
    );
  });

  it('the cancellation note names its policy in Spanish', () => {
    render(<CancellationPolicyNote policy="moderate" />);
    expect(screen.getByText(/Cancelación moderada:/)).toBeTruthy();
    expect(screen.getByText(/Cancelación moderada:/).parentElement?.textContent).toContain(
      'Reembolso completo hasta 3 días antes del inicio',
    );
    expect(screen.queryByText(/Full refund/)).toBeNull();
    expect(screen.queryByText(/Moderate cancellation/)).toBeNull();
  });
});
