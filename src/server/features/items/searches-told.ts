import { LRUCache } from 'lru-cache';
import { catalogueTags, dropWhenDone, type ReadCaches } from '../../cache/read-caches.ts';
import type { Db } from '../../db/client.ts';
import type { RealtimeHub } from '../../db/realtime-hub.ts';
import { SearchesMatched, type WordSet } from './searches-matched.ts';
import { vocabularyOf } from './vocabulary.ts';

// Searches told of the items that enter or leave them (decision 076). A search is remembered by the
// items it shows, and the database announces a change to an item with its lists (`list:…`) and the
// item's id (`item:<id>`, or `availability:<id>` for a booking going out or coming back); a new listing
// a search would now find named no answer of the search, so searches were kept only 30 s. Now, when an
// announcement names lists, this finds which of the searches this instance remembers match any of the
// items it names (their words against the items' search vectors, on their campus, whatever their other
// filters: one statement for the items' words, the matching in memory, searches-matched.ts), and drops
// those and their counts; an announcement that names lists but no item drops every search. Searches are
// then kept as long as lists are.
//
// Only words the catalogue already knows as typed are told so: they stay as typed (the vocabulary only
// grows), so what they find changes only with items they match. A mistyped search is told as the words
// the vocabulary corrected it to ("drll" → "drill"), which is what it is remembered by (items/routes.ts):
// once new words correct it otherwise, it is another search. A word near none keeps the short time.

/** The most word lists remembered: beyond it, the least recently asked go, and their answers with them. */
const MAX_SEARCHES = 10_000;

/** A search told: its words, and its campus (none: every campus). */
interface Search {
  words: readonly string[];
  campus: string | undefined;
}

/** What matches the searches remembered against items (searches-matched.ts; another in unit tests). */
export interface Matcher {
  /** The tags of the searches of `wordSets` that match any of the items. */
  matching(db: Db, itemIds: readonly string[], wordSets: ReadonlyMap<string, WordSet>): Promise<string[]>;
  /** A word set is no longer remembered. */
  forget(words: string): void;
}

/** A word set's key: its words as the search ran them. */
const wordsKey = (words: readonly string[]) => words.join(' ');

const LIST_TAG = 'list:';
const ITEM_TAGS = [catalogueTags.item(''), catalogueTags.availability('')];

export class SearchesTold {
  /** The words and campus of the searches remembered (or being computed), by their tag. */
  private readonly searches: LRUCache<string, Search>;
  /** The same searches by their words: what a check matches, kept as searches come and go. */
  private readonly wordSets = new Map<string, WordSet & { searches: Map<string, string | undefined> }>();
  /** Items named by announcements and not checked yet. */
  private readonly waiting = new Set<string>();
  private checking: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly caches: ReadCaches,
    keptMs: number,
    private readonly matcher: Matcher = new SearchesMatched(),
  ) {
    this.searches = new LRUCache<string, Search>({
      max: MAX_SEARCHES,
      // As long as any answer it tags may be kept, counted from its last asking.
      ttl: Math.max(1, keptMs),
      updateAgeOnGet: true,
      // No longer checked: what it tags must not outlive it.
      dispose: (search, tag, reason) => {
        this.unlist(search, tag);
        if (reason === 'evict' || reason === 'expire') this.drop(tag);
      },
    });
  }

  /**
   * The tag of a search for `words` told of the items they match, before it is computed (so a check
   * under way when it is stored covers it); undefined when it cannot be told (a word not known as typed).
   * A word not known yet is looked up first, as the search itself would (vocabulary.learn): a listing's
   * own words are known to the first search for them.
   */
  async tell(words: readonly string[], campus: string | undefined): Promise<string | undefined> {
    if (!words.length) return undefined;
    const vocabulary = vocabularyOf(this.db);
    const known = () => words.every((word) => vocabulary.hasPrefix(word));
    if (!known()) {
      try {
        await vocabulary.learn(this.db, words);
      } catch {
        return undefined; // the search itself will say what went wrong
      }
    }
    if (!known()) return undefined;
    const tag = catalogueTags.searchWords(words, campus);
    if (this.searches.get(tag) === undefined) {
      const search = { words, campus: campus && campus !== 'all' ? campus : undefined };
      this.searches.set(tag, search);
      const key = wordsKey(words);
      const same = this.wordSets.get(key);
      if (same) same.searches.set(tag, search.campus);
      else this.wordSets.set(key, { words, searches: new Map([[tag, search.campus]]) });
    }
    return tag;
  }

  /** A search no longer remembered leaves its word set, and the last one the set. */
  private unlist(search: Search, tag: string) {
    const key = wordsKey(search.words);
    const same = this.wordSets.get(key);
    if (!same?.searches.delete(tag) || same.searches.size > 0) return;
    this.wordSets.delete(key);
    this.matcher.forget(key);
  }

  /** One announcement's tags: the items it names are checked against the searches remembered. */
  heard(tags: readonly string[]) {
    if (!tags.some((tag) => tag.startsWith(LIST_TAG))) return;
    const items = tags.flatMap((tag) => {
      const prefix = ITEM_TAGS.find((start) => tag.startsWith(start));
      return prefix ? [tag.slice(prefix.length)] : [];
    });
    if (!items.length) {
      this.drop(catalogueTags.everySearch);
      return;
    }
    for (const item of items) this.waiting.add(item);
    this.check();
  }

  /** Checks the items waiting, unless a check is under way (it takes them on when it is done). */
  private check() {
    if (this.checking) return;
    const checking: Promise<void> = this.checkWaiting().finally(() => {
      if (this.checking === checking) this.checking = undefined;
      if (this.waiting.size) this.check();
    });
    this.checking = checking;
    dropWhenDone(this.caches, checking);
  }

  /** Announcements were missed (the hub was down): the caches start empty, and so does this. */
  forget() {
    this.waiting.clear();
    this.searches.clear();
  }

  /** One statement for every item waiting, again while more arrive. */
  private async checkWaiting() {
    while (this.waiting.size) {
      const items = [...this.waiting];
      this.waiting.clear();
      try {
        for (const tag of await this.matcher.matching(this.db, items, this.wordSets)) this.drop(tag);
      } catch {
        // Not known which: every search goes, as a lost announcement would have it.
        this.drop(catalogueTags.everySearch);
      }
    }
  }

  private drop(tag: string) {
    this.caches.catalogue.invalidate(tag);
    this.caches.counts.invalidate(tag);
  }
}

const told = new WeakMap<ReadCaches, SearchesTold>();

/** The searches told for these caches, once tellSearches runs for them; otherwise none is. */
export const searchesToldOf = (caches: ReadCaches): SearchesTold | undefined => told.get(caches);

/**
 * Tells the searches remembered in `caches` of the items each announcement names, for as long as the
 * hub hears them; `keptMs`: how long a told search is kept (READ_CACHE_ANNOUNCED_SECONDS).
 */
export function tellSearches(
  db: Db,
  caches: ReadCaches,
  hub: Pick<RealtimeHub, 'observeChanges' | 'observeStatus'>,
  keptMs: number,
) {
  const searches = new SearchesTold(db, caches, keptMs);
  told.set(caches, searches);
  const stopChanges = hub.observeChanges((tags) => searches.heard(tags));
  const stopStatus = hub.observeStatus(() => searches.forget());
  return () => {
    stopChanges();
    stopStatus();
    told.delete(caches);
  };
}
