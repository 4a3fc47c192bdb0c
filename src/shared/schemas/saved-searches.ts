import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { CATEGORIES } from '../constants.ts';
import { plainText } from './fields.ts';

// Saved searches: "Tell me when something matches" on Browse, and the list of them in Settings.

/** The most searches one person may keep; past it, one must go first. */
export const SAVED_SEARCH_LIMIT = 20;

/** A search finds by words: letters or digits (what the search splits the text into). */
const HAS_A_WORD = /[\p{L}\p{N}]/u;

export const savedSearchInput = z.object({
  searchQuery: plainText(() => t`Type what you are looking for`)
    .trim()
    .max(200, { error: () => t`Search text is too long` })
    .refine((text) => HAS_A_WORD.test(text), { error: () => t`Type what you are looking for` }),
  category: z.enum(CATEGORIES, { error: () => t`Unknown category` }).optional(),
  maxPrice: z
    .number({ error: () => t`Max price must be a number` })
    .min(0, { error: () => t`Max price must be 0 or more` })
    .max(100_000, { error: () => t`Max price is too high` })
    .optional(),
  freeOnly: z.boolean({ error: () => t`Say whether only free items count (true or false).` }).optional(),
});
export type SavedSearchInput = z.input<typeof savedSearchInput>;

export const savedSearch = z.object({
  id: z.uuid(),
  searchQuery: z.string(),
  category: z.enum(CATEGORIES).nullable(),
  /** A decimal string ("12.50"), as every amount in answers; null without a price limit. */
  maxPrice: z.string().nullable(),
  freeOnly: z.boolean(),
  createdAt: z.string(),
});
export type SavedSearch = z.infer<typeof savedSearch>;

export const savedSearchResponse = z.object({ savedSearch });
export const savedSearchList = z.object({ savedSearches: z.array(savedSearch), limit: z.number().int() });
export const savedSearchIdParams = z.object({ id: z.uuid({ error: () => t`Saved search not found` }) });
