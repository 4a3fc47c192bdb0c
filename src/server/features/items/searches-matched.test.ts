import { describe, expect, it } from 'vitest';
import { wordSetsOf } from '../../../../tests/helpers/word-sets.ts';
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
    expect(await matched.matching(db, ['i1', 'i2'], wordSetsOf(searches))).toEqual(['a', 'c']);
    expect(asked.map((words) => words.join(' '))).toEqual(['brass lam', 'kayak', 'the', 'lamp paddle']);
    // Known now: the next check asks for the items only.
    asked.length = 0;
    expect(await matched.matching(db, ['i1'], wordSetsOf(searches))).toEqual(['a', 'c']);
    expect(asked).toEqual([]);
  });

  it('matches nothing for an item the database no longer has', async () => {
    const matched = new SearchesMatched(async (_db, _ids, queries) => ({
      items: [],
      parsed: queries.map(() => "'lamp':*"),
    }));
    expect(await matched.matching(db, ['gone'], wordSetsOf([{ id: 'a', words: ['lamp'] }]))).toEqual([]);
  });

  it('checks an item against the word sets whose first term it has, whole or as a beginning', async () => {
    const parsed: Record<string, string> = {
      lamp: "'lamp'",
      lam: "'lam':*",
      'lamp desk': "'lamp' & 'desk'",
      'lamp kayak': "'lamp' & 'kayak'",
      kayak: "'kayak':*",
      'desk or': "'desk' | 'chair'",
    };
    const matched = new SearchesMatched(async (_db, _ids, queries) => ({
      items: [{ id: 'i1', campus: 'mit.edu', lexemes: ['lampshad', 'desk'] }],
      parsed: queries.map((words) => parsed[words.join(' ')] ?? ''),
    }));
    const searches = Object.keys(parsed).map((words) => ({ id: words, words: words.split(' ') }));
    // "lamp" as a whole lexeme is not "lampshad"; as a beginning ("lam":*) it is. An OR matches every item.
    expect((await matched.matching(db, ['i1'], wordSetsOf(searches))).sort()).toEqual(['desk or', 'lam']);
  });

  it('forgets a word set no longer remembered, and parses it again when it comes back', async () => {
    const asked: string[] = [];
    const matched = new SearchesMatched(async (_db, _ids, queries) => {
      asked.push(...queries.map((words) => words.join(' ')));
      return { items, parsed: queries.map((words) => parsedAs[words.join(' ')] ?? '') };
    });
    const searches = [
      { id: 'a', words: ['brass', 'lam'] },
      { id: 'c', words: ['kayak'] },
    ];
    expect((await matched.matching(db, ['i1', 'i2'], wordSetsOf(searches))).sort()).toEqual(['a', 'c']);
    matched.forget('brass lam');
    // Not in the word sets any more: not matched, even though its terms were indexed.
    expect(await matched.matching(db, ['i1', 'i2'], wordSetsOf([searches[1]!]))).toEqual(['c']);
    asked.length = 0;
    expect((await matched.matching(db, ['i1', 'i2'], wordSetsOf(searches))).sort()).toEqual(['a', 'c']);
    expect(asked).toEqual(['brass lam']);
  });

  it('does not match a word set told while the statement runs: it was asked after the items changed', async () => {
    const wordSets = wordSetsOf([{ id: 'c', words: ['kayak'] }]);
    const matched = new SearchesMatched(async (_db, _ids, queries) => {
      wordSets.set('brass lam', { words: ['brass', 'lam'], searches: new Map([['a', undefined]]) });
      return { items, parsed: queries.map((words) => parsedAs[words.join(' ')] ?? '') };
    });
    expect(await matched.matching(db, ['i1', 'i2'], wordSets)).toEqual(['c']);
    // The next check parses and matches it.
    expect((await matched.matching(db, ['i1', 'i2'], wordSets)).sort()).toEqual(['a', 'c']);
  });
});
