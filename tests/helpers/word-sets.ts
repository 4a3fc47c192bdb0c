import type { WordSet } from '../../src/server/features/items/searches-matched.ts';

/** Searches as a list (an id, words, a campus or none) grouped into word sets, as searches-told.ts keeps them. */
export function wordSetsOf(searches: readonly { id: string; words: readonly string[]; campus?: string }[]) {
  const sets = new Map<string, WordSet & { searches: Map<string, string | undefined> }>();
  for (const search of searches) {
    const key = search.words.join(' ');
    const set = sets.get(key) ?? { words: search.words, searches: new Map<string, string | undefined>() };
    set.searches.set(search.id, search.campus);
    sets.set(key, set);
  }
  return sets;
}
