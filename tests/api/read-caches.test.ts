import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createReadCaches } from '../../src/server/cache/read-caches.ts';
import { items } from '../../src/server/db/schema/items.ts';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { itemListJson } from '../../src/server/features/items/routes.ts';
import { EMAIL_KINDS } from '../../src/shared/schemas/account.ts';
import { itemSearchQuery } from '../../src/shared/schemas/items.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { heardEverything } from '../helpers/announcements.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The read caches (src/server/cache) answer repeated reads from memory, and nobody ever
// reads stale data because of them: a change through the API is seen at once by its writer, and a
// change written by anyone else (another server instance, a job, a script: here, SQL on the
// database itself) reaches every cache through the database's announcement. The caches keep answers
// for 30 s by default, so every "within a second" below would fail without the invalidation.

const MODERATOR = 'cache.moderator@stanford.edu';
const t = setupTestApp({ adminEmails: [MODERATOR] });
const db = () => t.database.db;
const soon = { timeout: 2000, interval: 25 };

/**
 * Writes `change` with one of the items' announcing triggers off for its transaction: nobody hears of
 * it, so only an answer computed afresh shows it.
 */
const unannounced = <T>(
  trigger: 'items_cache_update' | 'items_cache_insert',
  change: (tx: ReturnType<typeof db>) => Promise<T>,
) =>
  db().transaction(async (tx) => {
    await tx.execute(sql.raw(`alter table items disable trigger ${trigger}`));
    const result = await change(tx as unknown as ReturnType<typeof db>);
    await tx.execute(sql.raw(`alter table items enable trigger ${trigger}`));
    return result;
  });
const renameUnannounced = (id: string, title: string) =>
  unannounced('items_cache_update', (tx) => tx.update(items).set({ title }).where(eq(items.id, id)));

/** A list's JSON as GET /api/items computes it afresh, from no remembered answer. */
const computedAfresh = async (url: string) => {
  const query = itemSearchQuery.parse(Object.fromEntries(new URL(url, 'http://campus').searchParams));
  return itemListJson(db(), createReadCaches(0), query, t.config.campusTimeZone);
};

const titlesOf = async (url: string) =>
  ((await t.get(url)).json().items as { title: string }[]).map((item) => item.title);

describe('read caches', () => {
  it('serve a list from memory until an item changes, whoever changes it', async () => {
    const { user } = await createSignedInUser(db());
    const item = await createItem(db(), { userId: user.id, title: 'Cache-test kayak paddle' });
    const url = '/api/items?campus=all&searchQuery=kayak%20paddle';
    expect(await titlesOf(url)).toEqual(['Cache-test kayak paddle']);
    // PostgreSQL hands the announcements of the set-up's own writes to the listener a moment after
    // they commit: let them arrive, then remember the list afresh.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await titlesOf(url)).toEqual(['Cache-test kayak paddle']);

    // Proof that the answer is remembered: a change the database does not announce (the announcing
    // trigger is switched off for this one statement's transaction) is not seen.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table items disable trigger items_cache_update`);
      await tx.update(items).set({ title: 'Silent kayak paddle' }).where(eq(items.id, item.id));
      await tx.execute(sql`alter table items enable trigger items_cache_update`);
    });
    expect(await titlesOf(url)).toEqual(['Cache-test kayak paddle']);

    // An announced change, written outside this server: seen within a second.
    await db().update(items).set({ title: 'Renamed kayak paddle' }).where(eq(items.id, item.id));
    await vi.waitFor(async () => expect(await titlesOf(url)).toEqual(['Renamed kayak paddle']), soon);
  });

  it('show the writer their own change at once', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const item = await createItem(db(), { userId: user.id, title: 'Camping stove' });
    expect((await t.get(`/api/items/${item.id}`)).json().item.title).toBe('Camping stove');
    const listUrl = `/api/items?campus=all&searchQuery=${encodeURIComponent('camping stove')}`;
    expect(await titlesOf(listUrl)).toContain('Camping stove');

    const edited = await t.put(
      `/api/items/${item.id}`,
      {
        title: 'Two-burner camping stove',
        description: item.description,
        category: item.category,
        condition: item.condition,
        images: [],
        pickupMethod: item.pickupMethod,
        availableFrom: item.availableFrom,
        availableDays: item.availableDays,
      },
      cookie,
    );
    expect(edited.statusCode).toBe(200);
    // No waiting: the very next reads.
    expect((await t.get(`/api/items/${item.id}`)).json().item.title).toBe('Two-burner camping stove');
    expect(await titlesOf(listUrl)).toContain('Two-burner camping stove');
  });

  it('stay in place when a change is refused, and empty when one succeeds', async () => {
    const owner = await createSignedInUser(db());
    const neighbour = await createSignedInUser(db());
    const canoe = await createItem(db(), { userId: owner.user.id, title: 'Folding canoe' });
    const neighboursItem = await createItem(db(), { userId: neighbour.user.id, title: 'Tent' });
    const url = '/api/items?campus=all&searchQuery=folding%20canoe';
    const edit = (title: string) => ({
      title,
      description: canoe.description,
      category: canoe.category,
      condition: canoe.condition,
      images: [],
      pickupMethod: canoe.pickupMethod,
      availableFrom: canoe.availableFrom,
      availableDays: canoe.availableDays,
    });
    /** A rename the database does not announce: only a list computed afresh shows it. */
    const renameSilently = (title: string) =>
      db().transaction(async (tx) => {
        await tx.execute(sql`alter table items disable trigger items_cache_update`);
        await tx.update(items).set({ title }).where(eq(items.id, canoe.id));
        await tx.execute(sql`alter table items enable trigger items_cache_update`);
      });
    const refusals = async () => {
      const answers = [
        await t.put(`/api/items/${canoe.id}`, edit(''), owner.cookie),
        await t.post('/api/items', edit('Signed-out canoe')),
        await t.put(`/api/items/${neighboursItem.id}`, edit('Not my tent'), owner.cookie),
        await t.request({
          method: 'POST',
          url: '/api/items',
          payload: edit('Cross-site canoe'),
          cookie: owner.cookie,
          headers: { origin: 'https://elsewhere.example' },
        }),
        await t.put('/api/items/00000000-0000-4000-8000-000000000000', edit('Missing canoe'), owner.cookie),
        await t.post('/api/auth/register', {
          fullName: 'Second Owner',
          // A taken username is the refusal left at registration (decision 023).
          username: owner.user.username,
          email: `second.${owner.user.username}@stanford.edu`,
          password: 'correct horse battery',
          campus: 'stanford.edu',
        }),
      ];
      expect(answers.map((answer) => answer.statusCode)).toEqual([400, 401, 403, 403, 404, 409]);
    };

    // Announcements of the set-up's own writes may still be on their way (PostgreSQL) and empty the
    // cache meanwhile; a round they disturb is tried again. With refusals that empty the cache, every
    // round fails.
    let round = 0;
    await vi.waitFor(
      async () => {
        round += 1;
        const remembered = await titlesOf(url);
        await renameSilently(`Folding canoe, round ${round}`);
        expect(await titlesOf(url), 'the list is remembered').toEqual(remembered);
        await refusals();
        expect(await titlesOf(url), 'the list outlives refused changes').toEqual(remembered);
      },
      { timeout: 10_000, interval: 50 },
    );

    // A change that succeeds empties it at once: its writer sees the database as it is.
    expect(
      (await t.put(`/api/items/${canoe.id}`, edit('Folding canoe, paddles included'), owner.cookie))
        .statusCode,
    ).toBe(200);
    expect(await titlesOf(url)).toEqual(['Folding canoe, paddles included']);
  });

  it('drop, for a new listing from anywhere, only the lists whose filters it meets', async () => {
    const campus = 'new-listing-lists.edu';
    const { user } = await createSignedInUser(db(), { campus });
    const freeLamp = await createItem(db(), {
      userId: user.id,
      campus,
      category: 'electronics',
      title: 'Free desk lamp',
      pickupMethod: 'locker',
    });
    const lists = {
      freeOnly: `/api/items?campus=${campus}&category=electronics&freeOnly=true`,
      underThree: `/api/items?campus=${campus}&maxPrice=3`,
      locker: `/api/items?campus=${campus}&pickupMethod=locker`,
      underTen: `/api/items?campus=${campus}&category=electronics&maxPrice=10`,
      everyCampus: `/api/items?campus=all&category=electronics`,
      everything: `/api/items?campus=${campus}`,
    };
    await new Promise((resolve) => setTimeout(resolve, 200)); // the set-up's announcements arrive first
    for (const url of Object.values(lists)) expect(await titlesOf(url), url).toContain('Free desk lamp');
    const counted = async (url: string) => (await t.get(url)).json().total as number;
    const freeOnlyCount = await counted(lists.freeOnly);

    // Proof of what is remembered: a rename nobody announces shows only in a list computed afresh.
    await renameUnannounced(freeLamp.id, 'Renamed desk lamp');
    // A $5 lamp handed over at a meetup, listed outside this server.
    await createItem(db(), {
      userId: user.id,
      campus,
      category: 'electronics',
      title: 'Five-dollar reading lamp',
      rentalPriceCents: 500,
      pickupMethod: 'meetup',
    });

    // The lists it meets show it within a second, put on their first pages in place (the rename
    // nobody announced is not read again)...
    for (const url of [lists.underTen, lists.everyCampus, lists.everything]) {
      await vi.waitFor(async () => expect(await titlesOf(url)).toContain('Five-dollar reading lamp'), soon);
      expect(await titlesOf(url)).toEqual(['Five-dollar reading lamp', 'Free desk lamp']);
    }
    // ...and those it cannot enter are still the answers remembered before it: a free-only list, a cap
    // below its price, another pickup.
    for (const url of [lists.freeOnly, lists.underThree, lists.locker]) {
      expect(await titlesOf(url)).toEqual(['Free desk lamp']);
    }
    expect(await counted(lists.freeOnly)).toBe(freeOnlyCount);

    // A change to an item still reaches every list of its campus and category.
    await db().update(items).set({ title: 'Desk lamp, warm light' }).where(eq(items.id, freeLamp.id));
    for (const url of [lists.freeOnly, lists.underThree, lists.locker]) {
      await vi.waitFor(async () => expect(await titlesOf(url)).toEqual(['Desk lamp, warm light']), soon);
    }
  });

  it('keep every list and search true through many listings and reads at once, some listings rolled back', async () => {
    const campus = 'many-listings.edu';
    const { user } = await createSignedInUser(db(), { campus });
    const lists = {
      freeOnly: `/api/items?campus=${campus}&freeOnly=true&limit=50`,
      underFive: `/api/items?campus=${campus}&maxPrice=5&limit=50`,
      locker: `/api/items?campus=${campus}&pickupMethod=locker&limit=50`,
      everything: `/api/items?campus=${campus}&limit=50`,
      // A mistyped search is remembered as the words it means.
      mistyped: `/api/items?campus=${campus}&searchQuery=lanterm&limit=50`,
    };
    const listed = [{ title: 'Camping lantern', priceCents: null as number | null, pickup: 'meetup' }];
    await createItem(db(), { userId: user.id, campus, title: 'Camping lantern' });
    await heardEverything(t);
    for (const url of Object.values(lists)) {
      expect(await titlesOf(url)).toEqual(url === lists.locker ? [] : ['Camping lantern']);
    }

    const newcomers = Array.from({ length: 12 }, (_, i) => ({
      title: `Lantern number ${i}`,
      priceCents: [null, 0, 300, 500, 900][i % 5]!,
      pickup: i % 3 === 0 ? 'locker' : 'meetup',
    }));
    const list = (item: (typeof newcomers)[number]) =>
      createItem(db(), {
        userId: user.id,
        campus,
        title: item.title,
        rentalPriceCents: item.priceCents,
        pickupMethod: item.pickup as 'meetup' | 'locker',
      });
    // A failure between the insert and the commit: nothing is announced, nothing may show.
    const listAndFail = (n: number) =>
      db()
        .transaction(async (tx) => {
          await createItem(tx as unknown as ReturnType<typeof db>, {
            userId: user.id,
            campus,
            title: `Rolled-back lantern ${n}`,
            rentalPriceCents: 100,
          });
          throw new Error('cut before the commit');
        })
        .catch(() => undefined);
    const reads = Array.from({ length: 30 }, (_, i) => t.get(Object.values(lists)[i % 5]!));
    await Promise.all([...newcomers.map(list), ...[1, 2, 3].map(listAndFail), ...reads]);
    listed.push(...newcomers);
    await heardEverything(t);

    const titles = (keep: (item: (typeof listed)[number]) => boolean) =>
      listed
        .filter(keep)
        .map((item) => item.title)
        .sort();
    const sorted = async (url: string) => (await titlesOf(url)).sort();
    expect(await sorted(lists.freeOnly)).toEqual(titles((item) => !item.priceCents));
    expect(await sorted(lists.underFive)).toEqual(titles((item) => (item.priceCents ?? 0) <= 500));
    expect(await sorted(lists.locker)).toEqual(titles((item) => item.pickup === 'locker'));
    expect(await sorted(lists.everything)).toEqual(titles(() => true));
    expect(await sorted(lists.mistyped)).toEqual(titles(() => true));
  });

  it('put a new listing from anywhere on the first pages of the newest-first lists it enters, in place', async () => {
    const campus = 'first-pages.edu';
    const { user } = await createSignedInUser(db(), { campus });
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
    const shelf = await Promise.all(
      [40, 30, 20, 10].map((ago, i) =>
        createItem(db(), {
          userId: user.id,
          campus,
          category: 'books',
          title: `Shelf book ${i + 1}`,
          rentalPriceCents: 100 * (4 - i),
          createdAt: minutesAgo(ago),
        }),
      ),
    );
    const lists = {
      newest: `/api/items?campus=${campus}&limit=3`,
      home: `/api/items?campus=${campus}&availableNow=true&skipTotal=true&limit=3`,
      books: `/api/items?campus=all&category=books&limit=3`,
      cheapest: `/api/items?campus=${campus}&sort=price-low&limit=3`,
    };
    await heardEverything(t);
    const before = (await t.get(lists.newest)).json();
    expect(before).toMatchObject({ total: 4, hasMore: true });
    for (const url of Object.values(lists)) await t.get(url);

    // Proof of what is remembered: a rename nobody announces shows only in a list computed afresh.
    await renameUnannounced(shelf[3]!.id, 'Quietly renamed');
    // A new book, listed outside this server.
    await createItem(db(), {
      userId: user.id,
      campus,
      category: 'books',
      title: 'New atlas',
      rentalPriceCents: 50,
    });

    // The newest-first first pages take it in place: the unannounced rename is not read again.
    for (const url of [lists.newest, lists.home, lists.books]) {
      await vi.waitFor(async () => expect((await titlesOf(url))[0]).toBe('New atlas'), soon);
      expect(await titlesOf(url)).toEqual(['New atlas', 'Shelf book 4', 'Shelf book 3']);
    }
    expect((await t.get(lists.newest)).json()).toMatchObject({ total: 5, totalCapped: false, hasMore: true });
    expect((await t.get(lists.home)).json().total).toBeUndefined();
    // A list in another order is computed afresh, and reads the rename.
    await vi.waitFor(async () => expect(await titlesOf(lists.cheapest)).toContain('New atlas'), soon);
    expect(await titlesOf(lists.cheapest)).toContain('Quietly renamed');

    // Put back, each page reads byte for byte as computed afresh.
    await renameUnannounced(shelf[3]!.id, 'Shelf book 4');
    for (const url of [lists.newest, lists.home, lists.books]) {
      expect((await t.get(url)).body, url).toBe(await computedAfresh(url));
    }

    // A page read after a listing was saved but before its announcement arrived shows it already: the
    // announcement then changes nothing (here the listing is saved unannounced, and announced after).
    const globe = await unannounced('items_cache_insert', (tx) =>
      createItem(tx, { userId: user.id, campus, category: 'books', title: 'Globe, read early' }),
    );
    const early = `/api/items?campus=${campus}&limit=2`;
    expect(await titlesOf(early)).toEqual(['Globe, read early', 'New atlas']);
    await db().execute(
      sql`select campusloop_announce(array[${`list:${campus}:books:new::meetup:${globe.id}`}])`,
    );
    await heardEverything(t);
    await vi.waitFor(async () => expect((await t.get(early)).body).toBe(await computedAfresh(early)), soon);
    expect((await t.get(early)).json()).toMatchObject({ total: 6, hasMore: true });
  });

  it('move the later pages of the newest-first lists a new listing enters on by one, in place', async () => {
    const campus = 'later-pages.edu';
    const { user } = await createSignedInUser(db(), { campus });
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
    // Shelf book 8 is the newest: pages of three read 8, 7, 6 | 5, 4, 3 | 2, 1.
    const shelf = [];
    for (let i = 1; i <= 8; i++) {
      shelf.push(
        await createItem(db(), {
          userId: user.id,
          campus,
          category: 'books',
          title: `Shelf book ${i}`,
          createdAt: minutesAgo(90 - 10 * i),
        }),
      );
    }
    const pages = {
      // Read first: its total is counted by its own statement.
      second: `/api/items?campus=${campus}&limit=3&page=2`,
      secondWithoutTotal: `/api/items?campus=${campus}&availableNow=true&skipTotal=true&limit=3&page=2`,
      // Read with the total already remembered from another statement: it cannot tell, and is computed.
      third: `/api/items?campus=${campus}&limit=3&page=3`,
    };
    await heardEverything(t);
    for (const url of Object.values(pages)) await t.get(url);
    expect(await titlesOf(pages.second)).toEqual(['Shelf book 5', 'Shelf book 4', 'Shelf book 3']);

    // Proof of what is remembered: renames nobody announces show only in a page computed afresh.
    await renameUnannounced(shelf[4]!.id, 'Quietly renamed 5');
    await renameUnannounced(shelf[1]!.id, 'Quietly renamed 2');
    await createItem(db(), { userId: user.id, campus, category: 'books', title: 'New atlas' });

    // Each later page moves on by one: the last book of the page before comes first on it.
    for (const url of [pages.second, pages.secondWithoutTotal]) {
      await vi.waitFor(async () => expect((await titlesOf(url))[0]).toBe('Shelf book 6'), soon);
      expect(await titlesOf(url)).toEqual(['Shelf book 6', 'Shelf book 5', 'Shelf book 4']);
    }
    expect((await t.get(pages.second)).json()).toMatchObject({ total: 9, totalCapped: false, hasMore: true });
    expect((await t.get(pages.secondWithoutTotal)).json().total).toBeUndefined();
    await vi.waitFor(
      async () =>
        expect(await titlesOf(pages.third)).toEqual(['Shelf book 3', 'Quietly renamed 2', 'Shelf book 1']),
      soon,
    );

    // Put back, each page reads byte for byte as computed afresh, through three more listings (as
    // many as a page read items before it) and a fourth, after which it is computed again.
    // (The third page, computed, holds the second rename: that one is put back announced.)
    await renameUnannounced(shelf[4]!.id, 'Shelf book 5');
    await db().update(items).set({ title: 'Shelf book 2' }).where(eq(items.id, shelf[1]!.id));
    await heardEverything(t);
    for (const url of Object.values(pages)) {
      await vi.waitFor(
        async () => expect((await t.get(url)).body, url).toBe(await computedAfresh(url)),
        soon,
      );
    }
    for (let i = 1; i <= 4; i++) {
      await createItem(db(), { userId: user.id, campus, category: 'books', title: `Later atlas ${i}` });
      await heardEverything(t);
      for (const url of Object.values(pages)) {
        await vi.waitFor(
          async () => expect((await t.get(url)).body, url).toBe(await computedAfresh(url)),
          soon,
        );
      }
    }
    expect(await titlesOf(pages.second)).toEqual(['Later atlas 1', 'New atlas', 'Shelf book 8']);

    // A later page read after a listing was saved but before its announcement arrived has moved on
    // already: the announcement then moves it no further (saved unannounced here, announced after).
    const globe = await unannounced('items_cache_insert', (tx) =>
      createItem(tx, { userId: user.id, campus, category: 'books', title: 'Globe, read early' }),
    );
    const early = `/api/items?campus=${campus}&availableNow=true&skipTotal=true&limit=4&page=2`;
    expect((await t.get(early)).body).toBe(await computedAfresh(early));
    await db().execute(
      sql`select campusloop_announce(array[${`list:${campus}:books:new::meetup:${globe.id}`}])`,
    );
    await heardEverything(t);
    await vi.waitFor(async () => expect((await t.get(early)).body).toBe(await computedAfresh(early)), soon);
    expect(await titlesOf(early)).toEqual(['Later atlas 1', 'New atlas', 'Shelf book 8', 'Shelf book 7']);
  });

  it('keep every newest-first page true, byte for byte, through many listings and reads at once, some rolled back', async () => {
    const campus = 'first-pages-at-once.edu';
    const { user } = await createSignedInUser(db(), { campus });
    await createItem(db(), {
      userId: user.id,
      campus,
      title: 'Old kettle',
      // Priced, so its lender's payout account exists before the listings at once.
      rentalPriceCents: 100,
      createdAt: new Date(Date.now() - 3600_000),
    });
    const lists = [
      `/api/items?campus=${campus}&limit=4`,
      `/api/items?campus=${campus}&availableNow=true&skipTotal=true&limit=4`,
      `/api/items?campus=${campus}&freeOnly=true&limit=4`,
      `/api/items?campus=${campus}&category=kitchen&limit=4`,
      `/api/items?campus=${campus}&pickupMethod=locker&limit=2`,
      // Later pages: each takes new listings in place once the list is long enough to have items before it.
      `/api/items?campus=${campus}&limit=4&page=2`,
      `/api/items?campus=${campus}&limit=3&page=3`,
      `/api/items?campus=${campus}&availableNow=true&skipTotal=true&limit=4&page=2`,
      `/api/items?campus=${campus}&category=kitchen&limit=3&page=2`,
    ];
    await heardEverything(t);
    for (const url of lists) await t.get(url);

    const listing = (i: number, executor: ReturnType<typeof db> = db()) =>
      createItem(executor, {
        userId: user.id,
        campus,
        category: i % 2 ? 'kitchen' : 'tools',
        title: `Listing number ${i}`,
        rentalPriceCents: i % 3 ? null : 200,
        pickupMethod: i % 4 ? 'meetup' : 'locker',
      });
    // Two listings in one transaction: the same time, to the microsecond.
    const twins = (i: number) =>
      db().transaction(async (tx) => {
        await listing(i, tx as unknown as ReturnType<typeof db>);
        await listing(i + 1, tx as unknown as ReturnType<typeof db>);
      });
    // A failure between the insert and the commit: nothing is announced, nothing may show.
    const rolledBack = (i: number) =>
      db()
        .transaction(async (tx) => {
          await listing(i, tx as unknown as ReturnType<typeof db>);
          throw new Error('cut before the commit');
        })
        .catch(() => undefined);
    // Rounds of listings and reads at once, each ending with every first page as computed afresh: the
    // last listing of a round is put on the pages in place, the others overtaken and recomputed.
    const rounds: (() => Promise<unknown>)[][] = [
      [() => listing(1), () => listing(2), () => rolledBack(3)],
      [() => twins(10), () => listing(12)],
      [() => listing(20), () => rolledBack(21), () => listing(22), () => listing(23)],
      [() => twins(30)],
      [() => listing(40)],
    ];
    for (const round of rounds) {
      const reads = Array.from({ length: 15 }, (_, i) => () => t.get(lists[i % lists.length]!));
      await Promise.all([...round, ...reads].map((step) => step()));
      await heardEverything(t);
      for (const url of lists) {
        await vi.waitFor(
          async () => expect((await t.get(url)).body, url).toBe(await computedAfresh(url)),
          soon,
        );
      }
    }
    expect((await t.get(lists[0]!)).json().total).toBe(12);
  });

  it('never show one visitor what only another may see', async () => {
    const owner = await createSignedInUser(db());
    const stranger = await createSignedInUser(db());
    const moderator = await createSignedInUser(db(), { email: MODERATOR });
    const item = await createItem(db(), { userId: owner.user.id, title: 'Hidden lamp' });
    await db().update(items).set({ hiddenAt: new Date() }).where(eq(items.id, item.id));

    // A signed-out visitor's 404 is remembered; the owner and the moderator still get the page.
    await vi.waitFor(async () => expect((await t.get(`/api/items/${item.id}`)).statusCode).toBe(404), soon);
    expect((await t.get(`/api/items/${item.id}`, stranger.cookie)).statusCode).toBe(404);
    const own = await t.get(`/api/items/${item.id}`, owner.cookie);
    expect(own.statusCode).toBe(200);
    expect(own.json().item.hidden).toBe(true);
    const moderated = await t.get(`/api/items/${item.id}`, moderator.cookie);
    expect(moderated.json().moderation.hiddenAt).toBeTruthy();

    // A public profile is remembered for everyone else; the person's own stays their own.
    const publicProfile = await t.get(`/api/users/${owner.user.id}`, stranger.cookie);
    expect(publicProfile.json().borrowed).toBeUndefined();
    expect(publicProfile.json().items.map((i: { title: string }) => i.title)).not.toContain('Hidden lamp');
    const ownProfile = await t.get(`/api/users/${owner.user.id}`, owner.cookie);
    expect(ownProfile.json().borrowed).toEqual([]);
    expect(ownProfile.json().items.map((i: { title: string }) => i.title)).toContain('Hidden lamp');
    expect((await t.get(`/api/users/${owner.user.id}`)).json().borrowed).toBeUndefined();
  });

  it('end a session at once on sign-out, and within a second on suspension by anyone', async () => {
    const a = await createSignedInUser(db());
    expect((await t.get('/api/notifications/unread', a.cookie)).statusCode).toBe(200);
    expect((await t.post('/api/auth/logout', {}, a.cookie)).statusCode).toBe(200);
    expect((await t.get('/api/notifications/unread', a.cookie)).statusCode).toBe(401);

    const b = await createSignedInUser(db());
    expect((await t.get('/api/conversations/unread-count', b.cookie)).statusCode).toBe(200);
    await db().update(users).set({ suspendedAt: new Date() }).where(eq(users.id, b.user.id));
    await vi.waitFor(
      async () => expect((await t.get('/api/conversations/unread-count', b.cookie)).statusCode).toBe(401),
      soon,
    );
  });

  it('update the unread poll when a notification arrives from anywhere, and at once when read', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const unread = async () =>
      (await t.get('/api/notifications/unread', cookie)).json().notifications as { id: string }[];
    const before = (await unread()).length;

    const [row] = await db()
      .insert(notifications)
      .values({ userId: user.id, type: 'system', title: 'Welcome', message: 'Hello from CampusLoop.' })
      .returning();
    await vi.waitFor(async () => expect(await unread()).toHaveLength(before + 1), soon);

    expect((await t.post(`/api/notifications/${row!.id}/read`, {}, cookie)).statusCode).toBe(200);
    expect(await unread()).toHaveLength(before);
  });

  it('show a writer the notices committed before their write once it answers, though their poll is kept', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const unread = async () =>
      (await t.get('/api/notifications/unread', cookie)).json().notifications as { id: string }[];
    const before = (await unread()).length;
    await db()
      .insert(notifications)
      .values({ userId: user.id, type: 'system', title: 'Welcome', message: 'Hello from CampusLoop.' });
    // A write that waits until this instance has heard every change committed before it: the notice's
    // live event comes on the same connection before that, and drops the poll (read-caches.ts).
    const saved = await t.put(
      '/api/account/notification-preferences',
      { kind: EMAIL_KINDS[0]!.kind, email: true },
      cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await unread()).toHaveLength(before + 1);
  });

  it('keep, after a chat message, every unread poll but its recipient’s chat count', async () => {
    const seller = await createSignedInUser(db());
    const buyer = await createSignedInUser(db());
    const item = await createItem(db(), { userId: seller.user.id });
    const started = await t.post('/api/conversations', { itemId: item.id }, buyer.cookie);
    const conversationId = started.json().conversation.id as string;
    const polls = async (cookie: string) => ({
      notices: (await t.get('/api/notifications/unread', cookie)).json().notifications.length as number,
      chat: (await t.get('/api/conversations/unread-count', cookie)).json().count as number,
    });
    await heardEverything(t);
    const sellerBefore = await polls(seller.cookie);
    const buyerBefore = await polls(buyer.cookie);

    // Proof of what is remembered: a notice for each that nobody announces shows only in a poll
    // computed afresh.
    await db().transaction(async (tx) => {
      await tx.execute(sql`alter table notifications disable trigger notifications_live_insert`);
      await tx.insert(notifications).values(
        [seller, buyer].map(({ user }) => ({
          userId: user.id,
          type: 'system' as const,
          title: 'Unannounced',
          message: 'Written with the live event switched off.',
        })),
      );
      await tx.execute(sql`alter table notifications enable trigger notifications_live_insert`);
    });
    const sent = await t.post(
      `/api/conversations/${conversationId}/messages`,
      { content: 'Free on Friday?' },
      buyer.cookie,
    );
    expect(sent.statusCode, sent.body).toBe(201);
    await heardEverything(t); // the message's live events have arrived

    expect(await polls(seller.cookie)).toEqual({
      notices: sellerBefore.notices,
      chat: sellerBefore.chat + 1,
    });
    expect(await polls(buyer.cookie)).toEqual(buyerBefore);
  });

  it('keep every unread count true through many messages, read marks and polls at once', async () => {
    const seller = await createSignedInUser(db());
    const buyers = [
      await createSignedInUser(db()),
      await createSignedInUser(db()),
      await createSignedInUser(db()),
    ];
    const item = await createItem(db(), { userId: seller.user.id });
    const conversations: string[] = [];
    for (const buyer of buyers) {
      conversations.push(
        (await t.post('/api/conversations', { itemId: item.id }, buyer.cookie)).json().conversation.id,
      );
    }
    const chatCount = async (cookie: string) =>
      (await t.get('/api/conversations/unread-count', cookie)).json().count;
    await heardEverything(t);
    for (const person of [seller, ...buyers]) await chatCount(person.cookie); // remembered now

    // Every buyer writes three times, the seller answers the first and reads the second, while
    // everyone polls.
    const send = (cookie: string, conversationId: string, content: string) =>
      t.post(`/api/conversations/${conversationId}/messages`, { content }, cookie).then((answer) => {
        expect(answer.statusCode, answer.body).toBe(201);
      });
    await Promise.all([
      ...buyers.flatMap((buyer, i) =>
        [1, 2, 3].map((n) => send(buyer.cookie, conversations[i]!, `Question ${n}`)),
      ),
      send(seller.cookie, conversations[0]!, 'Yes, it is free'),
      ...Array.from({ length: 20 }, (_, i) => chatCount([seller, ...buyers][i % 4]!.cookie)),
    ]);
    await t.post(`/api/conversations/${conversations[1]}/read`, {}, seller.cookie);
    await heardEverything(t);

    // Three unread from each buyer, less the three the seller read; the first buyer has one answer.
    expect(await chatCount(seller.cookie)).toBe(6);
    expect(await Promise.all(buyers.map((buyer) => chatCount(buyer.cookie)))).toEqual([1, 0, 0]);
  });

  it('update the unread poll when a notice still unread is reworded from anywhere', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const [row] = await db()
      .insert(notifications)
      .values({ userId: user.id, type: 'system', title: '3 new listings', message: 'For “desk lamp”.' })
      .returning();
    const titleOf = async () =>
      (
        (await t.get('/api/notifications/unread', cookie)).json().notifications as {
          id: string;
          title: string;
        }[]
      ).find((notice) => notice.id === row!.id)?.title;
    await vi.waitFor(async () => expect(await titleOf()).toBe('3 new listings'), soon);
    // Its read mark stays as it was: no live event, only the database's announcement of the words.
    await db().update(notifications).set({ title: '4 new listings' }).where(eq(notifications.id, row!.id));
    await vi.waitFor(async () => expect(await titleOf()).toBe('4 new listings'), soon);
  });
});
