import { gt, sql } from 'drizzle-orm';
import { catalogueTags } from '../../cache/tags.ts';
import type { Db } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import type { RealtimeHub } from '../../db/realtime-hub.ts';
import { searchWords } from '../../db/schema/items.ts';

/**
 * The catalogue's vocabulary (`search_words`: every word of every title, category and description,
 * unstemmed), held in memory by each server so that correcting a search's words costs no query
 * (decision 065). It is read whole once, then only the words learnt since (`learnt`, migration 0041):
 * after an item change is announced (decision 078: not for every word it lacks, which cost a round
 * trip for every misspelt search), and while announcements cannot be heard, for every word it lacks.
 * A word saved by a statement whose announcement is still on its way (milliseconds) may be corrected
 * as before it, as a remembered answer shows the catalogue as before it: the writer is not, since
 * their write answers once this server has heard it (read-caches.ts, dropAfterWrite).
 */

/**
 * Words learnt by transactions that commit out of order may have a lower `learnt` than one already
 * read: each refresh reads this far back again. Concurrent listings learn a few dozen words each.
 */
const LOOKBACK = 500;

/** The most mistyped words whose nearest word is remembered at once. */
const MAX_CORRECTIONS = 10_000;
/** The longest word the vocabulary learns (migration 0012's trigger). */
const LONGEST_WORD = 40;

/** A word shorter than this is searched as typed: one letter off a two-letter word is another word. */
const MIN_CORRECTED_LENGTH = 3;

/** Letters a word may be off by (typed, dropped, swapped or extra) to be corrected: more for longer. */
export function typosAllowed(length: number): number {
  return length < MIN_CORRECTED_LENGTH ? 0 : length < 6 ? 1 : 2;
}

/**
 * The fewest edits (a letter replaced, added, dropped, or two neighbours swapped) that turn `typed`
 * into the beginning of `word` — into `word` itself or any prefix of it — or `max + 1` when more than
 * `max`. "uke" is one edit from "uku", the start of "ukulele"; "ukelele" one from "ukulele".
 */
export function prefixDistance(typed: string, word: string, max: number): number {
  const m = typed.length;
  const n = Math.min(word.length, m + max);
  // Rows of the edit-distance table over the typed word's letters (i) and the word's (j).
  let before = new Array<number>(n + 1);
  let previous = Array.from({ length: n + 1 }, (_, j) => j);
  let current = new Array<number>(n + 1);
  for (let i = 1; i <= m; i++) {
    current[0] = i;
    let rowBest = current[0];
    for (let j = 1; j <= n; j++) {
      const cost = typed[i - 1] === word[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && typed[i - 1] === word[j - 2] && typed[i - 2] === word[j - 1]) {
        d = Math.min(d, before[j - 2]! + 1);
      }
      current[j] = d;
      if (d < rowBest) rowBest = d;
    }
    if (rowBest > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  // The whole typed word against each prefix of the word: the best of the last row.
  let best = max + 1;
  for (let j = Math.max(0, m - max); j <= n; j++) best = Math.min(best, previous[j]!);
  return best;
}

function commonPrefix(a: string, b: string): number {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

/** The first index of `sorted` not before `word`. */
function lowerBound(sorted: readonly string[], word: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < word) low = mid + 1;
    else high = mid;
  }
  return low;
}

export class SearchVocabulary {
  /** Every word, sorted by code unit (as the "C" collation of the table): prefixes are neighbours. */
  private sorted: string[] = [];
  /** The same words by first letter: a correction tries words of the typed first letter first. */
  private readonly byFirst = new Map<string, string[]>();
  private readonly known = new Set<string>();
  /**
   * The nearest word found for each mistyped word, until the vocabulary learns a word: a mistyped
   * search is asked again and again, and finding its nearest word reads a whole group of words.
   */
  private readonly corrections = new Map<string, string | undefined>();
  private lastLearnt = 0;
  /** Set by an announced item change: the next search reads the new words first. */
  private stale = true;
  private asked = 0;
  private covered = 0;
  private running: Promise<void> | undefined;
  /** Announcements cannot be heard (the hub is down): a word not known may have been learnt unannounced. */
  private unannounced = false;

  get size() {
    return this.known.size;
  }

  /** An item changed somewhere: its words may be new. */
  markStale() {
    this.stale = true;
  }

  /** The hub is down: until forget(), a word not known is read for, as nothing announces new ones. */
  announcementsLost() {
    this.unannounced = true;
  }

  /** Announcements may have been missed (the hub was down): read everything again. */
  forget() {
    this.sorted = [];
    this.byFirst.clear();
    this.known.clear();
    this.corrections.clear();
    this.lastLearnt = 0;
    this.stale = true;
    this.unannounced = false;
  }

  /** Adds what was learnt since the last read; concurrent callers share one read. */
  async refresh(db: Db): Promise<void> {
    const ask = ++this.asked;
    while (this.covered < ask) {
      if (!this.running) {
        const covers = this.asked;
        this.stale = false;
        this.running = this.readNew(db)
          .then(() => {
            this.covered = Math.max(this.covered, covers);
          })
          .catch((error: unknown) => {
            this.stale = true;
            throw error;
          })
          .finally(() => {
            this.running = undefined;
          });
      }
      await this.running;
    }
  }

  private async readNew(db: Db) {
    const from = this.lastLearnt === 0 ? 0 : this.lastLearnt - LOOKBACK;
    // Asked again whenever a search has a word the vocabulary lacks (dozens a second on a busy day):
    // prepared by name, so PostgreSQL plans it once per connection instead of on every run.
    const rows = await preparedOnce(db, 'search_words_learnt_since', (name) =>
      db
        .select({ word: searchWords.word, learnt: searchWords.learnt })
        .from(searchWords)
        .where(gt(searchWords.learnt, sql`${sql.placeholder('from')}::bigint`))
        .orderBy(searchWords.learnt)
        .prepare(name),
    ).execute({ from });
    for (const { learnt } of rows) if (learnt > this.lastLearnt) this.lastLearnt = learnt;
    this.add(rows.map((row) => row.word));
  }

  /** Words the catalogue uses (those it knows already are skipped). */
  add(words: readonly string[]) {
    const fresh: string[] = [];
    for (const word of words) {
      if (this.known.has(word)) continue;
      this.known.add(word);
      fresh.push(word);
    }
    if (!fresh.length) return;
    // A new word may be nearer to a mistyped one than its correction was.
    this.corrections.clear();
    // A few new words go in place; many (the first read) are sorted once.
    if (fresh.length > 64) this.sorted = [...this.sorted, ...fresh].sort();
    else for (const word of fresh) this.sorted.splice(lowerBound(this.sorted, word), 0, word);
    for (const word of fresh) {
      const first = word[0]!;
      const group = this.byFirst.get(first);
      if (group) group.push(word);
      else this.byFirst.set(first, [word]);
    }
  }

  /** Whether some word of the catalogue is `typed` or starts with it. */
  hasPrefix(typed: string): boolean {
    const at = lowerBound(this.sorted, typed);
    return at < this.sorted.length && this.sorted[at]!.startsWith(typed);
  }

  /**
   * The vocabulary word a word that starts no catalogue word most likely meant, or undefined. The
   * fewest edits win; then the longest run of letters typed right from the start (a first letter is
   * rarely mistyped, so "uke" means "ukulele" rather than "ikea"); then a word at least as long as
   * what was typed (the typing goes on); then the shorter word, then the first in order.
   */
  nearest(typed: string): string | undefined {
    if (this.corrections.has(typed)) return this.corrections.get(typed);
    const found = this.nearestUnremembered(typed);
    if (this.corrections.size >= MAX_CORRECTIONS) this.corrections.clear();
    this.corrections.set(typed, found);
    return found;
  }

  private nearestUnremembered(typed: string): string | undefined {
    const max = typosAllowed(typed.length);
    // The vocabulary keeps words of at most 40 letters (migration 0012): a longer one is near none.
    if (max === 0 || typed.length > LONGEST_WORD + max) return undefined;
    const best = this.nearestAmong(this.byFirst.get(typed[0]!) ?? [], typed, max);
    return best ?? this.nearestAmong(this.sorted, typed, max);
  }

  private nearestAmong(words: readonly string[], typed: string, max: number): string | undefined {
    let best: { word: string; key: number[] } | undefined;
    for (const word of words) {
      if (word.length < typed.length - max) continue;
      const distance = prefixDistance(typed, word, best ? Math.min(max, best.key[0]!) : max);
      if (distance > max) continue;
      const key = [distance, -commonPrefix(typed, word), word.length >= typed.length ? 0 : 1, word.length];
      if (!best || isBefore(key, word, best.key, best.word)) best = { word, key };
    }
    return best?.word;
  }

  /**
   * Each search word as the catalogue knows it: kept when some catalogue word starts with it ("calc",
   * "drill"), else the nearest word ("drll" → "drill", "uke" → "ukulele", "calculater" →
   * "calculator"), else kept (it then finds nothing, which is the truth).
   */
  async spell(db: Db, words: readonly string[]): Promise<string[]> {
    // A word some catalogue word starts with stays as typed whatever is learnt: nothing to wait for.
    if (words.every((word) => this.hasPrefix(word))) return [...words];
    await this.learn(db, words);
    return words.map((word) => (this.hasPrefix(word) ? word : (this.nearest(word) ?? word)));
  }

  /**
   * Reads the words learnt since the last read when an item change was announced since, or, while
   * announcements cannot be heard, when one of `words` starts no word known.
   */
  async learn(db: Db, words: readonly string[]): Promise<void> {
    const lacking = () => words.some((word) => !this.hasPrefix(word));
    // A read under way covers every change announced before it began: a word it may bring waits for
    // it (if it fails, the vocabulary is stale again, and is read below).
    if (!this.stale && this.running && lacking()) await this.running.catch(() => undefined);
    if (this.stale || (this.unannounced && lacking())) await this.refresh(db);
  }
}

function isBefore(key: number[], word: string, other: number[], otherWord: string): boolean {
  for (let i = 0; i < key.length; i++) if (key[i] !== other[i]) return key[i]! < other[i]!;
  return word < otherWord;
}

/** `item:`: what every item's change announces. */
const ITEM_TAG = catalogueTags.item('');
/** What the database announces for a statement whose tags would not fit in one announcement. */
const EVERYTHING = 'all';

const vocabularies = new WeakMap<Db, SearchVocabulary>();

/** This server's vocabulary of a database. */
export function vocabularyOf(db: Db): SearchVocabulary {
  let vocabulary = vocabularies.get(db);
  if (!vocabulary) {
    vocabulary = new SearchVocabulary();
    vocabularies.set(db, vocabulary);
  }
  return vocabulary;
}

/**
 * Keeps this server's vocabulary of `db` current: an announced item change marks it stale (its words
 * are read before the next search); while the hub is down, a search reads for any word it lacks; and a
 * gap in the announcements has it read everything again once the hub is back.
 */
export function learnFromChanges(db: Db, hub: Pick<RealtimeHub, 'observeChanges' | 'observeStatus'>) {
  const vocabulary = vocabularyOf(db);
  const stopChanges = hub.observeChanges((tags) => {
    // `all`: a statement too big to name what it changed (migration 0011's campusloop_announce).
    if (tags.some((tag) => tag.startsWith(ITEM_TAG) || tag === EVERYTHING)) vocabulary.markStale();
  });
  const stopStatus = hub.observeStatus((status) => {
    if (status === 'up') vocabulary.forget();
    else vocabulary.announcementsLost();
  });
  return () => {
    stopChanges();
    stopStatus();
  };
}
