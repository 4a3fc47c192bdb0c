import { describe, expect, it } from 'vitest';
import { type CachedAnswer, createReadCaches, searchTags } from '../../cache/read-caches.ts';
import type { Db } from '../../db/client.ts';
import { type Matcher, SearchesTold } from './searches-told.ts';
import { vocabularyOf } from './vocabulary.ts';

// A remembered search is dropped when an announcement names an item its words match; when one names
// lists but no item, or the check fails, every search goes: what is not known to be fresh is not kept.

type Matching = Matcher['matching'];

function setUp(matching: Matching, keptMs = 60_000) {
  const db = {} as Db;
  vocabularyOf(db).add(['brass', 'lamp', 'kayak']);
  const caches = createReadCaches(30_000, undefined, 600_000);
  const forgotten: string[] = [];
  const told = new SearchesTold(db, caches, keptMs, { matching, forget: (words) => forgotten.push(words) });
  const remember = async (key: string, words: string[], campus?: string) => {
    const tag = await told.tell(words, campus);
    expect(tag).toBeDefined();
    await caches.catalogue.get(
      key,
      async (): Promise<CachedAnswer> => ({ json: key, tags: searchTags([], tag) }),
      (a) => a.tags,
      {
        announced: true,
      },
    );
  };
  const remembered = (key: string) => caches.catalogue.holds(key);
  return { told, caches, remember, remembered, forgotten };
}

/** Lets the check under way end. */
const checked = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('searches told of the items their words match', () => {
  it('drops the searches whose words match an announced item, and no other', async () => {
    const asked: { items: readonly string[]; searches: string[] }[] = [];
    const { told, remember, remembered } = setUp(async (_db, items, wordSets) => {
      const sets = [...wordSets.values()];
      asked.push({
        items,
        searches: sets
          .flatMap((set) => [...set.searches].map(([tag, campus]) => `${tag} on ${campus ?? 'every campus'}`))
          .sort(),
      });
      return sets.filter((set) => set.words.includes('lamp')).flatMap((set) => [...set.searches.keys()]);
    });
    await remember('lamps', ['brass', 'lamp']);
    await remember('kayaks', ['kayak'], 'mit.edu');
    told.heard(['item:i1', 'profile:u1', 'list:stanford.edu', 'list:stanford.edu:kitchen']);
    await checked();
    expect(asked).toEqual([
      { items: ['i1'], searches: ['words:*:brass lamp on every campus', 'words:mit.edu:kayak on mit.edu'] },
    ]);
    expect(remembered('lamps')).toBe(false);
    expect(remembered('kayaks')).toBe(true);
  });

  it('asks nothing for an announcement that names no list (a profile, a session)', async () => {
    let asked = 0;
    const { told, remember, remembered } = setUp(async () => {
      asked++;
      return [];
    });
    await remember('lamps', ['brass', 'lamp']);
    told.heard(['item:i1', 'profile:u1']);
    told.heard(['session:u1']);
    await checked();
    expect(asked).toBe(0);
    expect(remembered('lamps')).toBe(true);
  });

  it('drops every search when an announcement names lists but no item', async () => {
    const { told, remember, remembered } = setUp(async () => []);
    await remember('lamps', ['brass', 'lamp']);
    told.heard(['list:stanford.edu', 'list:stanford.edu:kitchen']);
    expect(remembered('lamps')).toBe(false);
  });

  it('drops every search when the check fails', async () => {
    const { told, remember, remembered } = setUp(async () => {
      throw new Error('connection lost');
    });
    await remember('lamps', ['brass', 'lamp']);
    await remember('kayaks', ['kayak']);
    told.heard(['availability:i2', 'list:stanford.edu', 'list:stanford.edu:sports']);
    await checked();
    expect(remembered('lamps')).toBe(false);
    expect(remembered('kayaks')).toBe(false);
  });

  it('checks the items announced while a check runs in one more statement, none left out', async () => {
    const asked: (readonly string[])[] = [];
    let release = () => {};
    const { told, remember } = setUp(async (_db, items) => {
      asked.push(items);
      if (asked.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return [];
    });
    await remember('lamps', ['brass', 'lamp']);
    told.heard(['item:i1', 'list:a']);
    told.heard(['item:i2', 'list:a']);
    told.heard(['item:i3', 'list:a']);
    release();
    await checked();
    await checked();
    expect(asked.map((items) => [...items].sort())).toEqual([['i1'], ['i2', 'i3']]);
  });

  it('tells only a search whose every word the catalogue knows as typed', async () => {
    const { told } = setUp(async () => []);
    expect(await told.tell(['brass', 'lam'], 'all')).toBe('words:*:brass lam');
    expect(await told.tell(['brass', 'lam'], 'mit.edu')).toBe('words:mit.edu:brass lam');
    // "lmap" starts no word: searched as corrected, which a new word could change.
    expect(await told.tell(['brass', 'lmap'], undefined)).toBeUndefined();
    expect(await told.tell([], undefined)).toBeUndefined();
  });

  it('keeps the searches by their words, a word set leaving with its last search', async () => {
    const seen: string[][] = [];
    const { told, remember, forgotten } = setUp(async (_db, _items, wordSets) => {
      seen.push([...wordSets].map(([key, set]) => `${key}: ${[...set.searches.keys()].join(', ')}`));
      return [];
    });
    await remember('lamps here', ['brass', 'lamp'], 'mit.edu');
    await remember('lamps anywhere', ['brass', 'lamp']);
    await remember('kayaks', ['kayak']);
    told.heard(['item:i1', 'list:a']);
    await checked();
    expect(seen).toEqual([
      ['brass lamp: words:mit.edu:brass lamp, words:*:brass lamp', 'kayak: words:*:kayak'],
    ]);
    // Every search forgotten (the hub was down): every word set leaves, each once.
    told.forget();
    expect(forgotten.sort()).toEqual(['brass lamp', 'kayak']);
    told.heard(['item:i2', 'list:a']);
    await checked();
    expect(seen[1]).toEqual([]); // nothing remembered any more
  });
});
