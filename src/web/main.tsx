// First: no schema may be built before zod is told not to use eval (lib/zod-without-eval.ts).
import './lib/zod-without-eval.ts';
import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import './app.css';
import { afterLoadAndIdle } from './lib/after-load.ts';
import { activateLocale, i18n, pageLocale } from './lib/i18n.ts';
import { createQueryClient } from './lib/query-client.ts';
import { restoreQueryState } from './lib/query-state.ts';
import { markServerRendered } from './lib/server-rendered.ts';
import { recordOfflineLocale, recordOfflineSnapshots } from './pwa/offline-recorder.ts';
import { AppRoutes } from './router.tsx';

const queryClient = createQueryClient();
// What the signed-in person last saw, for the service worker's offline page (decision 028).
recordOfflineSnapshots(queryClient);
// And the language it was shown in, for that page's words.
recordOfflineLocale(i18n);
// Navigations are plain updates, not transitions: in a transition React keeps the page being left on
// screen, and usable, until the next page's code has arrived, so what a person typed into a field
// that looked like the new page's (the sign-in e-mail under 'Forgot password?') was thrown away a
// moment later. Now the page being left gives way at once to the loading placeholder, and the first
// field anyone can type into is the new page's own.
const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </I18nProvider>
  </StrictMode>
);

// The server pre-renders some pages for visitors (entry-server.tsx): those are hydrated from the data
// they were rendered with, as a transition so the work is sliced and a tap is never kept waiting long
// (the page is already on screen); every other page is rendered here.
// The page's language first: its messages must be here before the first render, or the server's
// Spanish page would be hydrated with English.
void activateLocale(pageLocale()).then(() => {
  if (container.firstElementChild) {
    restoreQueryState(queryClient);
    markServerRendered();
    startTransition(() => {
      hydrateRoot(container, app);
    });
  } else {
    createRoot(container).render(app);
  }
});

// The installable app (decision 028): the service worker and its update prompt, once the page has loaded
// and the main thread is idle: registering starts the worker's precache downloads, and nothing on the
// first screen needs them. Its code is a chunk of its own, not part of the first script.
afterLoadAndIdle(() => void import('./pwa/update-prompt.tsx').then((m) => m.mountUpdatePrompt()));
