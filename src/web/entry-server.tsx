import {
  type DehydratedState,
  dehydrate,
  type QueryClient,
  QueryClientProvider,
} from '@tanstack/react-query';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { ItemList } from '#shared/schemas/items.ts';
import { sessionKey } from './features/auth/api.ts';
import { type ItemListParams, infiniteItemsQuery, itemsQueryString } from './features/items/api.ts';
import { createQueryClient } from './lib/query-client.ts';
import { QUERY_STATE_ID } from './lib/query-state.ts';
import { documentTitle } from './lib/use-document-title.ts';
import { routes } from './router.tsx';
import { BROWSE_PAGE_SIZE, browseFilters, initialBrowseState } from './routes/browse.tsx';
import { HOME_PAGE_SIZE, homeItemFilters } from './routes/home.tsx';

// The server's side of the web app (built by Vite into dist/server, loaded by plugins/web-render.ts):
// the first view of Home and Browse for a signed-out visitor, rendered by the app's own components with
// the data they would fetch, so the browser paints the real page as soon as the HTML and the styles
// arrive, then hydrates it (main.tsx) from the same data without asking again (issue 7).

/** Where the server gets what a page shows: what the API answers to the same query. */
export interface PageSources {
  /** GET /api/items with this query string ('?campus=all&availableNow=true&page=1&limit=8'). */
  items(query: string): Promise<ItemList>;
}

const itemsFrom = (sources: PageSources) => (params: ItemListParams) =>
  sources.items(itemsQueryString(params));

export interface RenderedPage {
  /** The markup that goes inside #root. */
  html: string;
  /** A `<script type="application/json">` data block with the query cache (data, never run as script). */
  data: string;
  /** The tab title the page sets once it runs. */
  title: string;
  /** The page's lazily loaded source modules (relative to src/web), for preload hints. */
  modules: string[];
}

interface Page {
  title: string;
  modules: string[];
  /** Puts into the cache what the first view shows, as its components ask for it. */
  load(queryClient: QueryClient, url: URL, sources: PageSources): Promise<unknown>;
}

const pages: Record<string, Page> = {
  '/': {
    title: '',
    modules: [],
    // Spec §2: a visitor's 'Available Near You' lists every campus.
    load: (queryClient, _url, sources) =>
      queryClient.fetchInfiniteQuery(
        infiniteItemsQuery(homeItemFilters('all'), HOME_PAGE_SIZE, itemsFrom(sources)),
      ),
  },
  '/browse': {
    title: 'Browse Items',
    modules: ['routes/browse.tsx'],
    load: (queryClient, url, sources) =>
      queryClient.fetchInfiniteQuery(
        infiniteItemsQuery(
          browseFilters(initialBrowseState(url.searchParams.get('q') ?? '')),
          BROWSE_PAGE_SIZE,
          itemsFrom(sources),
        ),
      ),
  },
};

const handler = createStaticHandler(routes);

/** The page path as the router matches it: any case, trailing slashes ignored. */
function pageKey(pathname: string): string {
  return pathname.toLowerCase().replace(/\/+$/, '') || '/';
}

/** Whether `pathname` is a page the server renders for visitors. */
export function rendersPage(pathname: string): boolean {
  return Object.hasOwn(pages, pageKey(pathname));
}

/**
 * Renders `url` as a signed-out visitor sees it before any interaction. Undefined for a page it does
 * not render. Throws when data cannot be had or rendering fails: the caller then sends the plain shell
 * and the browser renders as it always did.
 */
export async function renderPage(url: URL, sources: PageSources): Promise<RenderedPage | undefined> {
  const page = pages[pageKey(url.pathname)];
  if (!page) return undefined;
  const queryClient = createQueryClient();
  // Only called for requests without a session cookie: a visitor, for sure.
  queryClient.setQueryData(sessionKey, null);
  await page.load(queryClient, url, sources);
  const state = dehydrate(queryClient);

  const context = await handler.query(new Request(url));
  if (context instanceof Response) return undefined;
  const router = createStaticRouter(handler.dataRoutes, context);
  const errors: unknown[] = [];
  // Waits for every lazy part (the page's chunk, Home's impact section) and, with no chunk size limit,
  // writes each in place: no streaming script, which the CSP would refuse anyway.
  const { prelude } = await prerender(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </QueryClientProvider>
    </StrictMode>,
    { progressiveChunkSize: Number.POSITIVE_INFINITY, onError: (error) => void errors.push(error) },
  );
  const html = await new Response(prelude).text();
  if (errors.length > 0) throw errors[0];
  queryClient.clear();
  return {
    html,
    data: `<script type="application/json" id="${QUERY_STATE_ID}">${serializeState(state)}</script>`,
    title: documentTitle(page.title),
    modules: page.modules,
  };
}

/** JSON that cannot end its script element or open a comment in it, whatever the listings say. */
export function serializeState(state: DehydratedState): string {
  return JSON.stringify(state)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
