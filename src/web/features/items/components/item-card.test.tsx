import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Item } from '#shared/schemas/items.ts';
import { ItemCard, ItemGrid, PLACEHOLDER_IMAGE } from './item-card.tsx';

const ITEM_ID = '4b0c2f1e-8a3d-4e5f-9a6b-7c8d9e0f1a2b';

function makeItem(overrides: Partial<Item> = {}): Item {
  return {
    id: ITEM_ID,
    userId: '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b',
    title: 'Cordless drill',
    description: 'An 18V drill with two batteries.',
    category: 'tools',
    images: ['https://images.example.com/drill.png'],
    condition: 'good',
    depositAmount: null,
    rentalPrice: null,
    rentalPeriod: null,
    pickupMethod: 'meetup',
    pickupLocation: 'Main library steps',
    availableFrom: '2025-01-01',
    availableUntil: null,
    availableDays: [0, 1, 2, 3, 4, 5, 6],
    isAvailable: true,
    cancellationPolicy: 'flexible',
    campus: 'stanford.edu',
    createdAt: '2025-01-01T00:00:00.000Z',
    hidden: false,
    rating: null,
    user: {
      id: '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b',
      fullName: 'Ada Lovelace',
      username: 'ada',
      profileImage: null,
      isVerified: true,
      campusName: 'Stanford University',
    },
    ...overrides,
  };
}

function renderCard(overrides: Partial<Item> = {}) {
  return render(
    <MemoryRouter>
      <ItemCard item={makeItem(overrides)} />
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe('ItemCard (spec §2 Item card)', () => {
  it('is one link to the item page, named by the title', () => {
    renderCard();
    const link = screen.getByRole('link', { name: 'Cordless drill' });
    expect(link.getAttribute('href')).toBe(`/item/${ITEM_ID}`);
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(within(link).getByText('Stanford University')).toBeTruthy();
  });

  it('shows FREE when there is no rental price, or it is zero', () => {
    renderCard({ rentalPrice: null });
    expect(screen.getByText('FREE')).toBeTruthy();
    cleanup();
    renderCard({ rentalPrice: '0.00', rentalPeriod: 'day' });
    expect(screen.getByText('FREE')).toBeTruthy();
  });

  it('shows a price with two decimals and its period', () => {
    renderCard({ rentalPrice: '12.5' });
    expect(screen.getByText('$12.50')).toBeTruthy();
    cleanup();
    renderCard({ rentalPrice: '12.50', rentalPeriod: 'day' });
    expect(screen.getByText('$12.50/day')).toBeTruthy();
    expect(screen.queryByText('FREE')).toBeNull();
  });

  it('shows a deposit badge only when the deposit is above zero', () => {
    renderCard({ depositAmount: '20.00' });
    expect(screen.getByText('$20 deposit')).toBeTruthy();
    cleanup();
    renderCard({ depositAmount: '12.50' });
    expect(screen.getByText('$12.50 deposit')).toBeTruthy();
    cleanup();
    renderCard({ depositAmount: '0.00' });
    expect(screen.queryByText(/deposit/)).toBeNull();
    cleanup();
    renderCard({ depositAmount: null });
    expect(screen.queryByText(/deposit/)).toBeNull();
    cleanup();
    renderCard({ depositAmount: '1500.00' });
    expect(screen.getByText('$1,500 deposit')).toBeTruthy();
    cleanup();
    renderCard({ depositAmount: '1234567.05' });
    expect(screen.getByText('$1,234,567.05 deposit')).toBeTruthy();
  });

  it('labels the pickup method', () => {
    renderCard({ pickupMethod: 'meetup' });
    expect(screen.getByText('Meetup')).toBeTruthy();
    cleanup();
    renderCard({ pickupMethod: 'locker' });
    expect(screen.getByText('Locker')).toBeTruthy();
  });

  it('uses the first image as the cover, titled by the item', () => {
    renderCard({ images: ['https://images.example.com/a.png', 'https://images.example.com/b.png'] });
    const img = screen.getByRole('img', { name: 'Cordless drill' });
    expect(img.getAttribute('src')).toBe('https://images.example.com/a.png');
    expect(img.getAttribute('loading')).toBe('lazy');
  });

  it.each([[['null']], [['undefined']], [['']], [[]]])('uses the placeholder for images %j', (images) => {
    renderCard({ images });
    expect(screen.getByRole('img', { name: 'Cordless drill' }).getAttribute('src')).toBe(PLACEHOLDER_IMAGE);
  });

  it('falls back to the placeholder when the image fails to load', () => {
    renderCard({ images: ['https://images.example.com/broken.png'] });
    const img = screen.getByRole('img', { name: 'Cordless drill' });
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe(PLACEHOLDER_IMAGE);
  });

  it('shows the small copy of an upload, then the original, then the placeholder', () => {
    renderCard({ images: ['/uploads/items/abc.jpg'] });
    const img = screen.getByRole('img', { name: 'Cordless drill' });
    expect(img.getAttribute('src')).toBe('/uploads/items/abc-thumb.jpg');
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe('/uploads/items/abc.jpg');
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe(PLACEHOLDER_IMAGE);
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe(PLACEHOLDER_IMAGE);
  });

  it('dims an unavailable item under a Not Available overlay', () => {
    renderCard({ isAvailable: false });
    expect(screen.getByText('Not Available')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Cordless drill' });
    expect(link.getAttribute('aria-describedby')).toContain(screen.getByText('Not Available').id);
    cleanup();
    renderCard({ isAvailable: true });
    expect(screen.queryByText('Not Available')).toBeNull();
  });

  it('marks an item a moderator hid (its owner sees it on their profile)', () => {
    renderCard({ hidden: true });
    const link = screen.getByRole('link', { name: 'Cordless drill' });
    expect(link.getAttribute('aria-describedby')).toContain(screen.getByText('Hidden').id);
    expect(screen.queryByText('Not Available')).toBeNull();
  });
});

describe('ItemGrid', () => {
  it('fetches the first `priority` photos at once and first, the rest when scrolled near', () => {
    const items = [1, 2, 3].map((n) =>
      makeItem({ id: `4b0c2f1e-8a3d-4e5f-9a6b-7c8d9e0f1a0${n}`, title: `Item ${n}` }),
    );
    render(
      <MemoryRouter>
        <ItemGrid items={items} priority={2} />
      </MemoryRouter>,
    );
    const loading = screen
      .getAllByRole('img', { name: /^Item/ })
      .map((img) => [img.getAttribute('loading'), img.getAttribute('fetchpriority')]);
    expect(loading).toEqual([
      ['eager', 'high'],
      ['eager', 'high'],
      ['lazy', null],
    ]);
  });

  it('shows skeletons while loading and a card per item', () => {
    const { container } = render(
      <MemoryRouter>
        <ItemGrid loading skeletons={8} />
      </MemoryRouter>,
    );
    expect(container.querySelectorAll('li[aria-hidden="true"]')).toHaveLength(8);
    expect(screen.getByRole('status').textContent).toMatch(/Loading/);
    cleanup();
    render(
      <MemoryRouter>
        <ItemGrid
          items={[makeItem(), makeItem({ id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f', title: 'Tent' })]}
        />
      </MemoryRouter>,
    );
    expect(screen.getAllByRole('link')).toHaveLength(2);
    expect(screen.queryByRole('status')).toBeNull();
  });

  // The item's real rating, not the spec's fixed five stars (decision 020).
  it('shows the item’s rating, announced with its count, and nothing without reviews', () => {
    renderCard({ rating: { average: 4, count: 1 } });
    const rating = screen.getByRole('img', { name: 'Rated 4 out of 5, 1 review' });
    expect(rating.querySelectorAll('[data-star="full"]')).toHaveLength(4);
    expect(screen.queryByText('(5)')).toBeNull();
    cleanup();
    renderCard({ rating: null });
    expect(screen.queryByRole('img', { name: /Rated/ })).toBeNull();
    expect(document.querySelector('[data-star]')).toBeNull();
  });
});
