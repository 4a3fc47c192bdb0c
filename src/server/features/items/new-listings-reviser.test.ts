import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Item, ItemList } from '#shared/schemas/items.ts';
import { itemList } from '#shared/schemas/items.ts';
import { type CachedAnswer, type NewestFirstPage, toJson } from '../../cache/read-caches.ts';
import type { Db } from '../../db/client.ts';

// The reviser reads a new listing's card once and puts it through the item's schema once, however many
// pages it revises; each page is then written as it stands. What the schema does not send (a field of
// the row the lists never show) must not reach a revised page.

const reads = vi.hoisted(() => ({ cards: 0, items: 0 }));
const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function itemAt(n: number): Item {
  return {
    id: idOf(n),
    userId: idOf(900),
    title: `Item ${n}`,
    description: 'A thing to borrow',
    category: 'tools',
    images: [],
    condition: 'good',
    depositAmount: null,
    rentalPrice: null,
    rentalPeriod: null,
    pickupMethod: 'meetup',
    pickupLocation: null,
    availableFrom: '2026-11-01',
    availableUntil: null,
    availableDays: [0, 1, 2, 3, 4, 5, 6],
    isAvailable: true,
    cancellationPolicy: 'flexible',
    campus: 'stanford.edu',
    createdAt: new Date(Date.UTC(2026, 10, 30, 10, n)).toISOString(),
    hidden: false,
    rating: null,
    user: {
      id: idOf(900),
      fullName: 'Maya Chen',
      username: 'maya',
      profileImage: null,
      isVerified: true,
      campusName: 'Stanford University',
    },
  };
}

vi.mock('./queries.ts', async (original) => ({
  ...(await original<typeof import('./queries.ts')>()),
  findListCard: async () => {
    reads.cards++;
    return { row: {}, listed: true, availableNow: true };
  },
}));
vi.mock('./service.ts', () => ({
  // The row as toItem maps it, with something more the item's schema does not send.
  toItem: () => {
    reads.items++;
    return { ...itemAt(40), ownerEmail: 'maya@stanford.edu' };
  },
}));

const { newListingReviser } = await import('./new-listings.ts');

const page: NewestFirstPage = {
  today: { date: '2026-11-30', weekday: 1 },
  availableNow: false,
  limit: 3,
  counted: true,
};
const answerOf = (items: Item[]): CachedAnswer => ({
  json: toJson(itemList, {
    page: 1,
    limit: 3,
    items,
    total: items.length,
    totalCapped: false,
    hasMore: false,
  }),
  tags: ['lists'],
  newestFirst: page,
});

describe('revising pages for a new listing', () => {
  beforeEach(() => {
    reads.cards = 0;
    reads.items = 0;
  });

  it('reads and encodes the card once, and writes it on each page as the schema sends it', async () => {
    const revise = newListingReviser({} as Db)({ id: idOf(40), priceCents: null, pickupMethod: 'meetup' });
    const pages = [answerOf([itemAt(30)]), answerOf([itemAt(20), itemAt(10)]), answerOf([])];
    const revised = await Promise.all(pages.map((answer) => revise(answer)!()));
    expect(reads).toEqual({ cards: 1, items: 1 });
    for (const [i, answer] of revised.entries()) {
      const list = JSON.parse((answer as { json: string }).json) as ItemList;
      expect(list.items[0]).toEqual(itemAt(40));
      expect(list.items[0]).not.toHaveProperty('ownerEmail');
      expect(list.total).toBe(JSON.parse((pages[i] as { json: string }).json).total + 1);
      // What it writes is what the list's schema would.
      expect(JSON.parse(toJson(itemList, list))).toEqual(list);
    }
  });
});
