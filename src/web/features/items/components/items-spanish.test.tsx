import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Item } from '#shared/schemas/items.ts';
import { StarRatingInput } from '../../../components/star-rating-input.tsx';
import { activateLocale } from '../../../lib/i18n.ts';
import {
  CONDITION_LABELS,
  categoryLabel,
  formatDate,
  formatDays,
  formatRentalPrice,
  PICKUP_LABELS,
} from '../../../lib/item-labels.ts';
import { ItemCard } from './item-card.tsx';
import { ItemForm } from './item-form.tsx';
import { emptyItemValues } from './item-form-values.ts';

// The item screens in Spanish, and their labels wherever other screens show them.

const item: Item = {
  id: '4b0c2f1e-8a3d-4e5f-9a6b-7c8d9e0f1a2b',
  userId: '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b',
  title: 'Taladro inalámbrico',
  description: 'Un taladro de 18 V con dos baterías.',
  category: 'tools',
  images: [],
  condition: 'good',
  depositAmount: '20.00',
  rentalPrice: '12.50',
  rentalPeriod: 'day',
  pickupMethod: 'meetup',
  pickupLocation: 'Biblioteca',
  availableFrom: '2025-01-01',
  availableUntil: null,
  availableDays: [0, 1, 2, 3, 4, 5, 6],
  isAvailable: false,
  cancellationPolicy: 'flexible',
  campus: 'stanford.edu',
  createdAt: '2025-01-01T00:00:00.000Z',
  hidden: false,
  rating: { average: 4.5, count: 2 },
  user: {
    id: '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b',
    fullName: 'Ada Lovelace',
    username: 'ada',
    profileImage: null,
    isVerified: true,
    campusName: 'Stanford University',
  },
};

beforeEach(async () => {
  await activateLocale('es');
});
afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

describe('the item area in Spanish', () => {
  it('words a card in Spanish: price per day, deposit, pickup, rating, status', () => {
    render(
      <MemoryRouter>
        <ItemCard item={item} />
      </MemoryRouter>,
    );
    expect(screen.getByText('$12.50/día')).toBeTruthy();
    expect(screen.getByText('$20 de depósito')).toBeTruthy();
    expect(screen.getByText('Encuentro')).toBeTruthy();
    expect(screen.getByText('No disponible')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Calificación de 4.5 de 5, 2 reseñas' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/\/day|deposit|Meetup|Not Available/);
  });

  it('shows the listing form in Spanish, with Spanish categories and days', () => {
    render(
      <MemoryRouter>
        <ItemForm
          defaultValues={emptyItemValues()}
          submitLabel="Publicar artículo"
          pendingLabel="Publicando..."
          cancelTo="/browse"
          onSubmit={async () => undefined}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Información básica' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Herramientas' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Como nuevo' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'lunes' }).textContent).toBe('lun');
    expect(screen.getByText('Disponible todos los días')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Cancelar' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/Basic Information|Tools|Available every day|Cancel\b/);
  });

  it('says the stars in Spanish', () => {
    render(<StarRatingInput id="rating" name="rating" value={undefined} onChange={() => undefined} />);
    expect(screen.getByLabelText('4 estrellas (Muy buena)')).toBeTruthy();
    expect(screen.getByLabelText('1 estrella (Mala)')).toBeTruthy();
    expect(screen.queryByLabelText('4 stars (Very good)')).toBeNull();
  });

  it('gives the labels other screens use in Spanish', () => {
    expect(formatRentalPrice('5', 'week')).toBe('$5.00 / semana');
    expect(formatRentalPrice(null, 'day')).toBe('GRATIS');
    expect(formatDays([1, 3, 5])).toBe('lun, mié, vie');
    expect(formatDays([0, 1, 2, 3, 4, 5, 6])).toBe('Todos los días');
    expect(formatDate('2026-11-22')).toBe('22 nov 2026');
    expect(categoryLabel('furniture')).toBe('Muebles');
    expect(CONDITION_LABELS.fair).toBe('Aceptable');
    expect(PICKUP_LABELS.meetup).toBe('Encuentro en el campus');
  });

  it('speaks English again once English is active', async () => {
    await activateLocale('en');
    expect(formatRentalPrice('5', 'week')).toBe('$5.00 / week');
    expect(formatDate('2026-11-22')).toBe('Nov 22, 2026');
    expect(CONDITION_LABELS.fair).toBe('Fair');
    expect(formatDays([1, 3, 5])).toBe('Mon, Wed, Fri');
  });
});
