import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/server/clock.ts';
import { notificationDeliveries } from '../../src/server/db/schema/deliveries.ts';
import type { items } from '../../src/server/db/schema/items.ts';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { savedSearches, savedSearchMatches } from '../../src/server/db/schema/saved-searches.ts';
import { deliveryService } from '../../src/server/features/deliveries/service.ts';
import { savedSearchService } from '../../src/server/features/saved-searches/service.ts';
import { QUEUES } from '../../src/server/jobs/queue.ts';
import { SAVED_SEARCH_LIMIT } from '../../src/shared/schemas/saved-searches.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { readOutbox, recipients } from '../helpers/outbox.ts';
import { rowCounts } from '../helpers/row-counts.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Saved searches (decision 067): who may keep them and how many, the same search kept once, and a new
// listing matched by the search's own rules, told once per person and listing, batched into one
// notification and one e-mail. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.

const t = setupTestApp();
const db = () => t.database.db;
const BATCH_MS = 15 * 60_000;
// Ahead of the wall clock, so what the database stamps with now() is in the test clock's past.
const clock = fixedClock(new Date(Date.now() + 60_000));
const matchDeps = () => ({ db: db(), batchMs: BATCH_MS, now: () => clock.now() });
const match = (itemId: string) => savedSearchService.matchListing(matchDeps(), itemId);
const quiet = { info() {}, warn() {}, error() {} };

const save = (cookie: string | undefined, body: Record<string, unknown>) =>
  t.post('/api/saved-searches', body, cookie);

async function matchNotices(cookie: string) {
  const response = await t.get('/api/notifications', cookie);
  expect(response.statusCode).toBe(200);
  return (
    response.json().notifications as { type: string; title: string; message: string; relatedItemId: string }[]
  ).filter((n) => n.type === 'saved_search_match');
}

describe('keeping saved searches', () => {
  it('saves a search with its filters, lists it, and deletes it', async () => {
    const { cookie } = await createSignedInUser(db());
    const saved = await save(cookie, { searchQuery: '  Camping tent ', category: 'other', maxPrice: 12.5 });
    expect(saved.statusCode).toBe(201);
    expect(saved.json().savedSearch).toMatchObject({
      searchQuery: 'Camping tent',
      category: 'other',
      maxPrice: '12.50',
      freeOnly: false,
    });
    const listed = await t.get('/api/saved-searches', cookie);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ limit: SAVED_SEARCH_LIMIT });
    expect(listed.json().savedSearches.map((s: { id: string }) => s.id)).toEqual([
      saved.json().savedSearch.id,
    ]);
    const deleted = await t.del(`/api/saved-searches/${saved.json().savedSearch.id}`, cookie);
    expect(deleted.statusCode).toBe(200);
    expect((await t.get('/api/saved-searches', cookie)).json().savedSearches).toEqual([]);
  });

  it('answers the one already kept for the same words and filters, however they are typed', async () => {
    const { cookie } = await createSignedInUser(db());
    const first = await save(cookie, { searchQuery: 'Desk lamp', freeOnly: true });
    const again = await save(cookie, { searchQuery: 'desk, LAMP!', freeOnly: true });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json().savedSearch.id).toBe(first.json().savedSearch.id);
    // Other filters are another search.
    const other = await save(cookie, { searchQuery: 'desk lamp' });
    expect(other.statusCode).toBe(201);
    expect(other.json().savedSearch.id).not.toBe(first.json().savedSearch.id);
  });

  it('refuses bad input with a clear 400 and keeps nothing', async () => {
    const { cookie } = await createSignedInUser(db());
    const before = await rowCounts(db());
    const bad: [Record<string, unknown>, string][] = [
      [{}, 'searchQuery'],
      [{ searchQuery: '' }, 'searchQuery'],
      [{ searchQuery: '?!  …' }, 'searchQuery'],
      [{ searchQuery: 'x'.repeat(201) }, 'searchQuery'],
      [{ searchQuery: 42 }, 'searchQuery'],
      [{ searchQuery: 'drill', category: 'weapons' }, 'category'],
      [{ searchQuery: 'drill', maxPrice: -1 }, 'maxPrice'],
      [{ searchQuery: 'drill', maxPrice: '5' }, 'maxPrice'],
      [{ searchQuery: 'drill', freeOnly: 'yes' }, 'freeOnly'],
    ];
    for (const [body, path] of bad) {
      const response = await save(cookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    expect((await t.del('/api/saved-searches/not-an-id', cookie)).statusCode).toBe(400);
    expect(await rowCounts(db())).toEqual(before);
  });

  it('is for signed-in students only, and each deletes only their own', async () => {
    const owner = await createSignedInUser(db());
    const other = await createSignedInUser(db());
    const saved = (await save(owner.cookie, { searchQuery: 'tripod' })).json().savedSearch;
    expect((await save(undefined, { searchQuery: 'tripod' })).statusCode).toBe(401);
    expect((await t.get('/api/saved-searches')).statusCode).toBe(401);
    expect((await t.del(`/api/saved-searches/${saved.id}`)).statusCode).toBe(401);
    expect((await t.del(`/api/saved-searches/${saved.id}`, other.cookie)).statusCode).toBe(404);
    expect((await t.get('/api/saved-searches', other.cookie)).json().savedSearches).toEqual([]);
    expect((await t.get('/api/saved-searches', owner.cookie)).json().savedSearches).toHaveLength(1);
  });

  it(`keeps at most ${SAVED_SEARCH_LIMIT} a person, also when they are saved at once`, async () => {
    const { user, cookie } = await createSignedInUser(db());
    const answers = await Promise.all(
      Array.from({ length: SAVED_SEARCH_LIMIT + 5 }, (_, i) => save(cookie, { searchQuery: `thing${i}` })),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(SAVED_SEARCH_LIMIT);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.json().message).toMatch(/20 saved searches/);
    const kept = await db().select().from(savedSearches).where(eq(savedSearches.userId, user.id));
    expect(kept).toHaveLength(SAVED_SEARCH_LIMIT);
    // The same search again is still answered: it is the one kept, not a new one.
    expect((await save(cookie, { searchQuery: 'thing0' })).statusCode).toBe(200);
  });

  it('keeps one search when the same one is posted many times at once', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => save(cookie, { searchQuery: 'Bike pump', maxPrice: 3 })),
    );
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 201)).toBe(true);
    expect(new Set(answers.map((a) => a.json().savedSearch.id)).size).toBe(1);
    const kept = await db().select().from(savedSearches).where(eq(savedSearches.userId, user.id));
    expect(kept).toHaveLength(1);
  });
});

describe('matching a new listing', () => {
  it('queues the matching job with the listing, off the request', async () => {
    const { cookie } = await createSignedInUser(db());
    const before = await t.app.jobs.size(QUEUES.savedSearchMatches);
    const listed = await t.post(
      '/api/items',
      {
        title: 'Soldering iron',
        description: 'A soldering iron with a stand.',
        category: 'tools',
        condition: 'good',
        images: [],
        pickupMethod: 'meetup',
        availableFrom: new Date().toISOString().slice(0, 10),
        availableDays: [0, 1, 2, 3, 4, 5, 6],
      },
      cookie,
    );
    expect(listed.statusCode, listed.body).toBe(201);
    expect(await t.app.jobs.size(QUEUES.savedSearchMatches)).toBe(before + 1);
  });

  // Each row: a saved search, a listing, whether its saver is told. The words rows are also what
  // Browse's search finds for the same words on the campus.
  const cases: {
    name: string;
    search: Record<string, unknown>;
    listing?: Partial<typeof items.$inferInsert>;
    searcher?: { campus: string };
    own?: boolean;
    hidden?: boolean;
    told: boolean;
    searchFinds?: boolean;
  }[] = [
    { name: 'a word of the title', search: { searchQuery: 'microscope' }, told: true, searchFinds: true },
    { name: 'a prefix of a word', search: { searchQuery: 'micro' }, told: true, searchFinds: true },
    {
      name: 'a typo the search corrects',
      search: { searchQuery: 'microscpe' },
      told: true,
      searchFinds: true,
    },
    { name: 'a word of the description', search: { searchQuery: 'slides' }, told: true, searchFinds: true },
    {
      name: 'every word must match',
      search: { searchQuery: 'microscope telescope' },
      told: false,
      searchFinds: false,
    },
    { name: 'another word', search: { searchQuery: 'kayak' }, told: false, searchFinds: false },
    { name: 'its category', search: { searchQuery: 'microscope', category: 'electronics' }, told: true },
    { name: 'another category', search: { searchQuery: 'microscope', category: 'books' }, told: false },
    { name: 'within the price', search: { searchQuery: 'microscope', maxPrice: 4 }, told: true },
    { name: 'over the price', search: { searchQuery: 'microscope', maxPrice: 3.99 }, told: false },
    { name: 'free only, a paid listing', search: { searchQuery: 'microscope', freeOnly: true }, told: false },
    {
      name: 'free only, a free listing',
      search: { searchQuery: 'microscope', freeOnly: true },
      listing: { rentalPriceCents: null },
      told: true,
    },
    {
      name: 'another campus',
      search: { searchQuery: 'microscope' },
      searcher: { campus: 'berkeley.edu' },
      told: false,
    },
    { name: 'their own listing', search: { searchQuery: 'microscope' }, own: true, told: false },
    { name: 'a hidden listing', search: { searchQuery: 'microscope' }, hidden: true, told: false },
  ];

  it.each(cases)('$name: told $told', async (row) => {
    const searcher = await createSignedInUser(db(), row.searcher ?? {});
    const lister = row.own ? searcher : await createSignedInUser(db());
    expect((await save(searcher.cookie, row.search)).statusCode).toBe(201);
    const listing = await createItem(db(), {
      userId: lister.user.id,
      title: 'Student microscope',
      description: 'A microscope with twenty prepared slides.',
      category: 'electronics',
      rentalPriceCents: 400,
      ...(row.hidden ? { hiddenAt: new Date() } : {}),
      ...row.listing,
    });
    await match(listing.id);
    const told = (await matchNotices(searcher.cookie)).filter((n) => n.relatedItemId === listing.id);
    expect(told).toHaveLength(row.told ? 1 : 0);
    if (row.searchFinds !== undefined) {
      const query = new URLSearchParams({
        searchQuery: String(row.search.searchQuery),
        campus: 'stanford.edu',
      });
      const found = (await t.get(`/api/items?${query}&limit=50`))
        .json()
        .items.map((i: { id: string }) => i.id);
      expect(found.includes(listing.id)).toBe(row.searchFinds);
    }
  });

  it('tells a person once of a listing two of their searches match, and once when run twice', async () => {
    const searcher = await createSignedInUser(db());
    const lister = await createSignedInUser(db());
    await save(searcher.cookie, { searchQuery: 'easel' });
    await save(searcher.cookie, { searchQuery: 'wooden easel' });
    const listing = await createItem(db(), {
      userId: lister.user.id,
      title: 'Wooden easel',
      category: 'other',
    });
    expect(await match(listing.id)).toBe(1);
    expect(await match(listing.id)).toBe(0);
    expect((await matchNotices(searcher.cookie)).filter((n) => n.relatedItemId === listing.id)).toHaveLength(
      1,
    );
  });
});

describe('telling in batches', () => {
  it('makes matches within the window one notification and one e-mail with each link', async () => {
    const searcher = await createSignedInUser(db());
    const lister = await createSignedInUser(db());
    await save(searcher.cookie, { searchQuery: 'metronome' });
    const first = await createItem(db(), { userId: lister.user.id, title: 'Metronome', category: 'other' });
    const second = await createItem(db(), {
      userId: lister.user.id,
      title: 'Digital metronome',
      category: 'electronics',
    });
    await match(first.id);
    clock.advance(60_000);
    await match(second.id);
    const notices = await matchNotices(searcher.cookie);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.title).toBe('2 new matches for “metronome”');
    expect(notices[0]!.message).toContain('“Digital metronome”');
    expect(notices[0]!.relatedItemId).toBe(first.id);

    // The e-mail waits for the window to close, then goes once with both listings' links.
    const email = await db()
      .select()
      .from(notificationDeliveries)
      .innerJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
      .where(and(eq(notifications.userId, searcher.user.id), eq(notificationDeliveries.channel, 'email')));
    expect(email).toHaveLength(1);
    const round = () =>
      deliveryService.runRound({
        db: db(),
        mailer: t.app.mailer,
        push: null,
        appUrl: t.config.appUrl,
        clock,
        log: quiet,
      });
    const mailsTo = async () =>
      (await readOutbox(t.outboxDir)).filter((m) =>
        recipients(m).includes(searcher.user.email.toLowerCase()),
      );
    await round();
    expect(await mailsTo()).toHaveLength(0);
    clock.advance(BATCH_MS);
    await round();
    const mails = await mailsTo();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('2 new matches for “metronome”');
    expect(mails[0]!.text).toContain(`${t.config.appUrl}/item/${first.id}`);
    expect(mails[0]!.text).toContain(`${t.config.appUrl}/item/${second.id}`);
    expect(mails[0]!.text).toMatch(/\/api\/unsubscribe\?token=/);

    // After the window, a new listing opens a new batch.
    const third = await createItem(db(), {
      userId: lister.user.id,
      title: 'Old metronome',
      category: 'other',
    });
    await match(third.id);
    expect(await matchNotices(searcher.cookie)).toHaveLength(2);
    await round();
    expect(await mailsTo()).toHaveLength(1);
  });

  it('tells each search once per listing when many listings are matched at once', async () => {
    const lister = await createSignedInUser(db());
    const searchers = await Promise.all(Array.from({ length: 4 }, () => createSignedInUser(db())));
    for (const s of searchers)
      expect((await save(s.cookie, { searchQuery: 'ukulele' })).statusCode).toBe(201);
    const listings = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createItem(db(), { userId: lister.user.id, title: `Ukulele ${i}`, category: 'other' }),
      ),
    );
    // Every listing's job at once, each twice (a retry racing the first attempt).
    await Promise.all([...listings, ...listings].map((listing) => match(listing.id)));
    for (const s of searchers) {
      const matches = await db()
        .select()
        .from(savedSearchMatches)
        .where(eq(savedSearchMatches.userId, s.user.id));
      expect(matches).toHaveLength(listings.length);
      const notices = await matchNotices(s.cookie);
      expect(notices).toHaveLength(1);
      expect(notices[0]!.title).toBe(`${listings.length} new matches for “ukulele”`);
      expect(new Set(matches.map((m) => m.notificationId)).size).toBe(1);
    }
  });
});
