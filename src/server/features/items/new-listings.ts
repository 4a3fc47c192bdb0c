import { type Item, type ItemList, itemList, item as itemSchema } from '#shared/schemas/items.ts';
import { encoded, toJson } from '../../cache/answer-json.ts';
import type { CachedAnswer, ItemsAt, NewestFirstPage, NewListingReviser } from '../../cache/read-caches.ts';
import type { Db } from '../../db/client.ts';
import { holds, itemsAt, joined, piecesOf, withoutLast } from './page-items.ts';
import * as queries from './queries.ts';
import { toItem } from './service.ts';

// A new listing enters the first page of every newest-first list whose filters it meets (decision
// 083), and moves each later page of those lists on by one item (decision 085). Recomputing each of
// those pages at every listing was the campus day's largest source of misses; the listing's card is
// read once instead, and each page is revised in place. A page that cannot tell where the card goes,
// or whether its items or its total already count it, is left to its next reader.
//
// A revised page is spliced, not written again: its items stay the text the list's schema wrote, cut
// where each begins (page-items.ts), the card is put through the item's schema once per listing, and
// only the few fields after the items are read and written. Reading a page's dozen items and writing
// them again cost about 50 µs a page, for every page a listing enters, on the thread that answers reads.

/** How a list's JSON begins: its schema writes the items first. */
const LIST_OPENING = '{"items":';

/** A new listing as a list's card shows it, with what a list's filters read of it beyond its tag. */
export interface ListCard {
  /** As the lists send it: put through the item's schema (newListingReviser does, once). */
  item: Item;
  /** The item as JSON, as a list's page holds it. */
  json: string;
  /** Not hidden, not deleted, its owner not suspended: lists show it. */
  listed: boolean;
  /** Available on the campus day it was read for. */
  availableNow: boolean;
}

/** Reads a new listing's card as the lists would show it on a campus day, or nothing when it is gone. */
export type ListCardReader = (
  id: string,
  today: NewestFirstPage['today'],
) => Promise<Omit<ListCard, 'json'> | undefined>;

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
        card = readCard(listing.id, today).then((found) => {
          if (!found) return undefined;
          const item = encoded(itemSchema, found.item);
          return { ...found, item, json: JSON.stringify(item) };
        });
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
 * What a page newest first tells of itself for new listings (its JSON written by the list's schema),
 * or nothing when its text cannot be cut where its items lie.
 */
export function newestFirstPage(
  json: string,
  items: readonly Item[],
  before: { items: Item[]; newestCreatedUs: number } | undefined,
  page: Omit<NewestFirstPage, 'items' | 'before'>,
): NewestFirstPage | undefined {
  const at = json.startsWith(LIST_OPENING) ? itemsAt(json, LIST_OPENING.length, items) : undefined;
  if (!at) return undefined;
  if (!before) return { ...page, items: at };
  const beforeJson = toJson(itemList.shape.items, before.items);
  const beforeAt = itemsAt(beforeJson, 0, before.items);
  return (
    beforeAt && {
      ...page,
      items: at,
      before: { json: beforeJson, items: beforeAt, newestCreatedUs: before.newestCreatedUs },
    }
  );
}

/** A list's fields after its items (its schema writes the items first). */
type ListFields = Omit<ItemList, 'items'>;

/** The fields that follow a page's items, read without reading the items. */
const fieldsOf = (json: string, at: ItemsAt): ListFields => JSON.parse(`{${json.slice(at.end + 2)}`);

/** A page of these item pieces and fields, and where its items lie. */
function pageOf(pieces: readonly string[], createdMs: readonly number[], fields: ListFields) {
  return joined(LIST_OPENING, pieces, createdMs, `,${JSON.stringify(fields).slice(1)}`);
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
  const fields = fieldsOf(answer.json, page.items);
  if (fields.page > 1) return laterPageWith(answer, fields, page, card);
  // Read after the listing was saved: the page is true already.
  if (holds(answer.json, page.items, card.item.id)) return answer;
  const createdMs = Date.parse(card.item.createdAt);
  const at = placeOf(page.items.createdMs, createdMs);
  if (at === undefined) return undefined;
  const pieces = piecesOf(answer.json, page.items);
  const created = [...page.items.createdMs];
  if (at < pieces.length || !fields.hasMore) {
    pieces.splice(at, 0, card.json);
    created.splice(at, 0, createdMs);
  }
  // Past a full page: it is on a later one, which a total cannot tell it did not count already.
  else if (page.counted) return undefined;
  const revised = pageOf(pieces.slice(0, page.limit), created.slice(0, page.limit), {
    ...fields,
    hasMore: fields.hasMore || pieces.length > page.limit,
    ...oneMoreCounted(fields, page),
  });
  return { json: revised.json, tags: answer.tags, newestFirst: { ...page, items: revised.at } };
}

/**
 * A later page once `card` is listed, newest first. Created after the newest item its statement saw,
 * the card is on a page before this one, and everything from there on moves one place: the last item
 * before the page comes first on it, and its own last goes on to the next page. Any other card (one
 * the statement may have seen, or a tie within the millisecond) cannot be told apart here.
 */
function laterPageWith(
  answer: CachedAnswer & { json: string },
  fields: ListFields,
  page: NewestFirstPage,
  card: ListCard,
): CachedAnswer | undefined {
  const before = page.before;
  if (!before) return undefined;
  // The card's time to the millisecond, at or below its microseconds: after the newest seen, surely.
  const createdUs = Date.parse(card.item.createdAt) * 1000;
  if (!(createdUs > before.newestCreatedUs)) return undefined;
  const earlier = piecesOf(before.json, before.items);
  const moved = earlier.at(-1);
  if (moved === undefined) return undefined;
  const pieces = [moved, ...piecesOf(answer.json, page.items)];
  const created = [before.items.createdMs.at(-1)!, ...page.items.createdMs];
  const revised = pageOf(pieces.slice(0, page.limit), created.slice(0, page.limit), {
    ...fields,
    hasMore: fields.hasMore || pieces.length > page.limit,
    ...oneMoreCounted(fields, page),
  });
  const left = withoutLast(before.json, before.items);
  return {
    json: revised.json,
    tags: answer.tags,
    newestFirst: {
      ...page,
      items: revised.at,
      before: { json: left.json, items: left.at, newestCreatedUs: createdUs },
    },
  };
}

/**
 * Where a new card goes among a page's items, newest first (created, then id: both descending, as the
 * lists order them), by their times: before the first item created before it, or after them all.
 * Undefined when it cannot tell: the cards carry their times to the millisecond, the database to the
 * microsecond.
 */
function placeOf(items: readonly number[], created: number): number | undefined {
  for (const [i, theirs] of items.entries()) {
    if (theirs === created) return undefined;
    if (theirs < created) return i;
  }
  return items.length;
}

/** A page's total with the new listing, when its statement counted it; nothing when it has none. */
function oneMoreCounted(list: ListFields, page: NewestFirstPage) {
  return page.counted && list.total !== undefined ? oneMore(list.total, list.totalCapped ?? false) : {};
}

/** A total one item larger: counting stops at COUNT_CAP, past which it says "1,000+". */
function oneMore(total: number, capped: boolean): { total: number; totalCapped: boolean } {
  if (capped || total + 1 > queries.COUNT_CAP) return { total: queries.COUNT_CAP, totalCapped: true };
  return { total: total + 1, totalCapped: false };
}
