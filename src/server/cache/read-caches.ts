import type { z } from 'zod';
import { LOCALES, type Locale } from '#shared/i18n.ts';
import type { RealtimeHub } from '../db/realtime-hub.ts';
import { toJson } from './answer-json.ts';
import type { LiveSession } from './live-session.ts';
import { ReadCache } from './read-cache.ts';
import { admitsNewListing, catalogueTags, listsShowing, type NewListing, newListingOf } from './tags.ts';

export { catalogueTags, type ListFilters, listTags, searchTags } from './tags.ts';

// The server's read caches and what empties them (docs/performance.md, decisions 016 and 049):
// - catalogue: answers everyone may see alike (item lists and searches, public item pages and
//   profiles), as JSON text ready to send, and pages: Home and Browse as rendered for visitors;
// - counts: how many items a list or search finds, once per filter whatever the page;
// - sessions: a session cookie's person, so a poll does not ask the database who is asking;
// - notificationsUnread, chatUnread: each person's unread polls.
// Each answer carries tags naming what it was built from (tags.ts). The database announces, when a
// change commits, the tags of what it touched, to every instance; each drops only the answers carrying
// them: a chat message or a read mark never touches the catalogue; a new listing empties the lists of
// its campus and category (and of every campus or every category) but no item page, and the searches
// its words match once each instance has checked them (features/items/searches-told.ts); a booking
// going out empties the lists' "available now" and the searches that show the item or match it. Live
// events (a notification, a message, a read mark: migration 0006) drop the unread answers of the
// people they name, before their sockets hear of it. The instance that served a change waits, before
// answering, until it has heard its own announcement (hub.caughtUp), so its writer reads nothing
// stale; if it cannot hear it in time, the writer alone reads around the caches until it can, and
// nothing is emptied. While the hub is down (its database connection lost), the caches serve nothing,
// and they start empty when it is back.

export interface ReadCaches {
  catalogue: ReadCache<CachedAnswer>;
  /** How many items a filter (a list or a search, any page) finds: `{ total, totalCapped }` as JSON. */
  counts: ReadCache<CachedAnswer>;
  /**
   * By cookie token, like any in-memory session store (the database keeps only its hash). Unknown,
   * ended and suspended ones too (undefined): any change to users or sessions empties it.
   */
  sessions: ReadCache<LiveSession | undefined>;
  notificationsUnread: ReadCache<JsonAnswer>;
  chatUnread: ReadCache<JsonAnswer>;
  /** Home and Browse as pre-rendered for visitors (plugins/web.ts), compressed, by encoding and URL. */
  pages: ReadCache<CachedPage | undefined>;
}

/** A remembered answer's JSON, as sent (its compressed forms go with it: http/json-answers.ts). */
export interface JsonAnswer {
  readonly json: string;
}

/** A rendered page as sent: its bytes, their content-encoding, and its status (404: an item not there). */
export interface CachedPage {
  body: Buffer;
  encoding?: 'br' | 'gzip';
  status?: 404;
}

/**
 * A public answer: its JSON, or that there is nothing public to show (a 404 for everyone but a few),
 * with the tags of what it was built from.
 */
export type CachedAnswer = ({ json: string } | { missing: true }) & {
  tags: readonly string[];
  /**
   * Set on a list's page, newest first: a new listing can be put on it in place (decisions 083 and
   * 085).
   */
  newestFirst?: NewestFirstPage;
};

/** What a list's page, newest first, tells of itself for a new listing to be put on it. */
export interface NewestFirstPage {
  /** The campus day it was asked on, which its "available now" reads. */
  today: { date: string; weekday: number };
  availableNow: boolean;
  limit: number;
  /** Where its items lie in its JSON: a new listing is spliced in, the rest of the page kept as text. */
  items: ItemsAt;
  /**
   * It has a total, counted by the statement that read its items: whether that statement saw the new
   * listing shows in its items, and the total is then one more or the same. Without one, false.
   */
  counted: boolean;
  /**
   * A later page (not the first): what its statement read before it. A new listing created after the
   * list's newest item was not seen by it, and moves every later page on by one: the last of the items
   * before comes onto this page. Each listing taken in uses one of them.
   */
  before?: {
    /** The items just before the page, oldest last, as JSON (encoded as the page's items are). */
    json: string;
    /** Where they lie in it. */
    items: ItemsAt;
    /** When the list's newest item, as that statement saw it (or as taken in since), was created. */
    newestCreatedUs: number;
  };
}

/** Where a page's items lie in its JSON (features/items/page-items.ts). */
export interface ItemsAt {
  /** Where each item's JSON begins, in order. */
  starts: number[];
  /** Where the array of them closes (its `]`). */
  end: number;
  /** When each was created, in milliseconds, as its JSON says. */
  createdMs: number[];
}

/**
 * Puts a new listing on the pages of the newest-first lists it enters (features/items): for one
 * listing, how to revise each such stale answer, or undefined for an answer it cannot revise.
 */
export type NewListingReviser = (
  listing: NewListing & { id: string },
) => (answer: CachedAnswer) => (() => Promise<CachedAnswer | undefined>) | undefined;
/** The tags a catalogue answer declares for itself. */
export const answerTags = (answer: CachedAnswer) => answer.tags;

/** Any character beyond Latin-1: V8 then keeps the whole string at two bytes a character. */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/**
 * What a string takes in V8's memory: one byte a character, or two when any of them is beyond Latin-1
 * (a typographic apostrophe, which phones type for ', a dash, an emoji).
 */
export function textBytes(text: string): number {
  return BEYOND_LATIN1.test(text) ? 2 * text.length : text.length;
}

/**
 * Roughly what an answer costs in memory: its text, the compressed form browsers ask for (about a
 * fifth of a list's JSON, Brotli or gzip: http/json-answers.ts), the items a later page keeps from
 * before it, and its tags.
 */
function answerBytes(value: unknown): number {
  const answer = value as CachedAnswer;
  const json = 'json' in answer ? answer.json : '';
  // The text of the items before a later page, and where the items lie: two numbers an item, 16 bytes each.
  const page = answer.newestFirst;
  const before =
    (page?.before ? textBytes(page.before.json) : 0) +
    32 * ((page?.items.starts.length ?? 0) + (page?.before?.items.starts.length ?? 0));
  return (
    200 +
    textBytes(json) +
    Math.ceil(json.length / 4) +
    before +
    answer.tags.reduce((sum, tag) => sum + 40 + tag.length, 0)
  );
}

function pageBytes(value: unknown): number {
  return 200 + ((value as CachedPage | undefined)?.body.length ?? 0);
}

/** READ_CACHE_MEGABYTES's default (decision 072). */
export const DEFAULT_CATALOGUE_BYTES = 256 * 1024 * 1024;

/**
 * The sizes (decisions 049 and 072): the catalogue by bytes (lists, item pages, profiles, one to a few dozen KB
 * each), the rest by count. The miss caps (per lane: the catalogue's lists and searches queue apart
 * from its item pages and profiles) keep a burst of distinct questions from taking every connection
 * of the database pool (10) from the writes and polls: the others wait in memory, in order.
 */
export function createReadCaches(
  ttlMs: number,
  catalogueBytes = DEFAULT_CATALOGUE_BYTES,
  /** How long lists, item pages and profiles (and the lists' counts) are kept: every change is announced. */
  announcedTtlMs = ttlMs,
): ReadCaches {
  return {
    catalogue: new ReadCache({
      maxEntries: 200_000,
      maxBytes: catalogueBytes,
      sizeOf: answerBytes,
      ttlMs,
      announcedTtlMs,
      serveStale: true,
      maxConcurrentMisses: 6,
    }),
    counts: new ReadCache({ maxEntries: 20_000, ttlMs, announcedTtlMs, maxConcurrentMisses: 3 }),
    // A live session changes only by a change to its person or their sessions, each announced
    // (`session:<id>`); its end is checked on every request, and its last use refreshed every few
    // minutes. Kept the long time when it names a person (resumeSession).
    sessions: new ReadCache({ maxEntries: 20_000, ttlMs, announcedTtlMs }),
    // Unread polls change by a new notice or message, a read mark (live events), a notice reworded or
    // deleted, a conversation or its messages deleted (announced tags): kept the long time.
    notificationsUnread: new ReadCache({ maxEntries: 20_000, ttlMs, announcedTtlMs }),
    chatUnread: new ReadCache({ maxEntries: 20_000, ttlMs, announcedTtlMs }),
    pages: new ReadCache({
      maxEntries: 1000,
      maxBytes: 16 * 1024 * 1024,
      sizeOf: pageBytes,
      ttlMs,
      serveStale: true,
      maxConcurrentMisses: 2,
      everyAnswerTags: [catalogueTags.renderedPages],
    }),
  };
}

/**
 * The caches read with the reader named (the catalogue's answers and their counts): after a write,
 * its writer is named to them (ReadCache.wrote). The pages are for visitors, who write nothing.
 */
const readByWriters = (caches: ReadCaches) => [caches.catalogue, caches.counts];

/** Empties what a committed change makes stale, as the hub hears of it (migration 0011's tags). */
export function invalidateOnChanges(
  caches: ReadCaches,
  hub: RealtimeHub,
  /** Without it, a new listing's lists are recomputed by their next readers. */
  newListing?: NewListingReviser,
): () => void {
  const stopChanges = hub.observeChanges((tags) => {
    for (const tag of tags) dropTagged(caches, tag, newListing);
  });
  const stopEvents = hub.observeEvents((userIds, event) => {
    const moved = pollsMovedBy(event.type);
    for (const userId of userIds) {
      if (moved.notifications) forgetUnreadNotifications(caches, userId);
      if (moved.chat) caches.chatUnread.delete(userId);
    }
  });
  // While the hub cannot hear the announcements (its database connection is lost), nothing may be
  // served from memory: any change may go unannounced. Back up, every cache starts empty.
  const stopStatus = hub.observeStatus((status) => {
    for (const cache of Object.values(caches) as ReadCache<unknown>[]) {
      if (status === 'down') cache.suspend();
      else cache.resume();
    }
  });
  return () => {
    stopChanges();
    stopEvents();
    stopStatus();
  };
}

/**
 * Which unread polls a live event moves for the people it names (migrations 0006, 0007 and 0010): a
 * notice or a notice's read mark moves the notifications', a message or a message's read mark the chat
 * count of the one person whose count it publishes. The message itself goes to both people, and a
 * session's end to its person, and neither moves a count. An event this version does not know moves
 * both, the safe answer.
 */
function pollsMovedBy(type: string): { notifications: boolean; chat: boolean } {
  switch (type) {
    case 'notification':
    case 'notificationCount':
      return { notifications: true, chat: false };
    case 'chatUnreadCount':
      return { notifications: false, chat: true };
    case 'newMessage':
    case 'sessionEnded':
      return { notifications: false, chat: false };
    default:
      return { notifications: true, chat: true };
  }
}

/** One announced tag: the answers it makes stale, and nothing else. */
function dropTagged(caches: ReadCaches, tag: string, newListing?: NewListingReviser) {
  const colon = tag.indexOf(':');
  const kind = colon < 0 ? tag : tag.slice(0, colon);
  const id = colon < 0 ? '' : tag.slice(colon + 1);
  switch (kind) {
    case 'item':
    case 'availability':
      // Item pages and the searches that show it; a search's count carries its pages' items.
      caches.catalogue.invalidate(tag);
      caches.counts.invalidate(tag);
      return;
    case 'profile':
    case 'user':
    case 'rating':
      caches.catalogue.invalidate(tag);
      return;
    case 'list': {
      const [campus, category, ...rest] = id.split(':');
      // `list:<campus>` comes with `list:<campus>:<category>`, for instances of the previous version
      // during a rolling deploy (the cache_tags_by_category migration): the longer tag says more.
      if (campus && category === undefined) return;
      // A new listing says what the lists' filters read of it: only the lists it meets change.
      const listing = rest.length ? newListingOf(rest) : undefined;
      if (!campus || !category || (rest.length && !listing)) {
        dropTagged(caches, catalogueTags.everyList); // not a shape this version knows: every list
        return;
      }
      const spare = listing && ((tags: readonly string[]) => !admitsNewListing(tags, listing));
      // One reviser for the four tags: the listing's card is read once for every list it enters.
      const revise = listing?.id ? newListing?.({ ...listing, id: listing.id }) : undefined;
      for (const list of listsShowing(campus, category)) {
        caches.catalogue.invalidate(list, spare, revise);
        caches.counts.invalidate(list, spare);
      }
      caches.pages.invalidate(catalogueTags.renderedPages);
      return;
    }
    case catalogueTags.everyList:
      caches.catalogue.invalidate(catalogueTags.everyList);
      caches.counts.invalidate(catalogueTags.everyList);
      caches.pages.invalidate(catalogueTags.renderedPages);
      return;
    case 'session':
      caches.sessions.invalidate(catalogueTags.user(id));
      return;
    case 'unread':
      if (id) {
        forgetUnreadNotifications(caches, id);
        caches.chatUnread.delete(id);
      } else {
        caches.notificationsUnread.clear();
        caches.chatUnread.clear();
      }
      return;
    default:
      // 'all', and anything this version does not know (a newer instance's tag): the safe answer.
      for (const cache of Object.values(caches) as ReadCache<unknown>[]) cache.clear();
  }
}

/**
 * Writers whose write was not heard in time, by the number of the write that asked: a later write's
 * mark, once heard, proves theirs was heard too (notifications arrive in commit order).
 */
const unheardWriters = new WeakMap<ReadCaches, { asked: number; writers: Map<string, number> }>();
/** Beyond this many unheard writers, the oldest are left to their record's expiry. */
const MAX_UNHEARD_WRITERS = 10_000;

/**
 * Work under way that drops answers an announcement made stale but could not name (searches-told.ts
 * asks the database which remembered searches the changed items match), by caches.
 */
const dropsUnderWay = new WeakMap<ReadCaches, Set<Promise<unknown>>>();

/**
 * `work` will drop answers an announcement heard now made stale: until it ends, a writer is not known
 * to be served only what their write left fresh (dropAfterWrite), and reads around the caches.
 */
export function dropWhenDone(caches: ReadCaches, work: Promise<unknown>) {
  let underWay = dropsUnderWay.get(caches);
  if (!underWay) {
    underWay = new Set();
    dropsUnderWay.set(caches, underWay);
  }
  const set = underWay;
  set.add(work);
  const done = () => set.delete(work);
  work.then(done, done);
}

const dropsDone = (caches: ReadCaches) => !dropsUnderWay.get(caches)?.size;

/**
 * After a request that changed something, on the instance that served it and before its answer
 * leaves: everything its change touched once this instance has heard the announcement
 * (hub.caughtUp()), and from then on the writer is never served an answer their change made stale (a
 * stale answer may go to others while it is recomputed). If it cannot hear it now, nothing is emptied
 * (that was a miss storm under load): the writer alone reads around the caches until a later write's
 * mark is heard, or until everything remembered now has expired; everyone else reads as they would on
 * any other instance until the announcement lands. The writer's own unread polls are dropped at once
 * unless the announcement was heard: the live events that name the people whose unread counts a
 * change moved come on the same connection, in commit order, so hearing the announcement heard them.
 */
export async function dropAfterWrite(
  caches: ReadCaches,
  hub: Pick<RealtimeHub, 'caughtUp'>,
  writer: { userId?: string; sessionToken?: string },
  options: { waitForAnnouncement?: boolean; writersUnread?: boolean } = {},
) {
  const forgetWritersUnread = () => {
    // A write that never moves its writer's unread counts (a chat message: its recipient's are dropped
    // by dropAfterMessage and its live event) keeps them remembered.
    if (!writer.userId || options.writersUnread === false) return;
    forgetUnreadNotifications(caches, writer.userId);
    caches.chatUnread.delete(writer.userId);
  };
  // A write no cached answer reads (a message, a read mark, a sign-in) has nothing to wait for: the
  // mark would cost a checkout and a round trip to the database for each of them. Nor does it change
  // the writer's session, which stays remembered. A read mark moves its writer's unread count, and
  // its live event may still be on its way.
  if (options.waitForAnnouncement === false) {
    forgetWritersUnread();
    return;
  }
  let unheard = unheardWriters.get(caches);
  if (!unheard) {
    unheard = { asked: 0, writers: new Map() };
    unheardWriters.set(caches, unheard);
  }
  const asked = ++unheard.asked;
  // Heard, and whatever the announcements heard so far set off has dropped what it must. The write
  // does not wait for such drops (a query each): its writer reads around the caches until they end.
  const caughtUp = await hub.caughtUp();
  if (!caughtUp) forgetWritersUnread();
  const heard = caughtUp && dropsDone(caches);
  if (heard) {
    for (const [userId, theirs] of unheard.writers) {
      if (theirs >= asked) continue;
      unheard.writers.delete(userId);
      for (const cache of readByWriters(caches)) cache.wrote(userId);
    }
  }
  // Heard: a change to the writer's account announced `session:<id>` and their session was dropped
  // with it, so their next request need not read it again. Not heard: dropped here.
  if (!heard && writer.sessionToken) caches.sessions.delete(writer.sessionToken);
  if (!writer.userId) return;
  for (const cache of readByWriters(caches)) cache.wrote(writer.userId, heard);
  if (!heard) {
    unheard.writers.delete(writer.userId);
    unheard.writers.set(writer.userId, asked);
    if (unheard.writers.size > MAX_UNHEARD_WRITERS) {
      const oldest = unheard.writers.keys().next().value;
      if (oldest !== undefined) unheard.writers.delete(oldest);
    }
  }
}

/**
 * A chat message raised its recipient's unread count. The instance that stored it drops that answer at
 * once, as dropAfterWrite does for the writer: a poll served here right after the send must not wait
 * for the announcement (which other instances do hear of within milliseconds).
 */
export function dropAfterMessage(caches: ReadCaches, recipientId: string) {
  caches.chatUnread.delete(recipientId);
}

/** A person's unread notifications are remembered once per language they are read in. */
export const unreadNotificationsKey = (userId: string, locale: Locale) => `${userId}:${locale}`;

function forgetUnreadNotifications(caches: ReadCaches, userId: string) {
  for (const locale of LOCALES) caches.notificationsUnread.delete(unreadNotificationsKey(userId, locale));
}

/**
 * A remembered unread poll for `key`, or `compute()`'s as the route's schema sends it: every change to
 * it is announced (createReadCaches), so it is kept the long time.
 */
export function rememberedUnread<S extends z.ZodType>(
  cache: ReadCache<JsonAnswer>,
  key: string,
  schema: S,
  compute: () => Promise<z.output<S>>,
): Promise<JsonAnswer> {
  return cache.get(key, async () => ({ json: toJson(schema, await compute()) }), undefined, {
    announced: true,
  });
}
