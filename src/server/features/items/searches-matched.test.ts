import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { parseQuery, SearchesMatched } from './searches-matched.ts';

// The parsed form of a search's query, and the matching in memory; tests/api/searches-matched.test.ts
// checks it against the database's own `@@` on both databases.

describe("a search's query as the full-text parser wrote it", () => {
  it('reads each lexeme, unquoted, and whether it matches as a beginning', () => {
    expect(parseQuery("'brass':* & 'lamp':*")).toEqual({
      terms: [
        { lexeme: 'brass', prefix: true },
        { lexeme: 'lamp', prefix: true },
      ],
    });
    expect(parseQuery("'it''s':* & 'kettl'")).toEqual({
      terms: [
        { lexeme: "it's", prefix: true },
        { lexeme: 'kettl', prefix: false },
      ],
    });
  });

  it('reads a phrase as its words joined by AND, and only stop words as no term at all', () => {
    expect(parseQuery("( 'e':* <-> 'mail':* ) & 'box':*")).toEqual({
      terms: [
        { lexeme: 'e', prefix: true },
        { lexeme: 'mail', prefix: true },
        { lexeme: 'box', prefix: true },
      ],
    });
    expect(parseQuery('')).toEqual({ terms: [] });
  });

  it('cannot tell an OR or a NOT, so such a query matches every item', () => {
    expect(parseQuery("'lamp':* | 'desk':*")).toBe('everything');
    expect(parseQuery("'lamp':* & !'desk':*")).toBe('everything');
  });
});

describe('the searches an item matches, in memory', () => {
  const db = {} as Db;
  const items = [
    { id: 'i1', campus: 'mit.edu', lexemes: ['brass', 'desk', 'lamp', 'light'] },
    { id: 'i2', campus: 'stanford.edu', lexemes: ['kayak', 'paddl'] },
  ];
  const parsedAs: Record<string, string> = {
    'brass lam': "'brass':* & 'lam':*",
    kayak: "'kayak':*",
    the: '',
    'lamp paddle': "'lamp':* & 'paddl':*",
  };

  it('matches every word as the beginning of a lexeme, on the search campus, and asks once per query', async () => {
    const asked: (readonly string[])[] = [];
    const matched = new SearchesMatched(async (_db, _ids, queries) => {
      asked.push(...queries);
      return { items, parsed: queries.map((words) => parsedAs[words.join(' ')] ?? '') };
    });
    const searches = [
      { id: 'a', words: ['brass', 'lam'] },
      { id: 'b', words: ['brass', 'lam'], campus: 'stanford.edu' },
      { id: 'c', words: ['kayak'], campus: 'stanford.edu' },
      { id: 'd', words: ['the'] },
      { id: 'e', words: ['lamp', 'paddle'] },
    ];
    expect(await matched.matching(db, ['i1', 'i2'], searches)).toEqual(['a', 'c']);
    expect(asked.map((words) => words.join(' '))).toEqual(['brass lam', 'kayak', 'the', 'lamp paddle']);
    // Known now: the next check asks for the items only.
    asked.length = 0;
    expect(await matched.matching(db, ['i1'], searches)).toEqual(['a', 'c']);
    expect(asked).toEqual([]);
  });

  it('matches nothing for an item the database no longer has', async () => {
    const matched = new SearchesMatched(async (_db, _ids, queries) => ({
      items: [],
      parsed: queries.map(() => "'lamp':*"),
    }));
    expect(await matched.matching(db, ['gone'], [{ id: 'a', words: ['lamp'] }])).toEqual([]);
  });
});
