import { type Item, type ItemList, item as itemSchema } from '#shared/schemas/items.ts';
import { encoded } from '../../cache/answer-json.ts';
import type { CachedAnswer, NewestFirstPage, NewListingReviser } from '../../cache/read-caches.ts';
import type { Db } from '../../db/client.ts';
import * as queries from './queries.ts';
import { toItem } from './service.ts';

// A new listing enters the first page of every newest-first list whose filters it meets (decision
// 083), and moves each later page of those lists on by one item (decision 085). Recomputing each of
// those pages at every listing was the campus day's largest source of misses; the listing's card is
// read once instead, and each page is revised in place. A page that cannot tell where the card goes,
// or whether its items or its total already count it, is left to its next reader.
//
// A revised page is written with JSON.stringify, not through the list's schema: its items are the
// page's own, read back from JSON the schema wrote, and the card is put through the item's schema
// once per listing. Encoding each page's dozen items again cost more than reading the page.

/** A new listing as a list's card shows it, with what a list's filters read of it beyond its tag. */
export interface ListCard {
  /** As the lists send it: put through the item's schema (newListingReviser does, once). */
  item: Item;
  /** Not hidden, not deleted, its owner not suspended: lists show it. */
  listed: boolean;
  /** Available on the campus day it was read for. */
  availableNow: boolean;
}

/** Reads a new listing's card as the lists would show it on a campus day, or nothing when it is gone. */
export type ListCardReader = (id: string, today: NewestFirstPage['today']) => Promise<ListCard | undefined>;

/** The card from the database, mapped as every list maps its rows. */
const listCardFrom =
  (db: Db): ListCardReader =>
  async (id, today) => {
    const found = await queries.findListCard(db, id, today, new Date());
    return found && { item: toItem(found.row), listed: found.listed, availableNow: found.availableNow };
  };

/**
 * Revises the first pages of newest-first lists for new listings: each listing's card is read once
 * per campus day the pages were asked on, and put through the item's schema once.
 */
export function newListingReviser(db: Db, readCard: ListCardReader = listCardFrom(db)): NewListingReviser {
  return (listing) => {
    const cards = new Map<string, Promise<ListCard | undefined>>();
    const cardOn = (today: NewestFirstPage['today']) => {
      let card = cards.get(today.date);
      if (!card) {
        card = readCard(listing.id, today).then(
          (found) => found && { ...found, item: encoded(itemSchema, found.item) },
        );
        cards.set(today.date, card);
      }
      return card;
    };
    return (answer) => {
      const page = answer.newestFirst;
      if (!page || !('json' in answer)) return undefined;
      return async () => {
        const card = await cardOn(page.today);
        return card && withNewListing(answer as CachedAnswer & { json: string }, page, card);
      };
    };
  };
}

/**
 * A list's page, newest first, once `card` is listed: the page as it now reads, or undefined when it
 * cannot tell. Its items were read with its total (NewestFirstPage.counted), so a first page that
 * shows the card already counts it.
 */
export function withNewListing(
  answer: CachedAnswer & { json: string },
  page: NewestFirstPage,
  card: ListCard,
): CachedAnswer | undefined {
  // A card lists do not show, or not available on a list of what is available now: the list is as it was.
  if (!card.listed || (page.availableNow && !card.availableNow)) return answer;
  const list = JSON.parse(answer.json) as ItemList;
  if (list.page > 1) return laterPageWith(answer, list, page, card);
  // Read after the listing was saved: the page is true already.
  if (list.items.some((item) => item.id === card.item.id)) return answer;
  const at = placeOf(list.items, card.item);
  if (at === undefined) return undefined;
  const items = [...list.items];
  if (at < items.length || !list.hasMore) items.splice(at, 0, card.item);
  // Past a full page: it is on a later one, which a total cannot tell it did not count already.
  else if (page.counted) return undefined;
  const revised: ItemList = {
    ...list,
    items: items.slice(0, page.limit),
    hasMore: list.hasMore || items.length > page.limit,
    ...oneMoreCounted(list, page),
  };
  return { json: JSON.stringify(revised), tags: answer.tags, newestFirst: page };
}

/**
 * A later page once `card` is listed, newest first. Created after the newest item its statement saw,
 * the card is on a page before this one, and everything from there on moves one place: the last item
 * before the page comes first on it, and its own last goes on to the next page. Any other card (one
 * the statement may have seen, or a tie within the millisecond) cannot be told apart here.
 */
function laterPageWith(
  answer: CachedAnswer & { json: string },
  list: ItemList,
  page: NewestFirstPage,
  card: ListCard,
): CachedAnswer | undefined {
  const before = page.before;
  if (!before) return undefined;
  // The card's time to the millisecond, at or below its microseconds: after the newest seen, surely.
  const createdUs = Date.parse(card.item.createdAt) * 1000;
  if (!(createdUs > before.newestCreatedUs)) return undefined;
  const earlier = JSON.parse(before.json) as Item[];
  const moved = earlier.at(-1);
  if (!moved) return undefined;
  const items = [moved, ...list.items];
  const revised: ItemList = {
    ...list,
    items: items.slice(0, page.limit),
    hasMore: list.hasMore || items.length > page.limit,
    ...oneMoreCounted(list, page),
  };
  return {
    json: JSON.stringify(revised),
    tags: answer.tags,
    newestFirst: {
      ...page,
      before: { json: JSON.stringify(earlier.slice(0, -1)), newestCreatedUs: createdUs },
    },
  };
}

/**
 * Where a new card goes among a page's items, newest first (created, then id: both descending, as the
 * lists order them): before the first item created before it, or after them all. Undefined when it
 * cannot tell: the cards carry their times to the millisecond, the database to the microsecond.
 */
function placeOf(items: readonly Item[], card: Item): number | undefined {
  const created = Date.parse(card.createdAt);
  for (const [i, item] of items.entries()) {
    const theirs = Date.parse(item.createdAt);
    if (theirs === created) return undefined;
    if (theirs < created) return i;
  }
  return items.length;
}

/** A page's total with the new listing, when its statement counted it; nothing when it has none. */
function oneMoreCounted(list: ItemList, page: NewestFirstPage) {
  return page.counted && list.total !== undefined ? oneMore(list.total, list.totalCapped ?? false) : {};
}

/** A total one item larger: counting stops at COUNT_CAP, past which it says "1,000+". */
function oneMore(total: number, capped: boolean): { total: number; totalCapped: boolean } {
  if (capped || total + 1 > queries.COUNT_CAP) return { total: queries.COUNT_CAP, totalCapped: true };
  return { total: total + 1, totalCapped: false };
}
