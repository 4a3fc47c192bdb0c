import { I18nProvider } from '@lingui/react';
import { createRoot } from 'react-dom/client';
import { i18n } from '../lib/i18n.ts';
import { UpdatePromptView } from './update-prompt-view.tsx';

// Registers the service worker (sw.ts) with workbox-window and, when a new version of CampusLoop has
// been deployed and its worker is waiting, asks before it takes over (the 'prompt' update mode): a
// half-typed listing or message is never lost to a reload the person did not choose. Reload tells the
// waiting worker to take over (SKIP_WAITING), then the page reloads on the new version. The prompt has
// its own root beside the app's, so the pre-rendered pages hydrate exactly as the server rendered them.
// workbox-window directly rather than vite-plugin-pwa's virtual module: the same library, and the
// module stays importable where there is no Vite build (main.tsx in the component tests).

/** How often an open tab asks whether a new version was deployed (besides each navigation). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Starts the worker and its prompt (main.tsx), where the browser has service workers. workbox-window is
 * its own chunk, loaded after the app's: the first page's script does not wait for it.
 */
export async function mountUpdatePrompt() {
  // Not under `npm run dev`: Vite's dev server has no worker to serve (and none should cache its files).
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  const { Workbox } = await import('workbox-window');
  const workbox = new Workbox('/sw.js', { scope: '/' });
  const container = document.createElement('div');
  container.id = 'update-prompt';
  document.body.append(container);
  const root = createRoot(container);

  const reload = () => {
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
      once: true,
    });
    workbox.messageSkipWaiting();
  };
  // In the app's language, and in a new one when the person switches (the provider follows the instance).
  const show = (open: boolean) =>
    root.render(
      open ? (
        <I18nProvider i18n={i18n}>
          <UpdatePromptView onReload={reload} onDismiss={() => show(false)} />
        </I18nProvider>
      ) : null,
    );
  // Only an update: the first worker of a first visit takes the page at once, with nothing to ask.
  const offer = () => {
    if (navigator.serviceWorker.controller) show(true);
  };
  // This tab's own update check, or one found by another tab or later on (workbox-window calls those
  // external); also a worker already waiting when the page opened.
  workbox.addEventListener('waiting', offer);
  workbox.addEventListener('installed', (event) => {
    if (event.isExternal && event.sw?.state === 'installed') offer();
  });
  void workbox
    .register()
    .then((registration) => {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      }, UPDATE_CHECK_MS);
    })
    .catch(() => {
      // No worker (a private window that refuses it, say): the app works as before, without offline.
    });
}
