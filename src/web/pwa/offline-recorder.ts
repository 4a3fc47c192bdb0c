import type { I18n } from '@lingui/core';
import type { QueryClient } from '@tanstack/react-query';
import { isLocale } from '#shared/i18n.ts';
import type { SessionUser } from '#shared/schemas/auth.ts';
import type { ConversationSummary } from '#shared/schemas/chat.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { sessionKey } from '../features/auth/api.ts';
import {
  cacheSnapshotStore,
  type OfflineSnapshot,
  offlineConversations,
  offlineReservations,
  type SnapshotStore,
  saveOfflineLocale,
} from './offline-snapshot.ts';

// Keeps the offline page's snapshot (offline-snapshot.ts) as the app shows things: it watches the query
// cache, so the pages need not know. Each time My Reservations or the conversation list arrives from the
// API, its list is written under the signed-in person; when someone else signs in, the last person's
// snapshot is dropped; when the server says nobody is signed in (sign-out, an expired session), it is
// deleted. The session query answers null on a network failure too (features/auth/api.ts), so a null
// is confirmed with the server before deleting: going offline keeps the snapshot, signing out does not.

/**
 * The query keys of My Reservations and the conversation list (reservationKeys.all, chatKeys.conversations),
 * written out so the first page's script does not take in those features' modules; the test checks
 * they are the same.
 */
export const RESERVATIONS_KEY = '/api/reservations';
export const CONVERSATIONS_KEY = '/api/conversations';

/** Whether the server says nobody is signed in (false when it cannot be asked). */
async function serverSaysSignedOut(): Promise<boolean> {
  try {
    const response = await fetch('/api/auth/me', { credentials: 'include', cache: 'no-store' });
    if (!response.ok) return false;
    const body = (await response.json()) as { user: SessionUser | null };
    return body.user === null;
  } catch {
    return false;
  }
}

export function recordOfflineSnapshots(
  queryClient: QueryClient,
  store: SnapshotStore | undefined = cacheSnapshotStore(),
  signedOut: () => Promise<boolean> = serverSaysSignedOut,
): () => void {
  if (!store) return () => {};
  // One change at a time, in the order the answers arrived.
  let queue = Promise.resolve();
  const run = (task: () => Promise<void>) => {
    queue = queue.then(task).catch(() => {
      // Storage full or refused (private browsing): the offline page then shows less, nothing breaks.
    });
  };
  const saveList = (
    user: SessionUser,
    field: 'reservations' | 'conversations',
    list: NonNullable<OfflineSnapshot[typeof field]>['list'],
    shownAt: number,
  ) =>
    run(async () => {
      const previous = await store.read();
      const base: OfflineSnapshot =
        previous?.user.id === user.id ? previous : { user: { id: user.id, fullName: user.fullName } };
      await store.write({ ...base, [field]: { savedAt: new Date(shownAt).toISOString(), list } });
    });

  return queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const { queryKey, state } = event.query;
    if (queryKey.length !== 1) return;
    if (queryKey[0] === sessionKey[0]) {
      const user = state.data as SessionUser | null;
      if (user) {
        run(async () => {
          const previous = await store.read();
          if (previous && previous.user.id !== user.id) await store.clear();
        });
      } else {
        run(async () => {
          if (await signedOut()) await store.clear();
        });
      }
      return;
    }
    const user = queryClient.getQueryData<SessionUser | null>(sessionKey);
    if (!user) return;
    if (queryKey[0] === RESERVATIONS_KEY) {
      const list = state.data as Reservation[];
      // Only the signed-in person's own (an answer that began before someone else signed in is not).
      if (!list.every((r) => r.borrowerId === user.id || r.providerId === user.id)) return;
      saveList(user, 'reservations', offlineReservations(user.id, list), state.dataUpdatedAt);
    } else if (queryKey[0] === CONVERSATIONS_KEY) {
      const list = state.data as ConversationSummary[];
      if (!list.every((c) => c.buyerId === user.id || c.sellerId === user.id)) return;
      saveList(user, 'conversations', offlineConversations(list), state.dataUpdatedAt);
    }
  });
}

/**
 * Keeps the app's language for the offline page (offline-snapshot.ts), now and at each change (the
 * language switch). Returns the function that stops it.
 */
export function recordOfflineLocale(
  i18n: I18n,
  storage: CacheStorage | undefined = globalThis.caches,
): () => void {
  if (!storage) return () => {};
  // One write at a time, in order: the last language chosen is the one kept.
  let queue = Promise.resolve();
  const save = () => {
    const locale = i18n.locale;
    if (!isLocale(locale)) return;
    queue = queue.then(() => saveOfflineLocale(locale, storage)).catch(() => undefined);
  };
  save();
  return i18n.on('change', save);
}
