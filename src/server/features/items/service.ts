import { msg } from '@lingui/core/macro';
import type { z } from 'zod';
import type { CancellationPolicy } from '#shared/booking/cancellation-policy.ts';
import { centsToDecimal, toCents } from '#shared/booking/pricing.ts';
import { campusToday } from '#shared/calendar.ts';
import type { Category, Condition, PickupMethod, RentalPeriod } from '#shared/constants.ts';
import {
  type Item,
  type ItemList,
  type itemDetail,
  type itemInput,
  type itemSearchQuery,
  PHOTO_NOT_UPLOADED,
  type Rating,
} from '#shared/schemas/items.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Db } from '../../db/client.ts';
import { afterCommit, transaction } from '../../db/transaction.ts';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import { type JobQueue, QUEUES } from '../../jobs/queue.ts';
import { emailVerificationService } from '../email-verification/service.ts';
import { reviewService } from '../reviews/service.ts';
import { universityService } from '../universities/service.ts';
import { waitlistService } from '../waitlist/service.ts';
import * as queries from './queries.ts';

// Items: listing, searching, and the owner's rights (spec §4 form rules, §6 permissions).

type ItemInput = z.output<typeof itemInput>;
type SearchInput = z.output<typeof itemSearchQuery>;
type ItemDetail = z.infer<typeof itemDetail>;
/** Listing and editing need the storage that gave out the photos' URLs. */
export interface ItemDeps {
  db: Db;
  storage: Storage;
  /** The campus time zone: an edit that frees dates tells the waitlist. */
  timeZone: string;
  /** A new listing is matched against saved searches by a job, after its commit (decision 067). */
  jobs: JobQueue;
  /** Off: listings are not matched against saved searches (SAVED_SEARCH_MATCHING). */
  matchSavedSearches: boolean;
}
/** Who is looking: moderators and the owner may see a hidden item. */
type Viewer = { id: string; isAdmin: boolean };

/** No reviews, no rating (the page then shows none). */
function ratingOf(average: number | null, count: number): Rating {
  return average === null || count === 0 ? null : { average, count };
}

export function toItem(row: queries.ItemRow): Item {
  return {
    id: row.id,
    userId: row.userId,
    title: row.title,
    description: row.description,
    category: row.category as Category,
    images: row.images,
    condition: row.condition as Condition,
    depositAmount: centsToDecimal(row.depositCents),
    rentalPrice: centsToDecimal(row.rentalPriceCents),
    rentalPeriod: row.rentalPeriod as RentalPeriod | null,
    pickupMethod: row.pickupMethod as PickupMethod,
    pickupLocation: row.pickupLocation,
    availableFrom: row.availableFrom,
    availableUntil: row.availableUntil,
    availableDays: row.availableDays,
    isAvailable: row.isAvailable,
    cancellationPolicy: row.cancellationPolicy as CancellationPolicy,
    campus: row.campus,
    createdAt: row.createdAt.toISOString(),
    hidden: row.hiddenAt !== null,
    rating: ratingOf(row.ratingAverage, row.ratingCount),
    user: {
      id: row.owner.id,
      fullName: row.owner.fullName,
      username: row.owner.username,
      profileImage: row.owner.profileImage,
      isVerified: row.owner.isVerified,
      campusName: universityService.campusName(row.owner.campus),
    },
  };
}

/**
 * The stored form of the List/Edit form. Spec §4: a switched-off fee or deposit arrives without its
 * fields and is stored as none; a zero amount means none too, and a period means nothing without a price.
 */
function toValues(input: ItemInput): queries.ItemValues {
  const rentalPriceCents = toCents(input.rentalPrice) || null;
  const depositCents = toCents(input.depositAmount) || null;
  return {
    title: input.title,
    description: input.description,
    category: input.category,
    condition: input.condition,
    images: photosOf(input),
    depositCents,
    rentalPriceCents,
    rentalPeriod: rentalPriceCents ? (input.rentalPeriod ?? null) : null,
    pickupMethod: input.pickupMethod,
    pickupLocation: input.pickupLocation?.trim() || null,
    availableFrom: input.availableFrom,
    availableUntil: input.availableUntil || null,
    availableDays: [...new Set(input.availableDays)].sort(),
    ...(input.cancellationPolicy ? { cancellationPolicy: input.cancellationPolicy } : {}),
  };
}

/** Spec §2: missing, empty, 'null' or 'undefined' entries are no photos. */
function photosOf(input: ItemInput): string[] {
  return input.images.filter((url) => url && url !== 'null' && url !== 'undefined');
}

/**
 * Every photo must be one our storage gave out (a `data:` URL, another site's tracker or an
 * API path would be shown to everyone who opens the item). Photos the item already has stay allowed, so
 * an item keeps its photos across a change of storage.
 */
function requireOwnPhotos(storage: Storage, input: ItemInput, already: readonly string[] = []) {
  const foreign = photosOf(input).findIndex((url) => !storage.ownsPhotoUrl(url) && !already.includes(url));
  if (foreign >= 0) {
    throw badRequest(PHOTO_NOT_UPLOADED, [{ path: 'images', message: PHOTO_NOT_UPLOADED }]);
  }
}

/** A list query as the database reads it. */
function filtersOf(query: SearchInput, timeZone: string): queries.SearchFilters {
  return {
    campus: query.campus,
    category: query.category,
    searchQuery: query.searchQuery,
    availableNow: query.availableNow,
    freeOnly: query.freeOnly,
    maxPriceCents: query.maxPrice === undefined ? undefined : Math.round(query.maxPrice * 100),
    pickupMethod: query.pickupMethod,
    sort: query.sort,
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
    today: campusToday(timeZone),
    now: new Date(),
  };
}

export const itemService = {
  /** Every item everyone may see, newest change first, for sitemap.xml. */
  publicItemIds: (db: Db) => queries.listPublicItemIds(db),

  /**
   * One page of a list or search, without the count (Home shows none; Browse's is asked apart). A
   * search's page knows its count too (`counted`): one statement reads its candidates once for both;
   * a list's does with `withCount` (for a count nobody remembers).
   */
  async findPage(
    db: Db,
    query: SearchInput,
    timeZone: string,
    options: { withCount?: boolean; later?: boolean } = {},
  ): Promise<
    Omit<ItemList, 'total' | 'totalCapped'> & {
      counted?: queries.ItemCount;
      before?: { items: Item[]; newestCreatedUs: number };
    }
  > {
    const { rows, hasMore, counted, before } = await queries.findItemsPage(
      db,
      filtersOf(query, timeZone),
      options,
    );
    return {
      items: rows.map(toItem),
      page: query.page,
      limit: query.limit,
      hasMore,
      ...(counted ? { counted } : {}),
      ...(before
        ? { before: { items: before.rows.map(toItem), newestCreatedUs: before.newestCreatedUs } }
        : {}),
    };
  },

  /** Whether a query searches by words (a search's answer is tagged by the items it shows). */
  searches: (query: SearchInput) => itemService.searchWords(query).length > 0,

  /** A query's search words, as a search reads them (none for a list). */
  searchWords: (query: SearchInput) => queries.searchWordsOf(query.searchQuery ?? ''),

  /** Each search word as the catalogue knows it, as a search spells it ("drll" → "drill"). */
  knownWords: (db: Db, words: readonly string[]) => queries.knownWords(db, words),

  /** How many items a list or search finds, up to 1,000 (then `totalCapped`); the page does not matter. */
  count: (db: Db, query: SearchInput, timeZone: string) => queries.countItems(db, filtersOf(query, timeZone)),

  /**
   * An item page. A hidden item, or one whose owner is suspended, is a 404 like a missing one for
   * everyone but its owner and the moderators; moderators also learn why.
   */
  async get(db: Db, id: string, viewer: Viewer | null): Promise<ItemDetail> {
    // The item and its reviews in one prepared statement: one checkout, one plan reused.
    // Only revealed reviews: a review waits for the other party's, or for the waiting time.
    const page = await queries.findItemPage(db, id, new Date(), reviewService.inStatement.forItem);
    if (!page) throw notFound(msg`Item not found.`);
    const { row } = page;
    const reviews = reviewService.inStatement.decodeReviews(page.reviewsJson);
    const restricted = row.hiddenAt !== null || row.owner.suspendedAt !== null;
    const privileged = Boolean(viewer && (viewer.isAdmin || viewer.id === row.userId));
    if (restricted && !privileged) throw notFound(msg`Item not found.`);
    return {
      item: toItem(row),
      reviews,
      lenderRating: ratingOf(row.lenderAverage, row.lenderCount),
      ...(viewer?.isAdmin
        ? {
            moderation: {
              hiddenAt: row.hiddenAt?.toISOString() ?? null,
              ownerSuspendedAt: row.owner.suspendedAt?.toISOString() ?? null,
            },
          }
        : {}),
    };
  },

  async create(
    { db, storage, jobs, matchSavedSearches }: ItemDeps,
    owner: { id: string; campus: string; email: string; isVerified: boolean },
    input: ItemInput,
  ): Promise<Item> {
    emailVerificationService.requireVerified(owner);
    requireOwnPhotos(storage, input);
    // An item's campus is its owner's, whatever the request says. Read back in the same transaction: an
    // account deletion waits for it (migration 0027's lock on the author), so the new item is never gone
    // before it is answered.
    const row = await transaction(db, async (tx) => {
      const id = await queries.insertItem(tx, { ...toValues(input), userId: owner.id, campus: owner.campus });
      // Matching saved searches is the job's, so listing waits only for the job's row.
      if (matchSavedSearches) {
        await jobs.send(tx, QUEUES.savedSearchMatches, { itemId: id });
        afterCommit(tx, () => jobs.kick(QUEUES.savedSearchMatches));
      }
      return (await queries.findItem(tx, id, new Date()))!;
    });
    return toItem(row);
  },

  /** The item, if `userId` owns it: 404 when it does not exist, 403 when it is someone else's. */
  async requireOwned(db: Db, userId: string, id: string) {
    const row = await queries.findItem(db, id, new Date());
    if (!row) throw notFound(msg`Item not found.`);
    if (row.userId !== userId) throw forbidden(msg`You can only edit your own items.`);
    return row;
  },

  async update(
    { db, storage, timeZone }: ItemDeps,
    userId: string,
    id: string,
    input: ItemInput,
  ): Promise<Item> {
    const current = await itemService.requireOwned(db, userId, id);
    requireOwnPhotos(storage, input, current.images);
    await transaction(db, async (tx) => {
      await queries.updateItem(tx, id, toValues(input));
      // Made available again, or a wider window: the waitlist hears it in this
      // transaction (the update holds the item's row lock, as a reservation's change does).
      await waitlistService.offerFreedDates(tx, { itemId: id, timeZone });
    });
    return toItem((await queries.findItem(db, id, new Date()))!);
  },

  async remove(db: Db, userId: string, id: string): Promise<void> {
    const row = await queries.findItem(db, id, new Date());
    if (!row) throw notFound(msg`Item not found.`);
    if (row.userId !== userId) throw forbidden(msg`You can only delete your own items.`);
    await queries.softDeleteItem(db, id);
  },

  /** A person's items; hidden ones only when `everything` (their own profile, or a moderator's view). */
  async listOwned(db: Db, userId: string, everything = false): Promise<Item[]> {
    return (await queries.listOwnerItems(db, userId, everything, new Date())).map(toItem);
  },

  /** A listing as saved searches are matched against it; undefined when it is gone. */
  listingForMatching: (db: Db, id: string) => queries.findListingForMatching(db, id),

  /** A search's words as the search reads them (lower-case letters and digits, at most `most`). */
  searchWordsOf: (text: string, most?: number) => queries.searchWordsOf(text, most),

  /** Which of `searches` would find the item by searching now (the search's own text rules). */
  searchesFinding: (db: Db, itemId: string, searches: readonly { id: string; words: readonly string[] }[]) =>
    queries.searchesFinding(db, itemId, searches),

  /**
   * A person's items (listOwned's) and their count available now, as parts of another feature's one
   * statement (the profile's). Placeholders: `revealCutoff`; `today` and `weekday` for the count.
   */
  inStatement: {
    owned: queries.ownerItemsJson,
    availableNowCount: queries.availableNowCountOf,
    decodeOwned: (json: unknown): Item[] => queries.decodeOwnerItems(json).map(toItem),
  },

  countAvailableNow: (db: Db, userId: string, timeZone: string) =>
    queries.countAvailableNow(db, userId, campusToday(timeZone)),
};
