import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Handover } from '#shared/schemas/handovers.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { renderWithApi, stubApi } from '../../../../../tests/helpers/render-with-api.tsx';
import { aReservation, BORROWER, LENDER } from '../../../../../tests/helpers/reservation-view.ts';
import { HandoverPanel } from './handover-panel.tsx';

// Decision 033: the card shows each person's condition at pickup and at return with times, and offers to
// add while the stage is open; a note already written is not offered again.

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

const record = (overrides: Partial<Handover> = {}): Handover => ({
  id: '0d1c2b3a-4f5e-4d6c-8b7a-9f8e7d6c5b4a',
  stage: 'pickup',
  author: 'borrower',
  photos: [],
  note: null,
  noteAt: null,
  createdAt: minutesAgo(30),
  updatedAt: minutesAgo(30),
  ...overrides,
});

const booking = (overrides: Partial<Reservation> = {}) => aReservation({ status: 'approved', ...overrides });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the condition at handover on the card', () => {
  it('approved: the pickup is open, the return not yet', () => {
    stubApi({});
    renderWithApi(<HandoverPanel reservation={booking()} viewerId={BORROWER} />);
    const pickup = screen.getByRole('region', { name: 'Condition at pickup' });
    expect(within(pickup).getByText(/No photos yet/)).toBeTruthy();
    expect(within(pickup).getByRole('button', { name: 'Add pickup photos' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Condition at return' })).toBeNull();
  });

  it("shows each person's note and photos, later photos with their time, to the other person", () => {
    stubApi({});
    const first = minutesAgo(30);
    const later = minutesAgo(5);
    const mine = record({
      note: 'Scuff on the battery.',
      noteAt: first,
      photos: [
        { url: '/uploads/items/2026/11/a.jpg', addedAt: first },
        { url: '/uploads/items/2026/11/b.jpg', addedAt: later },
      ],
    });
    renderWithApi(
      <HandoverPanel
        reservation={booking({ status: 'active', pickedUpAt: minutesAgo(20), handovers: [mine] })}
        viewerId={LENDER}
      />,
    );
    const pickup = screen.getByRole('region', { name: 'Condition at pickup' });
    expect(within(pickup).getByText('Jordan Lee')).toBeTruthy();
    expect(within(pickup).getByText('Scuff on the battery.')).toBeTruthy();
    expect(within(pickup).getAllByRole('link', { name: /pickup photos by Jordan Lee/ })).toHaveLength(2);
    expect(within(pickup).getByText(/^Added /)).toBeTruthy();
    // The lender has added nothing: the pickup is still open for them; the return too.
    expect(within(pickup).getByRole('button', { name: 'Add pickup photos' })).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Condition at return' })).getByRole('button', {
        name: 'Add return photos',
      }),
    ).toBeTruthy();
  });

  it('a written note is not asked for again; a closed stage offers nothing but keeps what was added', () => {
    stubApi({});
    const mine = record({ note: 'As listed.', noteAt: minutesAgo(30) });
    renderWithApi(<HandoverPanel reservation={booking({ handovers: [mine] })} viewerId={BORROWER} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add more at pickup' }));
    const dialog = screen.getByRole('dialog', { name: 'Condition at pickup' });
    expect(within(dialog).queryByLabelText('Note (optional)')).toBeNull();
    expect(within(dialog).getByText('Your note is written: As listed.')).toBeTruthy();
    cleanup();
    renderWithApi(
      <HandoverPanel reservation={booking({ status: 'completed', handovers: [mine] })} viewerId={BORROWER} />,
    );
    expect(screen.getByText('As listed.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
