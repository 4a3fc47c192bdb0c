import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { I18nProvider } from '@lingui/react';
import {
  type DehydratedState,
  dehydrate,
  type QueryClient,
  QueryClientProvider,
} from '@tanstack/react-query';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { DEFAULT_LOCALE, type Locale } from '#shared/i18n.ts';
import type { PageMeta } from '#shared/page-meta.ts';
import type { ImpactCampuses, ImpactDashboard } from '#shared/schemas/impact.ts';
import type { ItemList } from '#shared/schemas/items.ts';
import { sessionKey } from './features/auth/api.ts';
import { impactKeys } from './features/impact/api.ts';
import type { ItemDetail } from './features/items/api.ts';
import { type ItemListParams, infiniteItemsQuery, itemKeys, itemsQueryString } from './features/items/api.ts';
import { readBrowseAddress } from './features/items/browse-address.ts';
import { campusNameKey } from './features/universities/queries.ts';
import { activateLocale, i18n } from './lib/i18n.ts';
import { amountOf, formatRentalPrice, usableImages } from './lib/item-labels.ts';
import { createQueryClient } from './lib/query-client.ts';
import { QUERY_STATE_ID } from './lib/query-state.ts';
import { documentTitle } from './lib/use-document-title.ts';
import { AppRoutes } from './router.tsx';
import { BROWSE_PAGE_SIZE, browseFilters } from './routes/browse.tsx';
import { HOME_PAGE_SIZE, homeItemFilters } from './routes/home.tsx';

// The server's side of the web app (built by Vite into dist/server, loaded by plugins/web-render.ts):
// the first view of Home, Browse, an item's page and Impact for a signed-out visitor, rendered by the app's own components with
// the data they would fetch, so the browser paints the real page as soon as the HTML and the styles
// arrive, then hydrates it (main.tsx) from the same data without asking again.

/** Where the server gets what a page shows: what the API answers to the same query. */
export interface PageSources {
  /** GET /api/items with this query string ('?campus=all&availableNow=true&page=1&limit=8'). */
  items(query: string): Promise<ItemList>;
  /** GET /api/impact: the campuses with borrows, and the one a visitor sees first. */
  impactCampuses(): Promise<ImpactCampuses>;
  /** GET /api/impact/{campus}/dashboard. */
  impactDashboard(campus: string): Promise<ImpactDashboard>;
  /** GET /api/items/{id} as a visitor gets it; undefined when the API answers 404 (hidden, missing). */
  item(id: string): Promise<ItemDetail | undefined>;
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
  /** What a shared link shows (an item's page). */
  meta?: PageMeta;
}

/** A page that is not there for a visitor (an item hidden or missing): the server answers 404. */
export interface MissingPage {
  status: 404;
}

/**
 * What a page says of itself beyond its markup: its title (from its data) and what a shared link shows.
 * Worked out while the visitor's language is the app's, so it is written in theirs.
 */
type PageHead = () => { title?: string; meta?: PageMeta };

interface Page {
  /** The tab title when the page's data names none; none for Home. */
  title?: MessageDescriptor;
  modules: string[];
  /**
   * Puts into the cache what the first view shows, as its components ask for it. May return how to
   * name the page (its head); 'missing' when there is no such page.
   */
  load(queryClient: QueryClient, url: URL, sources: PageSources): Promise<PageHead | 'missing' | undefined>;
}

const pages: Record<string, Page> = {
  '/': {
    modules: [],
    // A visitor's Home shows one campus, the one the impact figures are of.
    load: async (queryClient, _url, sources) => {
      const campuses = await sources.impactCampuses();
      queryClient.setQueryData(impactKeys.all, campuses);
      const { campus, campusName } = campuses.defaultCampus;
      queryClient.setQueryData(campusNameKey(campus), { campus, campusName, known: true });
      await queryClient.fetchInfiniteQuery(
        infiniteItemsQuery(
          homeItemFilters(campuses.defaultCampus.campus),
          HOME_PAGE_SIZE,
          itemsFrom(sources),
        ),
      );
      return undefined;
    },
  },
  '/browse': {
    title: msg`Browse Items`,
    modules: ['routes/browse.tsx'],
    load: async (queryClient, url, sources) => {
      // As the page reads its address (features/items/browse-address.ts): every filter, and as many
      // pages as 'Load more' had shown, so a reload paints the same list.
      const choice = readBrowseAddress(url.searchParams);
      await queryClient.fetchInfiniteQuery({
        ...infiniteItemsQuery(
          // A visitor without ?campus= sees every campus (useBrowseCampus).
          browseFilters(choice, choice.campus ?? 'all'),
          BROWSE_PAGE_SIZE,
          itemsFrom(sources),
        ),
        pages: choice.pages,
      });
      return undefined;
    },
  },
};

/** Spec §2 Item detail, as a visitor sees it: with what a shared link shows. */
const itemPage: Page = {
  title: msg`Item`,
  modules: ['routes/item-detail.tsx'],
  load: async (queryClient, url, sources) => {
    // As the router reads it (any case for '/item/', the id as written, a trailing slash ignored).
    const id = decodeURIComponent(url.pathname.split('/')[2] ?? '');
    const detail = await sources.item(id);
    if (!detail) return 'missing';
    queryClient.setQueryData(itemKeys.detail(id), detail);
    const { item } = detail;
    const cover = usableImages(item.images)[0];
    return () => {
      const title = item.title;
      const meta: PageMeta = {
        path: `/item/${encodeURIComponent(id)}`,
        type: 'product',
        description: [
          priceLine(item.rentalPrice, item.rentalPeriod, item.depositAmount),
          summary(item.description),
        ]
          .filter(Boolean)
          .join(' '),
        image: cover,
        imageAlt: cover ? t`${title}, photo 1` : undefined,
        price: amountOf(item.rentalPrice).toFixed(2),
      };
      return { title, meta };
    };
  },
};

/** 'Free to borrow.', '$5.00 / day · $20.00 refundable deposit.', in the active language. */
function priceLine(
  rentalPrice: ItemDetail['item']['rentalPrice'],
  rentalPeriod: ItemDetail['item']['rentalPeriod'],
  depositAmount: ItemDetail['item']['depositAmount'],
): string {
  const free = amountOf(rentalPrice) === 0;
  const price = formatRentalPrice(rentalPrice, rentalPeriod);
  const amount = amountOf(depositAmount);
  if (amount === 0) return free ? t`Free to borrow.` : `${price}.`;
  const deposit = `$${amount.toFixed(2)}`;
  return free
    ? t`Free to borrow · ${deposit} refundable deposit.`
    : t`${price} · ${deposit} refundable deposit.`;
}

/** The first sentences of a description, at most about 160 characters, on one line. */
function summary(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 160 ? line : `${line.slice(0, 157).replace(/\s+\S*$/, '')}…`;
}

/** Spec §2 Campus Impact Dashboard: ?campus= when given, else the visitors' default campus. */
const impactPage: Page = {
  title: msg`Campus Impact`,
  modules: ['routes/impact.tsx'],
  load: async (queryClient, url, sources) => {
    const campuses = await sources.impactCampuses();
    queryClient.setQueryData(impactKeys.all, campuses);
    const campus = url.searchParams.get('campus')?.trim().toLowerCase() || campuses.defaultCampus.campus;
    const dashboard = await sources.impactDashboard(campus);
    queryClient.setQueryData(impactKeys.dashboard(campus), dashboard);
    const path = url.searchParams.has('campus') ? `/impact?campus=${encodeURIComponent(campus)}` : '/impact';
    return () => {
      const campusName = dashboard.campusName;
      return {
        title: t`${campusName} Impact`,
        meta: {
          path,
          type: 'website',
          description: t`What students at ${campusName} save by borrowing instead of buying.`,
        },
      };
    };
  },
};

/** The page a visitor's `pathname` (as pageKey gives it) shows, if the server renders it. */
function pageAt(key: string): Page | undefined {
  if (Object.hasOwn(pages, key)) return pages[key];
  if (key === '/impact') return impactPage;
  if (/^\/item\/[^/]+$/.test(key)) return itemPage;
  return undefined;
}

/** The page path as the router matches it: any case, trailing slashes ignored. */
function pageKey(pathname: string): string {
  return pathname.toLowerCase().replace(/\/+$/, '') || '/';
}

/** Whether `pathname` is a page the server renders for visitors. */
export function rendersPage(pathname: string): boolean {
  return pageAt(pageKey(pathname)) !== undefined;
}

/**
 * Renders `url` as a signed-out visitor sees it before any interaction. Undefined for a page it does
 * not render. Throws when data cannot be had or rendering fails: the caller then sends the plain shell
 * and the browser renders as it always did.
 */
export async function renderPage(
  url: URL,
  sources: PageSources,
  locale: Locale = DEFAULT_LOCALE,
): Promise<RenderedPage | MissingPage | undefined> {
  const page = pageAt(pageKey(url.pathname));
  if (!page) return undefined;
  const queryClient = createQueryClient();
  // Only called for requests without a session cookie: a visitor, for sure.
  queryClient.setQueryData(sessionKey, null);
  const loaded = await page.load(queryClient, url, sources);
  if (loaded === 'missing') {
    queryClient.clear();
    return { status: 404 };
  }
  const state = dehydrate(queryClient);

  const errors: unknown[] = [];
  // Waits for every lazy part (the page's chunk, Home's impact section) and, with no chunk size limit,
  // writes each in place: no streaming script, which the CSP would refuse anyway. The app has one
  // language at a time (lib/i18n.ts), so renders take turns: each in its visitor's language. The
  // page's title and what a shared link shows are worked out in the same turn, in the same language.
  const { html, title, meta } = await inTurn(async () => {
    await activateLocale(locale);
    const head = loaded?.() ?? {};
    const title = documentTitle(head.title ?? (page.title ? i18n._(page.title) : ''), i18n);
    const { prelude } = await prerender(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <QueryClientProvider client={queryClient}>
            <StaticRouter location={`${url.pathname}${url.search}`}>
              <AppRoutes />
            </StaticRouter>
          </QueryClientProvider>
        </I18nProvider>
      </StrictMode>,
      { progressiveChunkSize: Number.POSITIVE_INFINITY, onError: (error) => void errors.push(error) },
    );
    return { html: await new Response(prelude).text(), title, meta: head.meta };
  });
  if (errors.length > 0) throw errors[0];
  queryClient.clear();
  return {
    html,
    data: `<script type="application/json" id="${QUERY_STATE_ID}">${serializeState(state)}</script>`,
    title,
    modules: page.modules,
    meta,
  };
}

let turn: Promise<unknown> = Promise.resolve();

/** Runs `render` after every render before it has finished, so two never share the app's language. */
function inTurn<T>(render: () => Promise<T>): Promise<T> {
  const result = turn.then(render, render);
  turn = result.catch(() => undefined);
  return result;
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
