import { describe, expect, it } from 'vitest';
import { searchesMatching } from '../../src/server/features/items/queries.ts';
import { SearchesMatched } from '../../src/server/features/items/searches-matched.ts';
import { createItem, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';
import { wordSetsOf } from '../helpers/word-sets.ts';

// The searches told of new listings (decision 076) are matched in memory (decision 077): the items'
// lexemes and the searches' parsed queries come from the database, the rule is applied here. It must
// say what the database's own `search_vector @@ to_tsquery('english', …)` says, on both databases:
// stemming ("running" finds "runs"), prefixes ("uke" finds "ukulele"), stop words, several words,
// apostrophes and hyphens, and campuses.

const t = setupTestApp();
const db = () => t.database.db;

const SEARCHES: { words: string[]; campus?: string }[] = [
  { words: ['uke'] },
  { words: ['ukulele'] },
  { words: ['running'] },
  { words: ['runs', 'shoe'] },
  { words: ['shoes'], campus: 'matched.example.edu' },
  { words: ['shoes'], campus: 'elsewhere.example.edu' },
  { words: ['the'] },
  { words: ['the', 'kettle'] },
  { words: ['kettles'] },
  { words: ['electr', 'kett'] },
  { words: ['e-mail'] },
  { words: ["children's"] },
  { words: ['children'] },
  { words: ['tools'] },
  { words: ['desk', 'lamp'] },
  { words: ['lamp', 'kayak'] },
  { words: ['x'] },
  { words: ['kayaking'] },
];

describe('searches matched in memory', () => {
  it('match the items exactly as the database matches them', async () => {
    const campus = 'matched.example.edu';
    const owner = await createUser(db(), { campus, email: 'owner@matched.example.edu' });
    const listed = [
      { title: 'Concert ukulele', description: 'Runs a bit sharp; tuned weekly.', category: 'other' },
      { title: 'Running shoes', description: "Size 10, children's laces.", category: 'clothing' },
      { title: 'Electric kettle', description: 'Boils water; e-mail me for pickup.', category: 'kitchen' },
      { title: 'Brass desk lamp', description: 'Warm light.', category: 'furniture' },
      { title: 'Kayak paddle', description: 'For kayaking on the lake.', category: 'other' },
    ];
    const ids: string[] = [];
    for (const fields of listed)
      ids.push((await createItem(db(), { userId: owner.id, campus, ...fields })).id);
    const searches = SEARCHES.map((search, i) => ({ id: `s${i}`, ...search }));
    const wordSets = wordSetsOf(searches);
    const inMemory = new SearchesMatched();
    for (const id of ids) {
      const byDatabase = await searchesMatching(db(), [id], searches);
      expect(byDatabase.length, `the database matches something for ${id}`).toBeGreaterThan(0);
      expect((await inMemory.matching(db(), [id], wordSets)).sort(), id).toEqual([...byDatabase].sort());
    }
    // All at once, and with an item that is not there.
    const all = [...ids, '00000000-0000-4000-8000-000000000000'];
    expect((await inMemory.matching(db(), all, wordSets)).sort()).toEqual(
      [...(await searchesMatching(db(), all, searches))].sort(),
    );
  });
});
