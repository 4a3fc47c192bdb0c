import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { items } from '../../src/server/db/schema/items.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import type { Category } from '../../src/shared/constants.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { heardEverything } from '../helpers/announcements.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 049: lists are remembered by campus and category, searches by the items they show (a new
// listing reaches a search when it expires), and the count of a filter is computed once, apart from
// its pages; Home asks for none. As in precise-invalidation.test.ts, a remembered answer is told from
// a fresh one by changes made "silently" (the announcing trigger off for that transaction), and one
// successful request lets the set-up's announcements land first.

const t = setupTestApp();
const db = () => t.database.db;

async function renameSilently(ids: string[], suffix: string) {
  await db().transaction(async (tx) => {
    await tx.execute(sql`alter table items disable trigger items_cache_update`);
    await tx
      .update(items)
      .set({ title: sql`${items.title} || ${suffix}` })
      .where(inArray(items.id, ids));
    await tx.execute(sql`alter table items enable trigger items_cache_update`);
  });
}

/** A listing nobody hears of: only an answer computed afresh shows it. */
async function listSilently(values: Parameters<typeof createItem>[1]) {
  let id = '';
  await db().transaction(async (tx) => {
    await tx.execute(sql`alter table items disable trigger items_cache_insert`);
    id = (await createItem(tx as unknown as ReturnType<typeof db>, values)).id;
    await tx.execute(sql`alter table items enable trigger items_cache_insert`);
  });
  return id;
}

const settle = () => heardEverything(t);
/**
 * How long a search told of a new listing may take to be dropped for readers other than the writer:
 * the check runs when the announcement is heard, and is not waited for by the write's answer.
 */
const TOLD = { timeout: 5_000, interval: 20 };

interface ListAnswer {
  items: { title: string }[];
  total?: number;
  totalCapped?: boolean;
}
const list = async (url: string, cookie?: string) => {
  const answer = await t.get(url, cookie);
  expect(answer.statusCode).toBe(200);
  return answer.json() as ListAnswer;
};
const titles = async (url: string) => (await list(url)).items.map((item) => item.title).sort();

describe('lists by campus and category, searches by their items', () => {
  it('a new listing reaches the lists of its campus and category, of every campus and of every category, and no other', async () => {
    const owner = await createSignedInUser(db());
    const category: Category = 'kitchen';
    const kettle = await createItem(db(), { userId: owner.user.id, title: 'Tagged kettle', category });
    const book = await createItem(db(), { userId: owner.user.id, title: 'Tagged atlas', category: 'books' });
    const kitchen = `/api/items?campus=stanford.edu&category=${category}`;
    const kitchenEverywhere = `/api/items?campus=all&category=${category}`;
    const books = '/api/items?campus=stanford.edu&category=books';
    const kitchenCheapest = `/api/items?campus=stanford.edu&category=${category}&sort=price-low`;
    const berkeley = '/api/items?campus=berkeley.edu';
    await settle();
    expect(await titles(kitchen)).toEqual(['Tagged kettle']);
    expect(await titles(kitchenEverywhere)).toEqual(['Tagged kettle']);
    expect(await titles(books)).toEqual(['Tagged atlas']);
    expect(await titles(kitchenCheapest)).toEqual(['Tagged kettle']);
    await list(berkeley);
    const stanfordAll = (await list('/api/items?campus=stanford.edu&limit=50')).items.length;
    await renameSilently([kettle.id, book.id], ' (renamed)');

    await createItem(db(), { userId: owner.user.id, title: 'Tagged toaster', category });
    await settle();

    // Newest first, the toaster is put on the first pages in place (decision 083): the unannounced
    // rename is not read. In another order, the list is computed afresh.
    expect(await titles(kitchen)).toEqual(['Tagged kettle', 'Tagged toaster']);
    expect(await titles(kitchenEverywhere)).toEqual(['Tagged kettle', 'Tagged toaster']);
    expect(await titles(kitchenCheapest)).toEqual(['Tagged kettle (renamed)', 'Tagged toaster']);
    expect((await list('/api/items?campus=stanford.edu&limit=50')).items).toHaveLength(stanfordAll + 1);
    // Another category's list, and another campus's, are still remembered.
    expect(await titles(books)).toEqual(['Tagged atlas']);
  });

  it('a new listing reaches the searches whose words it matches at once, and leaves the others alone', async () => {
    const owner = await createSignedInUser(db());
    const lamp = await createItem(db(), { userId: owner.user.id, title: 'Searched brass lamp' });
    const search = '/api/items?campus=all&searchQuery=brass%20lamp';
    await settle();
    expect(await titles(search)).toEqual(['Searched brass lamp']);
    await renameSilently([lamp.id], ' (renamed)');

    // A listing its words do not match: the search is still remembered.
    await createItem(db(), { userId: owner.user.id, title: 'Oak bookshelf' });
    await settle();
    expect(await titles(search)).toEqual(['Searched brass lamp']);

    // A new match, listed from anywhere: computed again, count included. Others than the writer are
    // served the remembered answer until the check of the listing's words (a statement of its own)
    // has dropped it, which may end just after the write's answer: hence the poll.
    await createItem(db(), { userId: owner.user.id, title: 'Another brass lamp' });
    await settle();
    await expect
      .poll(() => titles(search), TOLD)
      .toEqual(['Another brass lamp', 'Searched brass lamp (renamed)']);
    expect((await list(search)).total).toBe(2);
  });

  it('a mistyped search is the search for the words it means, told of new listings, until its word is listed as typed', async () => {
    const owner = await createSignedInUser(db());
    const telescope = await createItem(db(), { userId: owner.user.id, title: 'Folding telescope' });
    // "telscope" starts no word of the catalogue: it is searched as "telescope".
    const typo = '/api/items?campus=all&searchQuery=telscope';
    const meant = '/api/items?campus=all&searchQuery=telescope';
    await settle();
    expect(await titles(typo)).toEqual(['Folding telescope']);
    // One answer for both: a rename nobody hears of shows in neither.
    await renameSilently([telescope.id], ' (renamed)');
    expect(await titles(meant)).toEqual(['Folding telescope']);

    // A new listing the meant words match reaches the mistyped search at once.
    await createItem(db(), { userId: owner.user.id, title: 'Telescope tripod' });
    await settle();
    await expect.poll(() => titles(typo), TOLD).toEqual(['Folding telescope (renamed)', 'Telescope tripod']);
    expect((await list(typo)).total).toBe(2);

    // Once a listing uses the word as typed, the catalogue knows it: the search finds what it says.
    await createItem(db(), { userId: owner.user.id, title: 'Telscope lens cap' });
    await settle();
    await expect.poll(() => titles(typo), TOLD).toEqual(['Telscope lens cap']);
    expect(await titles(meant)).toEqual(['Folding telescope (renamed)', 'Telescope tripod']);
  });

  it('an edit of an item a search shows empties it', async () => {
    const owner = await createSignedInUser(db());
    const lamp = await createItem(db(), { userId: owner.user.id, title: 'Edited copper lamp' });
    const search = '/api/items?campus=all&searchQuery=copper%20lamp';
    await settle();
    expect(await titles(search)).toEqual(['Edited copper lamp']);
    await listSilently({ userId: owner.user.id, title: 'Silent copper lamp' });
    expect(await titles(search)).toEqual(['Edited copper lamp']);

    const edited = await db()
      .update(items)
      .set({ title: 'Edited copper lamp, green shade' })
      .where(eq(items.id, lamp.id))
      .returning();
    expect(edited).toHaveLength(1);
    await settle();
    expect(await titles(search)).toEqual(['Edited copper lamp, green shade', 'Silent copper lamp']);
    expect((await list(search)).total).toBe(2);
  });

  it('shows the lender their own new listing in a search at once, and everyone the ones listed at the same moment', async () => {
    const lenders = await Promise.all([1, 2, 3, 4].map(() => createSignedInUser(db())));
    const search = '/api/items?campus=all&searchQuery=rowing%20kayak';
    const first = await createItem(db(), { userId: lenders[0]!.user.id, title: 'First rowing kayak' });
    await settle();
    expect(await titles(search)).toEqual(['First rowing kayak']);
    const listing = (i: number) => ({
      title: `Rowing kayak ${i}`,
      description: first.description,
      category: first.category,
      condition: first.condition,
      images: [],
      pickupMethod: first.pickupMethod,
      availableFrom: first.availableFrom,
      availableDays: first.availableDays,
    });
    // Eight listings at once, two by each lender, while the search is read again and again.
    const reads = Array.from({ length: 8 }, () => list(search));
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.post('/api/items', listing(i), lenders[i % 4]!.cookie)),
    );
    await Promise.all(reads);
    for (const response of created) expect(response.statusCode).toBe(201);
    // Each lender, at once: the answer to their request waited for what their listing changes.
    expect(await titles(search)).toContain('Rowing kayak 7');
    await settle();
    const found = await list(search);
    expect(found.items.map((item) => item.title).sort()).toEqual(
      ['First rowing kayak', ...Array.from({ length: 8 }, (_, i) => `Rowing kayak ${i}`)].sort(),
    );
    expect(found.total).toBe(9);
  });

  it('an item going out empties the searches that show it, and no other search', async () => {
    const owner = await createSignedInUser(db());
    const borrower = await createSignedInUser(db());
    const canoe = await createItem(db(), { userId: owner.user.id, title: 'Outbound canoe' });
    const paddle = await createItem(db(), { userId: owner.user.id, title: 'Spare paddle' });
    const canoes = '/api/items?campus=all&availableNow=true&searchQuery=outbound%20canoe';
    const paddles = '/api/items?campus=all&availableNow=true&searchQuery=spare%20paddle';
    await settle();
    expect(await titles(canoes)).toEqual(['Outbound canoe']);
    expect(await titles(paddles)).toEqual(['Spare paddle']);
    await renameSilently([paddle.id], ' (renamed)');

    await db().insert(reservations).values({
      itemId: canoe.id,
      borrowerId: borrower.user.id,
      providerId: owner.user.id,
      startDate: '2026-01-01',
      endDate: '2030-01-03',
      status: 'active',
    });
    await settle();

    expect(await titles(canoes)).toEqual([]);
    expect((await list(canoes)).total).toBe(0);
    expect(await titles(paddles)).toEqual(['Spare paddle']);
  });
});

describe('counts', () => {
  it('Home gets no count; Browse counts once per filter, whatever the page', async () => {
    const owner = await createSignedInUser(db());
    const category: Category = 'professional';
    for (const n of [1, 2, 3]) {
      await createItem(db(), { userId: owner.user.id, title: `Counted suit ${n}`, category });
    }
    await settle();
    const home = await list(
      `/api/items?campus=stanford.edu&category=${category}&availableNow=true&skipTotal=true&limit=8`,
    );
    expect(home.items).toHaveLength(3);
    expect(home.total).toBeUndefined();
    expect(home.totalCapped).toBeUndefined();

    const browse = `/api/items?campus=all&category=${category}&limit=2`;
    expect(await list(`${browse}&page=1`)).toMatchObject({ total: 3, totalCapped: false, hasMore: true });
    // Listed unheard: a page computed now shows it, but the filter's count is the remembered one.
    await listSilently({ userId: owner.user.id, title: 'Counted suit 4', category });
    const second = await list(`${browse}&page=2`);
    expect(second.items.map((item) => item.title)).toEqual(['Counted suit 2', 'Counted suit 1']);
    expect(second.total).toBe(3);

    // An announced listing of that category counts again.
    await createItem(db(), { userId: owner.user.id, title: 'Counted suit 5', category });
    await settle();
    expect((await list(`${browse}&page=3`)).total).toBe(5);
  });

  it('counts a list right after many of its pages were read at once while listings were added to it', async () => {
    const owner = await createSignedInUser(db());
    const category: Category = 'clothing';
    const campus = 'raced.example.edu';
    for (const n of [1, 2])
      await createItem(db(), { userId: owner.user.id, title: `Raced ball ${n}`, category, campus });
    await settle();
    const browse = (page: number) => `/api/items?campus=${campus}&category=${category}&limit=1&page=${page}`;
    // Nobody remembers this list's count: each first page reads it with its page, while four more
    // listings of the same list are written and announced.
    const [answers] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, (_, i) => list(browse(1 + (i % 3))))),
      Promise.all(
        [3, 4, 5, 6].map((n) =>
          createItem(db(), { userId: owner.user.id, title: `Raced ball ${n}`, category, campus }),
        ),
      ),
    ]);
    for (const answer of answers) {
      expect(answer.total).toBeGreaterThanOrEqual(2);
      expect(answer.total).toBeLessThanOrEqual(6);
    }
    await settle();
    // Whatever was read on the way, what is remembered now is the list as it is.
    for (const page of [1, 2, 3, 4]) expect((await list(browse(page))).total).toBe(6);
  });
});
