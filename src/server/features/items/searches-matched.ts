import { LRUCache } from 'lru-cache';
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

/** A search as searches-told.ts remembers it. */
export interface SearchAsked {
  id: string;
  words: readonly string[];
  campus?: string | undefined;
}

/** One lexeme of a parsed query: as stemmed, and whether it matches as a beginning (`:*`). */
interface Term {
  lexeme: string;
  prefix: boolean;
}

/** A query parsed: the terms every matching item has, or `everything` when it cannot be told. */
type Parsed = { terms: readonly Term[] } | 'everything';

/** The most parsed queries kept: more than searches are remembered (searches-told.ts). */
const MAX_PARSED = 20_000;

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

export class SearchesMatched {
  private readonly parsed = new LRUCache<string, Parsed>({ max: MAX_PARSED });

  constructor(private readonly lexemes: typeof lexemesOf = lexemesOf) {}

  /**
   * The ids of `searches` that match any of the items: one statement. Searches for the same words on
   * different campuses are parsed and matched once, as one: a check runs over every search remembered,
   * thousands, several times a second while listings arrive.
   */
  async matching(db: Db, itemIds: readonly string[], searches: readonly SearchAsked[]): Promise<string[]> {
    if (!searches.length || !itemIds.length) return [];
    const byWords = new Map<string, SearchAsked[]>();
    for (const search of searches) {
      const key = search.words.join(' ');
      const same = byWords.get(key);
      if (same) same.push(search);
      else byWords.set(key, [search]);
    }
    const unparsed = [...byWords].filter(([key]) => !this.parsed.has(key));
    const answer = await this.lexemes(
      db,
      itemIds,
      unparsed.map(([, same]) => same[0]!.words),
    );
    for (const [i, [key]] of unparsed.entries()) this.parsed.set(key, parseQuery(answer.parsed[i] ?? ''));
    const items = answer.items.map((item) => ({ campus: item.campus, ...wordsOf(item.lexemes) }));
    const matched: string[] = [];
    for (const [key, same] of byWords) {
      const parsed = this.parsed.get(key) ?? 'everything';
      const found =
        parsed === 'everything'
          ? items
          : parsed.terms.length === 0
            ? []
            : items.filter((item) =>
                parsed.terms.every((term) => (term.prefix ? item.beginnings : item.whole).has(term.lexeme)),
              );
      if (!found.length) continue;
      for (const search of same)
        if (!search.campus || found.some((item) => item.campus === search.campus)) matched.push(search.id);
    }
    return matched;
  }
}
