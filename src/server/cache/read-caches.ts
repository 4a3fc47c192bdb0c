import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { RealtimeHub } from '../db/realtime-hub.ts';
import type { LiveSession } from './live-session.ts';
import { ReadCache } from './read-cache.ts';
import { catalogueTags } from './tags.ts';

export { catalogueTags, listTags } from './tags.ts';

// The server's read caches and what empties them (docs/performance.md):
// - catalogue: answers everyone may see alike (item lists and searches, public item pages and
//   profiles), as JSON text ready to send, and pages: Home and Browse as rendered for visitors;
// - sessions: a session cookie's person, so a poll does not ask the database who is asking;
// - notificationsUnread, chatUnread: each person's unread polls.
// Each answer carries tags naming what it was built from (catalogueTags below). The database
// announces, when a change commits, the tags of what it touched (migration 0011), to every instance;
// each drops only the answers carrying them: a chat message or a read mark never touches the
// catalogue, a new listing empties its campus's lists but no item page, a booking going out empties
// the lists' "available now". Live events (a notification, a message, a read mark: migration 0006)
// drop the unread answers of the people they name, before their sockets hear of it. The instance that
// served a change waits, before answering, until it has heard its own announcement (hub.caughtUp), so
// nobody reads a write stale there. While the hub is down (its database connection lost), the caches
// serve nothing, and they start empty when it is back.

export interface ReadCaches {
  catalogue: ReadCache<CachedAnswer>;
  /**
   * By cookie token, like any in-memory session store (the database keeps only its hash). Unknown,
   * ended and suspended ones too (undefined): any change to users or sessions empties it.
   */
  sessions: ReadCache<LiveSession | undefined>;
  notificationsUnread: ReadCache<string>;
  chatUnread: ReadCache<string>;
  /** Home and Browse as pre-rendered for visitors (plugins/web.ts), compressed, by encoding and URL. */
  pages: ReadCache<CachedPage | undefined>;
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
export type CachedAnswer = ({ json: string } | { missing: true }) & { tags: readonly string[] };
/** The tags a catalogue answer declares for itself. */
export const answerTags = (answer: CachedAnswer) => answer.tags;

export function createReadCaches(ttlMs: number): ReadCaches {
  return {
    // Lists (a key per query and day), item pages and profiles: a few thousand answers, a few MB.
    catalogue: new ReadCache({ maxEntries: 5000, ttlMs }),
    sessions: new ReadCache({ maxEntries: 20_000, ttlMs }),
    notificationsUnread: new ReadCache({ maxEntries: 20_000, ttlMs }),
    chatUnread: new ReadCache({ maxEntries: 20_000, ttlMs }),
    pages: new ReadCache({ maxEntries: 300, ttlMs }),
  };
}

/** Empties what a committed change makes stale, as the hub hears of it (migration 0011's tags). */
export function invalidateOnChanges(caches: ReadCaches, hub: RealtimeHub): () => void {
  const stopChanges = hub.observeChanges((tags) => {
    for (const tag of tags) dropTagged(caches, tag);
  });
  const stopEvents = hub.observeEvents((userIds) => {
    for (const userId of userIds) {
      caches.notificationsUnread.delete(userId);
      caches.chatUnread.delete(userId);
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

/** One announced tag: the answers it makes stale, and nothing else. */
function dropTagged(caches: ReadCaches, tag: string) {
  const colon = tag.indexOf(':');
  const kind = colon < 0 ? tag : tag.slice(0, colon);
  const id = colon < 0 ? '' : tag.slice(colon + 1);
  switch (kind) {
    case 'item':
    case 'profile':
    case 'user':
    case 'rating':
      caches.catalogue.invalidate(tag);
      return;
    case 'list':
      // A campus's change shows in that campus's lists and in the lists of every campus; Home and
      // Browse as rendered for visitors are lists of every campus.
      caches.catalogue.invalidate(tag);
      caches.catalogue.invalidate(catalogueTags.list('all'));
      caches.pages.clear();
      return;
    case catalogueTags.everyList:
      caches.catalogue.invalidate(catalogueTags.everyList);
      caches.pages.clear();
      return;
    case 'session':
      caches.sessions.invalidate(catalogueTags.user(id));
      return;
    case 'unread':
      if (id) {
        caches.notificationsUnread.delete(id);
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
 * After a request that changed something, on the instance that served it and before its answer
 * leaves: the writer's own unread polls and session at once; everything else its change touched once
 * this instance has heard the announcement (hub.caughtUp()). If it cannot hear it now, the catalogue
 * empties, as it did before the caches listened to the database: a write is never read stale where it was made.
 */
export async function dropAfterWrite(
  caches: ReadCaches,
  hub: Pick<RealtimeHub, 'caughtUp'>,
  writer: { userId?: string; sessionToken?: string },
) {
  if (writer.userId) {
    caches.notificationsUnread.delete(writer.userId);
    caches.chatUnread.delete(writer.userId);
  }
  if (writer.sessionToken) caches.sessions.delete(writer.sessionToken);
  if (!(await hub.caughtUp())) {
    caches.catalogue.clear();
    caches.pages.clear();
    caches.sessions.clear();
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

/** The JSON a route's response schema would send for `value` (fastify-type-provider-zod's way). */
export function toJson<S extends z.ZodType>(schema: S, value: z.output<S>): string {
  return JSON.stringify(z.encode(schema, value));
}

/** A remembered JSON answer for `key`, or `compute()`'s as the route's schema sends it. */
export function rememberedJson<S extends z.ZodType>(
  cache: ReadCache<string>,
  key: string,
  schema: S,
  compute: () => Promise<z.output<S>>,
): Promise<string> {
  return cache.get(key, async () => toJson(schema, await compute()));
}

/** Sends JSON text as is: Fastify skips its serializer for a string with a JSON content type. */
export function sendJson(reply: FastifyReply, json: string) {
  return reply.type('application/json; charset=utf-8').send(json);
}
