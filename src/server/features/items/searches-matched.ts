import type { Db } from '../../db/client.ts';
import { lexemesOf } from './queries.ts';

// Which remembered searches match the items an announcement names (searches-told.ts), decided in this
// server's memory rather than by the database (decision 077). Asking the database sent every remembered
// search (thousands) with each check, and had it parse each search's query once per item: about 5 ms
// of its time and as much of ours to write the lists, several times a second while listings arrive.
// Now a check asks only for the items' words (their search vectors' lexemes) and for the parsed form of
// the searches it has not seen before; a search's parsed form is kept while it is remembered.
//
// The rule is the search's own: every word of the search's prefix query, stemmed as `to_tsquery`
// stems it, begins a lexeme of the item (`'lamp':*`), on the search's campus or any when it has none.
// A query the database reads as more than words joined by AND (an OR, a NOT: a search never writes
// one) matches every item, so the search is dropped: dropping too much costs a recomputation, keeping a
// search that now finds more would show a stale answer.

/** The searches remembered for one set of words (searches-told.ts): each one's tag and campus (none: every campus). */
export interface WordSet {
  words: readonly string[];
  searches: ReadonlyMap<string, string | undefined>;
}

/** One lexeme of a parsed query: as stemmed, and whether it matches as a beginning (`:*`). */
interface Term {
  lexeme: string;
  prefix: boolean;
}

/** A query parsed: the terms every matching item has, or `everything` when it cannot be told. */
type Parsed = { terms: readonly Term[] } | 'everything';

/** A quoted lexeme in `to_tsquery`'s output, with its `:*` and weights: `'lamp':*`, `'it''s'`. */
const LEXEME = /'((?:[^'\\]|''|\\.)*)'(:[*A-D]+)?/g;

/**
 * `to_tsquery`'s text (`'brass':* & 'lamp':*`) as the terms an item must have. An empty query (only
 * stop words) matches nothing, as `@@` has it. Phrases (`<->`, from a hyphenated word) are read as
 * their words joined by AND: a phrase's items have every word, so this may drop more, never fewer.
 */
export function parseQuery(text: string): Parsed {
  const terms: Term[] = [];
  const operators = text.replace(LEXEME, (_whole, lexeme: string, flags: string | undefined) => {
    terms.push({
      lexeme: lexeme.replace(/''/g, "'").replace(/\\(.)/g, '$1'),
      prefix: Boolean(flags?.includes('*')),
    });
    return '';
  });
  // What is left between the lexemes: only ANDs, phrase links and brackets can be read as AND.
  if (/[|!]/.test(operators)) return 'everything';
  return { terms };
}

/** Every beginning of every lexeme of an item, for `'word':*` terms, and the lexemes themselves. */
function wordsOf(lexemes: readonly string[]) {
  const whole = new Set(lexemes);
  const beginnings = new Set<string>();
  for (const lexeme of lexemes)
    for (let end = 1; end <= lexeme.length; end++) beginnings.add(lexeme.slice(0, end));
  return { whole, beginnings };
}

/**
 * Matches items against every word set remembered without looking at each: a word set is indexed by
 * its first term, so an item is checked only against the word sets whose first term it has (one of
 * its lexemes, or a beginning of one for a `:*` term) and those that match everything. A check runs
 * for every announcement that names an item, several a second while listings arrive, and thousands of
 * word sets are remembered.
 */
export class SearchesMatched {
  /** The parsed query of each word set remembered, by its words joined by spaces. */
  private readonly parsed = new Map<string, Parsed>();
  /** Word sets by the lexeme their first `:*` term begins with. */
  private readonly byPrefix = new Map<string, Set<string>>();
  /** Word sets by their first whole-lexeme term. */
  private readonly byWhole = new Map<string, Set<string>>();
  /** Word sets whose query cannot be told: they match every item. */
  private readonly everything = new Set<string>();

  constructor(private readonly lexemes: typeof lexemesOf = lexemesOf) {}

  /**
   * The tags of the searches of `wordSets` (by their words joined by spaces; searches-told.ts's live
   * map) that match any of the items, on their campus: one statement, which also parses the word sets
   * not parsed yet. A word set added while the statement runs was asked after the items changed, so
   * its answer is fresh: it is not matched.
   */
  async matching(
    db: Db,
    itemIds: readonly string[],
    wordSets: ReadonlyMap<string, WordSet>,
  ): Promise<string[]> {
    if (!wordSets.size || !itemIds.length) return [];
    const unparsed = [...wordSets].filter(([key]) => !this.parsed.has(key));
    const answer = await this.lexemes(
      db,
      itemIds,
      unparsed.map(([, set]) => set.words),
    );
    for (const [i, [key]] of unparsed.entries())
      if (wordSets.has(key) && !this.parsed.has(key)) this.learn(key, parseQuery(answer.parsed[i] ?? ''));
    /** The campuses of the items each matching word set matched. */
    const found = new Map<string, Set<string>>();
    for (const item of answer.items) {
      const { whole, beginnings } = wordsOf(item.lexemes);
      const candidates = new Set(this.everything);
      for (const beginning of beginnings)
        for (const key of this.byPrefix.get(beginning) ?? []) candidates.add(key);
      for (const lexeme of whole) for (const key of this.byWhole.get(lexeme) ?? []) candidates.add(key);
      for (const key of candidates) {
        const parsed = this.parsed.get(key);
        const matches =
          parsed === 'everything' ||
          parsed?.terms.every((term) => (term.prefix ? beginnings : whole).has(term.lexeme)) === true;
        if (!matches) continue;
        const campuses = found.get(key);
        if (campuses) campuses.add(item.campus);
        else found.set(key, new Set([item.campus]));
      }
    }
    const matched: string[] = [];
    for (const [key, campuses] of found)
      for (const [tag, campus] of wordSets.get(key)?.searches ?? [])
        if (!campus || campuses.has(campus)) matched.push(tag);
    return matched;
  }

  /** The word set is no longer remembered: neither is its parsed query. */
  forget(key: string) {
    const parsed = this.parsed.get(key);
    if (parsed === undefined) return;
    this.parsed.delete(key);
    if (parsed === 'everything') this.everything.delete(key);
    else if (parsed.terms[0]) unindex(this.indexOf(parsed.terms[0]), parsed.terms[0].lexeme, key);
  }

  private learn(key: string, parsed: Parsed) {
    this.parsed.set(key, parsed);
    // A query of stop words only (no term) matches nothing: not indexed.
    if (parsed === 'everything') this.everything.add(key);
    else if (parsed.terms[0]) {
      const index = this.indexOf(parsed.terms[0]);
      const keys = index.get(parsed.terms[0].lexeme);
      if (keys) keys.add(key);
      else index.set(parsed.terms[0].lexeme, new Set([key]));
    }
  }

  private indexOf(term: Term) {
    return term.prefix ? this.byPrefix : this.byWhole;
  }
}

function unindex(index: Map<string, Set<string>>, lexeme: string, key: string) {
  const keys = index.get(lexeme);
  keys?.delete(key);
  if (keys?.size === 0) index.delete(lexeme);
}
