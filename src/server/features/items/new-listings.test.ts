import { describe, expect, it } from 'vitest';
import type { Item, ItemList } from '#shared/schemas/items.ts';
import { itemList, item as itemSchema } from '#shared/schemas/items.ts';
import { toJson } from '../../cache/answer-json.ts';
import type { CachedAnswer, NewestFirstPage } from '../../cache/read-caches.ts';
import type { Db } from '../../db/client.ts';
import { type ListCard, newestFirstPage, newListingReviser, withNewListing } from './new-listings.ts';

// A new listing put on a newest-first list's first page must read exactly as the page computed afresh
// would (tests/api/read-caches.test.ts holds the two together on both databases); where the page cannot
// tell, it says so and is recomputed.

const idOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Item n, created n minutes after 10:00 on Nov 30. */
function itemAt(n: number, title = `Item ${n}`): Item {
  return {
    id: idOf(n),
    userId: idOf(900),
    title,
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

type Answer = CachedAnswer & { json: string; items: Item[] };
const answerOf = (list: Omit<ItemList, 'page' | 'limit'>, limit = 3, pageNumber = 1): Answer => ({
  json: toJson(itemList, { page: pageNumber, limit, ...list }),
  tags: ['list:stanford.edu:*', 'lists'],
  items: list.items,
});
/** What the list's route remembers of a page newest first, as it does. */
const page = (
  answer: Answer,
  options: {
    availableNow?: boolean;
    counted?: boolean;
    before?: { items: Item[]; newestCreatedUs: number };
  } = {},
): NewestFirstPage =>
  newestFirstPage(answer.json, answer.items, options.before, {
    today: { date: '2026-11-30', weekday: 1 },
    availableNow: options.availableNow ?? false,
    limit: 3,
    counted: options.counted ?? true,
  })!;
const card = (item: Item, overrides: Partial<ListCard> = {}): ListCard => ({
  item,
  json: toJson(itemSchema, item),
  listed: true,
  availableNow: true,
  ...overrides,
});
const listOf = (answer: CachedAnswer | undefined) =>
  answer && 'json' in answer ? (JSON.parse(answer.json) as ItemList) : undefined;
const titles = (answer: CachedAnswer | undefined) => listOf(answer)?.items.map((item) => item.title);

describe('a new listing on a newest-first first page', () => {
  const full = answerOf({
    items: [itemAt(30), itemAt(20), itemAt(10)],
    total: 7,
    totalCapped: false,
    hasMore: true,
  });

  it('goes first, pushes the last card to the next page and counts one more, as the page computed afresh', () => {
    const revised = withNewListing(full, page(full), card(itemAt(40)));
    expect(revised && 'json' in revised && revised.json).toBe(
      toJson(itemList, {
        items: [itemAt(40), itemAt(30), itemAt(20)],
        total: 8,
        totalCapped: false,
        page: 1,
        limit: 3,
        hasMore: true,
      }),
    );
    expect(revised?.tags).toEqual(full.tags);
    // Where its items lie, as on the page computed afresh: the next listing is spliced in as surely.
    expect(revised?.newestFirst).toEqual(
      page(
        answerOf({
          items: [itemAt(40), itemAt(30), itemAt(20)],
          total: 8,
          totalCapped: false,
          hasMore: true,
        }),
      ),
    );
  });

  it('goes where its time puts it: a listing saved in a transaction begun earlier is not the newest', () => {
    expect(titles(withNewListing(full, page(full), card(itemAt(25))))).toEqual([
      'Item 30',
      'Item 25',
      'Item 20',
    ]);
  });

  it('leaves a page that shows it already as it is: it was read after the listing was saved', () => {
    expect(withNewListing(full, page(full), card(itemAt(20)))).toBe(full);
  });

  it('cannot tell where it goes when a card was created in the same millisecond', () => {
    const twin = { ...itemAt(20), id: idOf(21) };
    expect(withNewListing(full, page(full), card(twin))).toBeUndefined();
  });

  it('past a full page: cannot tell whether the total counts it, but a page without a total only has more', () => {
    expect(withNewListing(full, page(full), card(itemAt(5)))).toBeUndefined();
    const home = answerOf({ items: [itemAt(30), itemAt(20), itemAt(10)], hasMore: false });
    const revised = listOf(
      withNewListing(home, page(home, { counted: false, availableNow: true }), card(itemAt(5))),
    );
    expect(revised?.items.map((item) => item.title)).toEqual(['Item 30', 'Item 20', 'Item 10']);
    expect(revised?.hasMore).toBe(true);
    expect(revised?.total).toBeUndefined();
  });

  it('joins the end of a page that held every item', () => {
    const short = answerOf({ items: [itemAt(30)], total: 1, totalCapped: false, hasMore: false });
    const revised = listOf(withNewListing(short, page(short), card(itemAt(5))));
    expect(revised?.items.map((item) => item.title)).toEqual(['Item 30', 'Item 5']);
    expect([revised?.total, revised?.hasMore]).toEqual([2, false]);
    const empty = answerOf({ items: [], total: 0, totalCapped: false, hasMore: false });
    expect(titles(withNewListing(empty, page(empty), card(itemAt(5))))).toEqual(['Item 5']);
  });

  it('stops counting at 1,000: then the page says 1,000+', () => {
    const atCap = answerOf({
      items: [itemAt(30), itemAt(20), itemAt(10)],
      total: 1000,
      totalCapped: false,
      hasMore: true,
    });
    expect(listOf(withNewListing(atCap, page(atCap), card(itemAt(40))))).toMatchObject({
      total: 1000,
      totalCapped: true,
    });
    const past = answerOf({
      items: [itemAt(30), itemAt(20), itemAt(10)],
      total: 1000,
      totalCapped: true,
      hasMore: true,
    });
    expect(listOf(withNewListing(past, page(past), card(itemAt(40))))).toMatchObject({
      total: 1000,
      totalCapped: true,
    });
    const under = answerOf({
      items: [itemAt(30), itemAt(20), itemAt(10)],
      total: 999,
      totalCapped: false,
      hasMore: true,
    });
    expect(listOf(withNewListing(under, page(under), card(itemAt(40))))).toMatchObject({
      total: 1000,
      totalCapped: false,
    });
  });

  it('leaves the page as it was for a listing lists do not show, or one not available on a list of what is', () => {
    expect(withNewListing(full, page(full), card(itemAt(40), { listed: false }))).toBe(full);
    expect(
      withNewListing(full, page(full, { availableNow: true }), card(itemAt(40), { availableNow: false })),
    ).toBe(full);
    expect(titles(withNewListing(full, page(full), card(itemAt(40), { availableNow: false })))).toEqual([
      'Item 40',
      'Item 30',
      'Item 20',
    ]);
  });
});

describe('a new listing on a later page, newest first', () => {
  /** Microseconds since 1970 of item n's time (itemAt), plus `us`. */
  const usOf = (n: number, us = 0) => Date.parse(itemAt(n).createdAt) * 1000 + us;
  // Page 2 of a list whose newest item is Item 90: the three items before it are the end of page 1.
  const laterPage = (answer: Answer, options: Parameters<typeof page>[1] = {}) =>
    page(answer, {
      before: { items: [itemAt(60), itemAt(50), itemAt(40)], newestCreatedUs: usOf(90) },
      ...options,
    });
  const second = answerOf(
    { items: [itemAt(30), itemAt(20), itemAt(10)], total: 9, totalCapped: false, hasMore: true },
    3,
    2,
  );

  it('moves on by one: the last item before it comes first, as the page computed afresh', () => {
    const revised = withNewListing(second, laterPage(second), card(itemAt(95)));
    expect(revised && 'json' in revised && revised.json).toBe(
      toJson(itemList, {
        items: [itemAt(40), itemAt(30), itemAt(20)],
        total: 10,
        totalCapped: false,
        page: 2,
        limit: 3,
        hasMore: true,
      }),
    );
    expect(revised?.tags).toEqual(second.tags);
    // One item before it is used up, and the newest is now the listing taken in.
    expect(revised?.newestFirst).toEqual(
      laterPage(
        answerOf(
          { items: [itemAt(40), itemAt(30), itemAt(20)], total: 10, totalCapped: false, hasMore: true },
          3,
          2,
        ),
        { before: { items: [itemAt(60), itemAt(50)], newestCreatedUs: usOf(95) } },
      ),
    );
  });

  it('takes in as many listings as it read items before it, then leaves the page to its next reader', () => {
    let answer: CachedAnswer | undefined = second;
    for (const n of [91, 92, 93]) {
      answer = withNewListing(
        answer as CachedAnswer & { json: string },
        answer!.newestFirst ?? laterPage(second),
        card(itemAt(n)),
      );
      expect(answer).toBeDefined();
    }
    expect(titles(answer)).toEqual(['Item 60', 'Item 50', 'Item 40']);
    expect(listOf(answer)?.total).toBe(12);
    expect(
      withNewListing(answer as CachedAnswer & { json: string }, answer!.newestFirst!, card(itemAt(94))),
    ).toBeUndefined();
  });

  it('cannot tell for a listing its statement may have seen: not after the newest item, or in its millisecond', () => {
    expect(withNewListing(second, laterPage(second), card(itemAt(85)))).toBeUndefined();
    expect(withNewListing(second, laterPage(second), card(itemAt(90)))).toBeUndefined();
    // Item 90 at 400 µs past its millisecond: a listing in the same millisecond may be older still.
    const seen = laterPage(second, { before: { items: [itemAt(40)], newestCreatedUs: usOf(90, 400) } });
    expect(withNewListing(second, seen, card(itemAt(90)))).toBeUndefined();
    expect(titles(withNewListing(second, seen, card(itemAt(91))))).toEqual(['Item 40', 'Item 30', 'Item 20']);
  });

  it('a last page keeps every item and gains one; an empty one past the end gains the one moved', () => {
    const last = answerOf({ items: [itemAt(30)], total: 7, totalCapped: false, hasMore: false }, 3, 3);
    const revised = listOf(withNewListing(last, laterPage(last), card(itemAt(95))));
    expect(revised?.items.map((item) => item.title)).toEqual(['Item 40', 'Item 30']);
    expect([revised?.total, revised?.hasMore]).toEqual([8, false]);
    const past = answerOf({ items: [], hasMore: false }, 3, 3);
    const home = listOf(withNewListing(past, laterPage(past, { counted: false }), card(itemAt(95))));
    expect([home?.items.map((item) => item.title), home?.hasMore, home?.total]).toEqual([
      ['Item 40'],
      false,
      undefined,
    ]);
  });

  it('a full last page sends its own last item on to a next page', () => {
    const full = answerOf(
      { items: [itemAt(30), itemAt(20), itemAt(10)], total: 6, totalCapped: false, hasMore: false },
      3,
      2,
    );
    expect(listOf(withNewListing(full, laterPage(full), card(itemAt(95))))).toMatchObject({
      total: 7,
      hasMore: true,
    });
  });

  it('is as it was for a listing it does not show, and cannot be revised without the items before it', () => {
    expect(withNewListing(second, laterPage(second), card(itemAt(95), { listed: false }))).toBe(second);
    expect(
      withNewListing(
        second,
        laterPage(second, { availableNow: true }),
        card(itemAt(95), { availableNow: false }),
      ),
    ).toBe(second);
    expect(withNewListing(second, page(second), card(itemAt(95)))).toBeUndefined();
  });
});

// The reviser reads a new listing's card once and puts it through the item's schema once, however many
// pages it revises; each page is then written as it stands. What the schema does not send (a field of
// the row the lists never show) must not reach a revised page.
describe('revising pages for a new listing', () => {
  const firstPage = (items: Item[]): CachedAnswer => {
    const answer = answerOf({ items, total: items.length, totalCapped: false, hasMore: false });
    return { json: answer.json, tags: answer.tags, newestFirst: page(answer) };
  };

  it('reads and encodes the card once, and writes it on each page as the schema sends it', async () => {
    let reads = 0;
    // The card as a row maps to it, with something more the item's schema does not send.
    const readCard = async () => {
      reads++;
      return card({ ...itemAt(40), ownerEmail: 'maya@stanford.edu' } as Item);
    };
    const revise = newListingReviser(
      {} as Db,
      readCard,
    )({ id: idOf(40), priceCents: null, pickupMethod: 'meetup' });
    const pages = [firstPage([itemAt(30)]), firstPage([itemAt(20), itemAt(10)]), firstPage([])];
    const revised = await Promise.all(pages.map((answer) => revise(answer)!()));
    expect(reads).toBe(1);
    for (const [i, answer] of revised.entries()) {
      const list = listOf(answer)!;
      expect(list.items[0]).toEqual(itemAt(40));
      expect(list.items[0]).not.toHaveProperty('ownerEmail');
      expect(list.total).toBe(listOf(pages[i])!.total! + 1);
      // What it writes is what the list's schema would.
      expect(JSON.parse(toJson(itemList, list))).toEqual(list);
    }
  });
});
