import { isLocale, type Locale, localeFromAcceptLanguage } from '#shared/i18n.ts';
import type { ConversationSummary } from '#shared/schemas/chat.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';

// What the offline page shows (decision 028): the last reservations and conversations the signed-in
// person saw, reduced to what the page prints. One snapshot at a time, of one person: it names whose it
// is, is replaced when someone else signs in and deleted at sign-out (offline-recorder.ts), so a shared
// computer never shows one student's pickup codes to the next. It lives in the Cache API under a
// same-origin URL nobody serves, where the page writes it and the service worker reads it (sw.ts).

export const OFFLINE_CACHE = 'campusloop-offline-v1';
export const SNAPSHOT_URL = '/__offline/snapshot.json';

export interface OfflineReservation {
  id: string;
  role: 'borrower' | 'provider';
  itemTitle: string;
  status: Reservation['status'];
  startDate: string;
  endDate: string;
  /** The other party's name. */
  otherName: string;
  /** The borrower's code while approved; the lender's copy is never kept (they type the borrower's). */
  pickupCode: string | null;
}

export interface OfflineConversation {
  id: string;
  otherName: string;
  itemTitle: string | null;
  lastMessage: string | null;
  lastMessageAt: string;
  unreadCount: number;
}

export interface OfflineSnapshot {
  user: { id: string; fullName: string };
  /** When each list was last shown, ISO; absent when it never was. */
  reservations?: { savedAt: string; list: OfflineReservation[] };
  conversations?: { savedAt: string; list: OfflineConversation[] };
}

export function offlineReservations(userId: string, reservations: Reservation[]): OfflineReservation[] {
  return reservations.map((r) => {
    const role = r.borrowerId === userId ? 'borrower' : 'provider';
    return {
      id: r.id,
      role,
      itemTitle: r.item.title,
      status: r.status,
      startDate: r.startDate,
      endDate: r.endDate,
      otherName: role === 'borrower' ? r.provider.fullName : r.borrower.fullName,
      pickupCode: role === 'borrower' && r.status === 'approved' ? r.pickupCode : null,
    };
  });
}

export function offlineConversations(conversations: ConversationSummary[]): OfflineConversation[] {
  return conversations.map((c) => ({
    id: c.id,
    otherName: c.otherUser.fullName,
    itemTitle: c.item?.title ?? null,
    lastMessage: c.lastMessage?.content ?? null,
    lastMessageAt: c.lastMessageAt,
    unreadCount: c.unreadCount,
  }));
}

/** The newer of the two lists' times: "what you last saw at". */
export function snapshotTime(snapshot: OfflineSnapshot): string | undefined {
  const times = [snapshot.reservations?.savedAt, snapshot.conversations?.savedAt].filter((t): t is string =>
    Boolean(t),
  );
  return times.sort().at(-1);
}

/**
 * How long a snapshot may be shown: a session's default life (SESSION_DAYS, 30). A person who has not
 * opened the app for that long is signed out anyway, and a shared computer's last user is not shown
 * for ever to whoever comes next offline.
 */
export const SNAPSHOT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** Whether the snapshot is too old to show (or says no time at all). */
export function snapshotExpired(snapshot: OfflineSnapshot, now: number): boolean {
  const seenAt = snapshotTime(snapshot);
  return !seenAt || now - Date.parse(seenAt) > SNAPSHOT_MAX_AGE_MS;
}

/** Where the snapshot is kept; the Cache API in the app, a map in tests. */
export interface SnapshotStore {
  read(): Promise<OfflineSnapshot | undefined>;
  write(snapshot: OfflineSnapshot): Promise<void>;
  clear(): Promise<void>;
}

/** The Cache API store, shared by the page and the service worker (undefined where there is none: http). */
export function cacheSnapshotStore(storage: CacheStorage | undefined = globalThis.caches) {
  if (!storage) return undefined;
  return {
    async read() {
      const cache = await storage.open(OFFLINE_CACHE);
      const response = await cache.match(SNAPSHOT_URL);
      if (!response) return undefined;
      try {
        return (await response.json()) as OfflineSnapshot;
      } catch {
        return undefined;
      }
    },
    async write(snapshot) {
      const cache = await storage.open(OFFLINE_CACHE);
      await cache.put(
        SNAPSHOT_URL,
        new Response(JSON.stringify(snapshot), { headers: { 'content-type': 'application/json' } }),
      );
    },
    async clear() {
      await storage.delete(OFFLINE_CACHE);
    },
  } satisfies SnapshotStore;
}

// The offline page's language: the one the app last spoke in this browser, which the server chose from
// the visitor's choice, the account's or the browser's. Kept apart from the snapshot, so a visitor who
// never signed in, or someone who signed out, still reads the page in their language.

export const LOCALE_CACHE = 'campusloop-locale-v1';
const LOCALE_URL = '/__offline/locale';

/** Remembers the app's language for the worker (nothing where there is no Cache API: http). */
export async function saveOfflineLocale(
  locale: Locale,
  storage: CacheStorage | undefined = globalThis.caches,
): Promise<void> {
  if (!storage) return;
  const cache = await storage.open(LOCALE_CACHE);
  await cache.put(LOCALE_URL, new Response(locale, { headers: { 'content-type': 'text/plain' } }));
}

/**
 * The language to write the offline page in: the app's last, else the first of the browser's
 * languages (`navigator.languages`) that we speak, else English.
 */
export async function offlineLocale(
  storage: CacheStorage | undefined,
  languages: readonly string[] = [],
): Promise<Locale> {
  try {
    const saved = await (await storage?.open(LOCALE_CACHE))?.match(LOCALE_URL);
    const text = saved ? (await saved.text()).trim() : undefined;
    if (isLocale(text)) return text;
  } catch {
    // Storage refused: the browser's languages decide.
  }
  return localeFromAcceptLanguage(languages.join(','));
}
