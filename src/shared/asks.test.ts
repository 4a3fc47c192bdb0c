import { describe, expect, it } from 'vitest';
import {
  type AskToMatch,
  type ListingToMatch,
  listingMatchesAsk,
  meaningfulWords,
  namesProhibitedItem,
} from './asks.ts';

// Which listings answer an ask: a fixed table of cases, one rule changed at a time.

const ask: AskToMatch = {
  campus: 'stanford.edu',
  category: 'tools',
  title: 'Need a cordless drill tonight',
  startDate: '2026-12-10',
  endDate: '2026-12-12',
  maxPriceCents: 1000,
};

const listing: ListingToMatch = {
  campus: 'stanford.edu',
  category: 'tools',
  title: 'Bosch drill',
  description: 'Two batteries and bits.',
  rentalPriceCents: 500,
  availableFrom: '2026-01-01',
  availableUntil: null,
  isAvailable: true,
};

describe('listingMatchesAsk', () => {
  it.each<[string, Partial<ListingToMatch>, Partial<AskToMatch>, boolean]>([
    ['the same thing on the same campus', {}, {}, true],
    [
      'a word in the description only',
      { title: 'Power tool', description: 'A drill with a case.' },
      {},
      true,
    ],
    ['a plural against a singular', { title: 'Two drills' }, {}, true],
    ['accents and capitals', { title: 'TALADRO inalámbrico' }, { title: 'Taladro inalambrico' }, true],
    ['no shared word', { title: 'Claw hammer', description: 'Heavy.' }, {}, false],
    ['only a small word shared', { title: 'Need for speed', description: 'A game.' }, {}, false],
    ['another category', { category: 'electronics' }, {}, false],
    ['another campus', { campus: 'berkeley.edu' }, {}, false],
    ['not available', { isAvailable: false }, {}, false],
    ['a price above the most', { rentalPriceCents: 1500 }, {}, false],
    ['a price equal to the most', { rentalPriceCents: 1000 }, {}, true],
    ['a free listing for a free-only ask', { rentalPriceCents: null }, { maxPriceCents: 0 }, true],
    ['a paid listing for a free-only ask', { rentalPriceCents: 100 }, { maxPriceCents: 0 }, false],
    ['offered only from after the first day', { availableFrom: '2026-12-11' }, {}, false],
    ['offered from the first day', { availableFrom: '2026-12-10' }, {}, true],
    ['offered until before the last day', { availableUntil: '2026-12-11' }, {}, false],
    ['offered until the last day', { availableUntil: '2026-12-12' }, {}, true],
  ])('%s', (_case, listingChange, askChange, expected) => {
    expect(listingMatchesAsk({ ...ask, ...askChange }, { ...listing, ...listingChange })).toBe(expected);
  });
});

describe('meaningfulWords', () => {
  it('keeps the words that say what it is about', () => {
    expect(meaningfulWords('Need a Cordless DRILLS for tonight, please!')).toEqual(['cordless', 'drill']);
    expect(meaningfulWords('glass')).toEqual(['glass']);
  });
});

describe('namesProhibitedItem', () => {
  it.each([
    ['A rifle for the weekend', true],
    ['fake ID for the bar', true],
    ['Municiones y rifle', true],
    ['Gunmetal desk lamp', false],
    ['Cooking pot', false],
    ['Cordless drill', false],
  ])('%s', (text, expected) => {
    expect(namesProhibitedItem(text)).toBe(expected);
  });
});
