import { beforeAll, describe, expect, it } from 'vitest';
import { type SearchFilters, searchStatementOf } from '../../src/server/features/items/queries.ts';
import { createItem, createUser } from '../factories.ts';
import { filtersFor, keptPlanOf } from '../helpers/kept-plans.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// A search is prepared by name, so PostgreSQL may keep one plan for every search of a filter shape
// (its generic plan) instead of planning each one. That plan must be as good for a common word as
// for a rare one: it reads the matches through the full-text index, and turns each full-text query
// from text once per search, not once per candidate it ranks and sorts.

const t = setupTestApp();
const db = () => t.database.db;
const campus = 'plans.example.edu';

beforeAll(async () => {
  const lender = await createUser(db(), { campus });
  for (let i = 0; i < 30; i++) {
    await createItem(db(), {
      userId: lender.id,
      campus,
      title: i % 3 ? `Textbook ${i}` : `Desk lamp ${i}`,
      description: 'Calculus, physics and a desk lamp for reading textbooks late.',
      category: i % 2 ? 'books' : 'electronics',
    });
  }
});

const base = (over: Partial<SearchFilters>) => filtersFor({ searchQuery: 'textbook', ...over });

describe('the plan a search keeps', () => {
  it.each<[string, Partial<SearchFilters>]>([
    ['every campus', {}],
    ['one campus, available now', { campus, availableNow: true }],
    [
      'a category, a price cap and a pickup method',
      { category: 'books', maxPriceCents: 500, pickupMethod: 'meetup' },
    ],
    ['free only, cheapest first, two words', { freeOnly: true, sort: 'price-low', searchQuery: 'desk lamp' }],
  ])('%s: reads the matches through the full-text index and parses each query once', async (_, over) => {
    const statement = await searchStatementOf(db(), base(over));
    expect(statement.name).toMatch(/^items_search_/);
    const plan = await keptPlanOf(db(), statement);
    expect(plan).toContain('"Index Name":"item_search_vector_idx"');
    // A query written inline is parsed again for every row of a kept plan, inside its sort keys,
    // filters and ranking.
    expect(plan).not.toContain('to_tsquery');
  });

  it('finds the same as before through its prepared statement', async () => {
    const first = await t.get(`/api/items?campus=${campus}&searchQuery=textbook&limit=50`);
    expect(first.statusCode, first.body).toBe(200);
    const found = first.json() as { items: { title: string }[]; total: number };
    // Every description mentions textbooks; the listings called so come first.
    expect(found.total).toBe(30);
    expect(found.items.slice(0, 20).every((item) => item.title.startsWith('Textbook'))).toBe(true);
    expect(found.items.slice(20).every((item) => item.title.startsWith('Desk lamp'))).toBe(true);
  });
});
