/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import * as navigationPreload from 'workbox-navigation-preload';
import { cleanupOutdatedCaches, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';
import { OFFLINE_PAGE_CSP, renderOfflinePage } from './pwa/offline-page.ts';
import { cacheSnapshotStore, offlineLocale, snapshotExpired } from './pwa/offline-snapshot.ts';

// CampusLoop's service worker, built by vite-plugin-pwa's injectManifest from this file into
// dist/web/sw.js, scope '/'. What it does, and what it never does (decision 028):
//
// - Precaches the app's files that the build names by content (scripts, styles, icons, the manifest):
//   served from the cache, a new build's list replaces the old one when the new worker activates.
// - Pages go to the network as before (pre-rendered or the shell, with the server's headers); when the
//   network fails, the answer is the offline page, built here from the last snapshot the app kept
//   of the signed-in person's reservations and conversations (pwa/offline-snapshot.ts).
// - API answers and photos are never cached by the worker: they pass straight through.
// - A new version waits until the person chooses Reload in the app's prompt (pwa/update-prompt.tsx,
//   registerType 'prompt'), which sends SKIP_WAITING.
// - Web Push (decision 032): a push shows its notification (title, body, the page it leads
//   to); a click focuses an open CampusLoop tab on that page, or opens one.

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first install takes the open pages at once (an update waits for the prompt, below).
clientsClaim();
// The page's request starts while the worker wakes up, so a controlled page loads no later than before.
navigationPreload.enable();

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

async function offlinePage(url: string): Promise<Response> {
  const store = cacheSnapshotStore(self.caches);
  let snapshot = await store?.read().catch(() => undefined);
  if (snapshot && snapshotExpired(snapshot, Date.now())) {
    await store?.clear().catch(() => undefined);
    snapshot = undefined;
  }
  // In the language the app last spoke here, else the browser's.
  const locale = await offlineLocale(self.caches, self.navigator.languages);
  return new Response(renderOfflinePage(snapshot, url, undefined, locale), {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': OFFLINE_PAGE_CSP,
    },
  });
}

const network = new NetworkOnly();
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await network.handle(options);
      } catch {
        return offlinePage(options.request.url);
      }
    },
    // The API and uploads are never pages (a download opened in a tab goes to the network as is).
    { denylist: [/^\/api\//, /^\/uploads\//, /^\/metrics/] },
  ),
);

/** What the server's delivery round sends (features/deliveries): always JSON. */
interface PushPayload {
  title?: string;
  body?: string;
  url?: string;
  tag?: string;
}

self.addEventListener('push', (event) => {
  let payload: PushPayload = {};
  try {
    payload = (event.data?.json() ?? {}) as PushPayload;
  } catch {
    payload = { body: event.data?.text() };
  }
  // Only our own pages: a payload can never send the person elsewhere.
  const url = payload.url?.startsWith('/') && !payload.url.startsWith('//') ? payload.url : '/notifications';
  event.waitUntil(
    self.registration.showNotification(payload.title ?? 'CampusLoop', {
      body: payload.body ?? '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      tag: payload.tag,
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(
    (event.notification.data as { url?: string } | null)?.url ?? '/notifications',
    self.location.origin,
  );
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === target.origin);
      if (open) {
        await open.focus();
        if (open.url !== target.href) await open.navigate(target.href).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});
