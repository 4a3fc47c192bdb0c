import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SearchVocabulary } from '../../src/server/features/items/vocabulary.ts';
import { createItem, createSignedInUser, createUser, freeListing } from '../factories.ts';
import { heardEverything } from '../helpers/announcements.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The uncached path: a list counts up to 1,000 and then says "more" instead of counting every
// match, a search ranks a bounded set, and misspelt words are corrected against the catalogue's own
// vocabulary (search_words, migration 0012), which learns each new listing's words as it is written.

const t = setupTestApp();
const db = () => t.database.db;

type ItemListBody = {
  items: { id: string; title: string }[];
  total: number;
  totalCapped: boolean;
  hasMore: boolean;
};
const list = async (query: string) => {
  const response = await t.get(`/api/items?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ItemListBody;
};

const listing = freeListing;

describe('lists past a thousand items', () => {
  const campus = 'capped.example.edu';
  beforeAll(async () => {
    const owner = await createUser(db(), { campus, email: 'lender@capped.example.edu' });
    // 1,005 listings in one statement: 1,000 kettles, 5 teapots, each its own creation time.
    await db().execute(sql`
      insert into items (user_id, title, description, category, condition, pickup_method, available_from,
        campus, created_at)
      select ${owner.id}, case when n <= 1000 then 'Electric kettle ' || n else 'Teapot ' || n end,
        'Boils water.', 'kitchen', 'good', 'meetup', '2026-01-01', ${campus},
        now() - make_interval(secs => n)
      from generate_series(1, 1005) as n`);
  });

  it('counts up to 1,000, then says there are more; "has more" comes from the page itself', async () => {
    const first = await list(`campus=${campus}&limit=12`);
    expect(first).toMatchObject({ total: 1000, totalCapped: true, hasMore: true });
    expect(first.items).toHaveLength(12);
    // Newest first: kettle 1 was made last.
    expect(first.items[0]!.title).toBe('Electric kettle 1');
    // The last page of all, past the count: page 84 of 12 holds listings 997 to 1,005.
    const last = await list(`campus=${campus}&limit=12&page=84`);
    expect(last.items).toHaveLength(9);
    expect(last.items.at(-1)!.title).toBe('Teapot 1005');
    expect(last.hasMore).toBe(false);
    // A filter under the cap counts exactly.
    expect(await list(`campus=${campus}&searchQuery=teapot`)).toMatchObject({ total: 5, totalCapped: false });
  });

  it('a search matching more than a thousand items says so, and ranks and pages the newest thousand', async () => {
    // All 1,005 descriptions say "water".
    const water = await list(`campus=${campus}&searchQuery=water&limit=50`);
    expect(water).toMatchObject({ total: 1000, totalCapped: true, hasMore: true });
    expect(water.items[0]!.title).toBe('Electric kettle 1');
    const lastPage = await list(`campus=${campus}&searchQuery=water&limit=50&page=20`);
    expect(lastPage.items).toHaveLength(50);
    expect(lastPage.hasMore).toBe(false);
    // Every word must match: "teapot water" finds the five teapots.
    expect((await list(`campus=${campus}&searchQuery=teapot%20water`)).total).toBe(5);
  });
});

describe('the search vocabulary', () => {
  const campus = 'vocabulary.example.edu';

  it('corrects a misspelt word to a word of the catalogue, and learns a new listing’s words at once', async () => {
    const { user, cookie } = await createSignedInUser(db(), { campus, email: 'v@vocabulary.example.edu' });
    const zither = await createItem(db(), {
      userId: user.id,
      campus,
      title: 'Concert zither',
      description: 'Thirty-six strings, tuned.',
      category: 'other',
    });
    // Written by SQL, as by another server: its words are read once its announcement is heard.
    await heardEverything(t);
    expect((await list(`campus=${campus}&searchQuery=zithr`)).items.map((i) => i.id)).toEqual([zither.id]);

    // A listing through the API; its words are known the moment it is saved.
    const created = await t.post(
      '/api/items',
      listing({ title: 'Theodolite', description: 'Surveying instrument with tripod.', category: 'tools' }),
      cookie,
    );
    expect(created.statusCode, created.body).toBe(201);
    const words = await db().execute<{ word: string }>(
      sql`select word from search_words where word in ('theodolite', 'surveying', 'tripod') order by word`,
    );
    expect(words.rows.map((r) => r.word)).toEqual(['surveying', 'theodolite', 'tripod']);
    const found = await list(`campus=${campus}&searchQuery=theodolyte%20tripd`);
    expect(found.items.map((i) => i.title)).toEqual(['Theodolite']);

    // An edit teaches the new words too.
    await db().execute(
      sql`update items set description = 'Surveying instrument with a sextant.' where campus = ${campus} and title = 'Theodolite'`,
    );
    await heardEverything(t);
    expect((await list(`campus=${campus}&searchQuery=sextnt`)).items.map((i) => i.title)).toEqual([
      'Theodolite',
    ]);
  });

  it('asks for the words learnt since its last read through one statement prepared by name', async () => {
    const owner = await createUser(db(), { campus });
    await createItem(db(), { userId: owner.id, campus, title: 'Hurdy-gurdy', category: 'other' });
    await heardEverything(t);
    // What node-postgres is asked to run: a statement with a name is parsed and planned once per
    // connection, not on every run. (PGlite has no named statements to see.)
    const names: (string | undefined)[] = [];
    const submit = pg.Query.prototype.submit;
    const spy = vi.spyOn(pg.Query.prototype, 'submit').mockImplementation(function (
      this: pg.Query & { name?: string; text?: string },
      ...args: unknown[]
    ) {
      if (this.text?.includes('from "search_words"')) names.push(this.name);
      return (submit as (...a: unknown[]) => unknown).apply(this, args);
    } as never);
    try {
      // The announced listing has the first search read the words learnt since; the second reads none.
      for (const typed of ['hurdi', 'gurdie']) {
        const found = await list(`campus=${campus}&searchQuery=${typed}`);
        expect(found.items.map((i) => i.title)).toEqual(['Hurdy-gurdy']);
      }
    } finally {
      spy.mockRestore();
    }
    if (t.database.kind === 'postgres') {
      expect(names.length).toBeGreaterThanOrEqual(1);
      expect(new Set(names)).toEqual(new Set(['search_words_learnt_since']));
    }
  });

  it('reads the words learnt only after an announced item change, not for every word it lacks', async () => {
    const { user, cookie } = await createSignedInUser(db(), { campus, email: 'x@vocabulary.example.edu' });
    await createItem(db(), { userId: user.id, campus, title: 'Bassoon reed', category: 'other' });
    await heardEverything(t);
    const reads = vi.spyOn(
      SearchVocabulary.prototype as unknown as { readNew: () => Promise<void> },
      'readNew',
    );
    try {
      // An item change was announced: the first search reads the words learnt since, once.
      expect((await list(`campus=${campus}&searchQuery=xylophon`)).items).toEqual([]);
      expect(reads).toHaveBeenCalledTimes(1);
      // "xylophon" starts no word of the catalogue, on another page (not a remembered answer) or among
      // other words: nothing announced since could have taught it.
      expect((await list(`campus=${campus}&searchQuery=xylophon&page=2`)).items).toEqual([]);
      expect((await list(`campus=${campus}&searchQuery=xylophon%20reed&category=other`)).total).toBe(0);
      expect(reads).toHaveBeenCalledTimes(1);
      // A listing teaches it; its announcement has the next search read again, and find it.
      const created = await t.post(
        '/api/items',
        listing({ title: 'Xylophone', description: 'Two octaves, with mallets.', category: 'other' }),
        cookie,
      );
      expect(created.statusCode, created.body).toBe(201);
      expect((await list(`campus=${campus}&searchQuery=xylophon`)).items.map((i) => i.title)).toEqual([
        'Xylophone',
      ]);
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });

  it('keeps a word the catalogue has as a prefix, and finds nothing for a word too far from every word', async () => {
    const owner = await createUser(db(), { campus });
    await createItem(db(), {
      userId: owner.id,
      campus,
      title: 'Graphing calculator',
      category: 'electronics',
    });
    // "calc" starts "calculator": searched as typed (a prefix), not corrected to another word.
    expect((await list(`campus=${campus}&searchQuery=calc`)).items.map((i) => i.title)).toEqual([
      'Graphing calculator',
    ]);
    expect(await list(`campus=${campus}&searchQuery=qqxxzzvv`)).toMatchObject({ items: [], total: 0 });
    // Punctuation alone holds no word to search for: the list as without a search.
    const everything = await list(`campus=${campus}`);
    expect(await list(`campus=${campus}&searchQuery=%21%21%21`)).toEqual(everything);
  });

  it('learns the same new words from listings saved at the same moment, in any order, without a deadlock', async () => {
    const lenders = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        createSignedInUser(db(), { campus, email: `same.moment.${i}@vocabulary.example.edu` }),
      ),
    );
    const words = ['quokka', 'wombat', 'platypus', 'echidna', 'bilby'];
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        // Each listing names the same five new words, rotated: the words arrive in every order.
        const rotated = [...words.slice(i % 5), ...words.slice(0, i % 5)];
        return t.post(
          '/api/items',
          listing({ title: `Plush ${rotated[0]}`, description: `Soft toys: ${rotated.join(', ')}.` }),
          lenders[i % lenders.length]!.cookie,
        );
      }),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const learnt = await db().execute<{ word: string }>(
      sql`select word from search_words where word = any(${sql.param(words)}::text[]) order by word`,
    );
    expect(learnt.rows.map((r) => r.word)).toEqual([...words].sort());
    expect((await list(`campus=${campus}&searchQuery=wombatt&limit=50`)).total).toBe(20);
  });
});
