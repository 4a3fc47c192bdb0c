import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { LiveSession } from '../features/auth/service.ts';
import type { RealtimeHub } from '../plugins/realtime-hub.ts';
import { ReadCache } from './read-cache.ts';

// The server's read caches and what empties them (issue 7, docs/performance.md):
// - catalogue: answers everyone may see alike (item lists and searches, public item pages and
//   profiles), as JSON text ready to send, and pages: Home and Browse as rendered for visitors;
//   both emptied by any change to a table they are built from;
// - sessions: a session cookie's person, so a poll does not ask the database who is asking;
// - notificationsUnread, chatUnread: each person's unread polls, dropped for the people a live event
//   names (a notification, a message, a read mark: migration 0006), before their sockets hear of it.
// The database announces changes when they commit (migration 0008), to every instance. The instance
// that served a change also drops at once what its writer could read next (dropAfterWrite), so nobody
// reads their own write stale while the announcement is on its way.

/** Tables the catalogue's answers read: items, their owners, bookings (available now), reviews, badges. */
const CATALOGUE_TABLES = new Set(['items', 'reservations', 'users', 'reviews', 'user_badges']);

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

/** A rendered page as sent: its bytes and their content-encoding. */
export interface CachedPage {
  body: Buffer;
  encoding?: 'br' | 'gzip';
}

/** A public answer: its JSON, or that there is nothing public to show (a 404 for everyone but a few). */
export type CachedAnswer = { json: string } | { missing: true };

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

/** Empties what a committed change makes stale, as the hub hears of it. */
export function invalidateOnChanges(caches: ReadCaches, hub: RealtimeHub): () => void {
  const stopTables = hub.observeTables((table) => {
    if (CATALOGUE_TABLES.has(table)) {
      caches.catalogue.clear();
      caches.pages.clear();
    }
    if (table === 'users' || table === 'sessions') caches.sessions.clear();
    if (table === 'notifications') caches.notificationsUnread.clear();
    if (table === 'messages' || table === 'conversations') caches.chatUnread.clear();
  });
  const stopEvents = hub.observeEvents((userIds) => {
    for (const userId of userIds) {
      caches.notificationsUnread.delete(userId);
      caches.chatUnread.delete(userId);
    }
  });
  return () => {
    stopTables();
    stopEvents();
  };
}

/**
 * After a request that changed something, on the instance that served it and before its answer
 * leaves: whatever the writer may read next. Other people's entries follow the announcement.
 */
export function dropAfterWrite(
  caches: ReadCaches,
  writer: { userId?: string; sessionToken?: string; isAdmin?: boolean },
) {
  caches.catalogue.clear();
  caches.pages.clear();
  if (writer.userId) {
    caches.notificationsUnread.delete(writer.userId);
    caches.chatUnread.delete(writer.userId);
  }
  // A moderator's suspension ends someone else's sessions: do not wait for the announcement.
  if (writer.isAdmin) caches.sessions.clear();
  else if (writer.sessionToken) caches.sessions.delete(writer.sessionToken);
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
