import { msg } from '@lingui/core/macro';
import type { z } from 'zod';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import type { Category } from '#shared/constants.ts';
import {
  SAVED_SEARCH_LIMIT,
  type SavedSearch,
  type savedSearchInput,
} from '#shared/schemas/saved-searches.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { conflict, notFound } from '../../errors.ts';
import { deliveryService } from '../deliveries/service.ts';
import { itemService } from '../items/service.ts';
import { notificationService } from '../notifications/service.ts';
import { matchesText } from './notices.ts';
import * as queries from './queries.ts';

// Saved searches (decision 067): a student keeps a search of their campus, and a job matches each new
// listing against the campus's saved searches after the listing commits, by the search's own text rules.
// Matches of one search within a window become one notification and one e-mail.

type SavedSearchInput = z.output<typeof savedSearchInput>;

export interface MatchDeps {
  db: Db;
  /** Matches within this long of a batch's first make one notification and one e-mail. */
  batchMs: number;
  now: () => Date;
}

/** Item words longer than this add no prefixes past it: no search word is that long in practice. */
const LONGEST_PREFIX = 40;

function toSavedSearch(row: queries.SavedSearchRow): SavedSearch {
  return {
    id: row.id,
    searchQuery: row.searchQuery,
    category: row.category as Category | null,
    maxPrice: centsToDecimal(row.maxPriceCents),
    freeOnly: row.freeOnly,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The search as stored: its words as the search reads them, and one key for the words and filters. */
function valuesOf(userId: string, campus: string, input: SavedSearchInput): queries.SavedSearchValues {
  const words = itemService.searchWordsOf(input.searchQuery);
  const maxPriceCents = input.maxPrice === undefined ? null : Math.round(input.maxPrice * 100);
  const freeOnly = input.freeOnly ?? false;
  const category = input.category ?? null;
  return {
    userId,
    campus,
    searchQuery: input.searchQuery,
    words,
    leadWord: words[0]!,
    category,
    maxPriceCents,
    freeOnly,
    dedupeKey: JSON.stringify([words, category, maxPriceCents, freeOnly]),
  };
}

/** Every prefix of each word (`drill` → d, dr, dri, dril, drill): a saved word matches by prefix. */
function prefixesOf(words: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const word of words) {
    for (let end = 1; end <= Math.min(word.length, LONGEST_PREFIX); end++) prefixes.add(word.slice(0, end));
  }
  return [...prefixes];
}

export const savedSearchService = {
  async listMine(db: Db, userId: string): Promise<SavedSearch[]> {
    return (await queries.listForUser(db, userId)).map(toSavedSearch);
  },

  /**
   * Saves the search on the person's campus. The same words and filters again answer the one already
   * kept (`created` false); past SAVED_SEARCH_LIMIT, a 409. The person's row is held while counting, so
   * saves at once cannot pass the limit together.
   */
  async save(
    db: Db,
    person: { id: string; campus: string },
    input: SavedSearchInput,
  ): Promise<{ savedSearch: SavedSearch; created: boolean }> {
    const values = valuesOf(person.id, person.campus, input);
    return transaction(db, async (tx) => {
      await queries.lockPerson(tx, person.id);
      const existing = await queries.findByKey(tx, person.id, values.dedupeKey);
      if (existing) return { savedSearch: toSavedSearch(existing), created: false };
      if ((await queries.countForUser(tx, person.id)) >= SAVED_SEARCH_LIMIT) {
        const limit = SAVED_SEARCH_LIMIT;
        throw conflict(
          msg`You already keep ${limit} saved searches. Delete one in Settings to save another.`,
          'SAVED_SEARCH_LIMIT',
        );
      }
      const row = await queries.insert(tx, values);
      return { savedSearch: toSavedSearch(row!), created: true };
    });
  },

  /** Only the person who saved it may delete it; anyone else gets the same 404 as for a missing one. */
  async remove(db: Db, userId: string, id: string): Promise<void> {
    if (!(await queries.deleteOwn(db, userId, id))) throw notFound(msg`Saved search not found.`);
  },

  /**
   * The job's work for one new listing: its campus's saved searches that would find it (never its
   * lister's; only while everyone may see it), each told once per person and listing. Answers how many
   * people were told. Safe to run again: what was told is recorded in the same transaction as the telling.
   */
  async matchListing(deps: MatchDeps, itemId: string): Promise<number> {
    const listing = await itemService.listingForMatching(deps.db, itemId);
    if (!listing?.listed) return 0;
    const words = [...new Set(itemService.searchWordsOf(listing.searchText, Number.POSITIVE_INFINITY))];
    const candidates = await queries.candidatesFor(deps.db, {
      ...listing,
      words,
      prefixes: prefixesOf(words),
    });
    const matched = await itemService.searchesFinding(deps.db, itemId, candidates);
    let told = 0;
    for (const savedSearchId of matched) {
      if (await tell(deps, savedSearchId, { id: listing.id, title: listing.title })) told++;
    }
    return told;
  },
};

/**
 * Tells the saved search's owner of the listing, unless they were told of it already: within the
 * search's open batch, its notification says one more listing; else a new notification opens a batch,
 * its e-mail held until the window closes so the batch goes as one.
 */
async function tell(deps: MatchDeps, savedSearchId: string, listing: { id: string; title: string }) {
  return transaction(deps.db, async (tx) => {
    const search = await queries.lockSearch(tx, savedSearchId);
    if (!search) return false;
    const userId = search.userId;
    const told = await queries.insertMatch(tx, { userId, itemId: listing.id, savedSearchId });
    if (!told) return false;
    const now = deps.now();
    const open =
      search.batchNotificationId !== null &&
      search.batchStartedAt !== null &&
      now.getTime() - search.batchStartedAt.getTime() < deps.batchMs
        ? search.batchNotificationId
        : null;
    if (open) {
      await queries.setMatchNotification(tx, userId, listing.id, open);
      const listings = await queries.listingsOf(tx, open);
      await notificationService.revise(tx, {
        id: open,
        userId,
        text: () => matchesText(search.searchQuery, listings),
      });
      return true;
    }
    const notification = await notificationService.notify(tx, {
      userId,
      type: 'saved_search_match',
      relatedItemId: listing.id,
      text: () => matchesText(search.searchQuery, [listing]),
    });
    await queries.setMatchNotification(tx, userId, listing.id, notification.id);
    await queries.openBatch(tx, savedSearchId, notification.id, now);
    await deliveryService.postponeEmail(tx, notification.id, new Date(now.getTime() + deps.batchMs));
    return true;
  });
}
