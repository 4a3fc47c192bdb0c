import { CATEGORIES } from '#shared/constants.ts';
import type { Fixtures } from '../fixtures.ts';
import { type LoadResult, type RequestSpec, runLoad } from '../load.ts';
import { BENCH_PASSWORD } from '../seed.ts';

// The HTTP scenarios: the requests the web app makes, as it makes them (same query strings, the
// signed-in person's cookie), rotating over many ids, queries and people so no answer is a repeat.

/** Which page-speed budget a scenario is held to (share of the bare-Fastify baseline). */
export type BudgetGroup = 'list' | 'search' | 'detail' | 'poll';

export interface HttpScenario {
  name: string;
  title: string;
  budget?: BudgetGroup;
  /** Fewer connections than the run's default (login is deliberately slow). */
  connections?: number;
  request(n: number, fixtures: Fixtures, origin: string): RequestSpec;
  /** Checks one answer before the load starts: an empty or wrong answer would measure nothing. */
  check(body: unknown): string | undefined;
}

/** Real searches, typos included ("drll" must still find the drill). */
export const SEARCH_QUERIES = [
  'drill',
  'calculator',
  'tent',
  'camera',
  'organic chemistry',
  'rice cooker',
  'blazer',
  'mini fridge',
  'headphones',
  'drll',
  'calculater',
  'projecter',
  'guitr',
  'microscpe',
  'sewing machne',
];

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

/** Home and Browse ask the same endpoint; only truthy values are sent, in the web app's order. */
export function itemsPath(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, String(value));
  return `/api/items?${search}`;
}

const hasItems = (body: unknown) => {
  const list = body as { items?: unknown[]; total?: number };
  if (!Array.isArray(list.items)) return 'no items array';
  if (list.items.length === 0) return 'no items found';
  return undefined;
};

const listScenario = (
  name: string,
  title: string,
  params: (n: number, f: Fixtures) => Record<string, string | number | boolean | undefined>,
): HttpScenario => ({
  name,
  title,
  budget: 'list',
  request: (n, f) => ({
    path: itemsPath({ campus: 'all', ...params(n, f), availableNow: true, page: 1, limit: 12 }),
  }),
  check: hasItems,
});

export const HTTP_SCENARIOS: HttpScenario[] = [
  {
    name: 'home',
    title: 'Home: 8 newest available',
    budget: 'list',
    // A visitor sees every campus, a student their own (spec §2).
    request: (n, f) => ({
      path: itemsPath({
        campus: n % 2 ? pick(f.campuses, n >> 1) : 'all',
        availableNow: true,
        // Home shows no count, and asks for none (decision 049).
        skipTotal: true,
        page: 1,
        limit: 8,
      }),
    }),
    check: hasItems,
  },
  listScenario('browse', 'Browse, no query', () => ({})),
  {
    name: 'search',
    title: `Search (${SEARCH_QUERIES.length} queries, typos too)`,
    budget: 'search',
    request: (n) => ({
      path: itemsPath({
        campus: 'all',
        searchQuery: pick(SEARCH_QUERIES, n),
        availableNow: true,
        page: 1,
        limit: 12,
      }),
    }),
    // Some searches rightly find nothing available today (weekday-only items on a Sunday); the run
    // checks that most queries, typos included, do find items.
    check: (body) => (Array.isArray((body as { items?: unknown }).items) ? undefined : 'no items array'),
  },
  listScenario('filter-category', 'Filter: category', (n) => ({ category: pick(CATEGORIES, n) })),
  listScenario('filter-free', 'Filter: free only', () => ({ freeOnly: true })),
  listScenario('filter-max-price', 'Filter: max price $5', () => ({ maxPrice: 5 })),
  listScenario('filter-pickup', 'Filter: locker pickup', () => ({ pickupMethod: 'locker' })),
  {
    // Browse with "Available now" switched off: every live listing.
    name: 'filter-all-items',
    title: 'Filter: available now off',
    budget: 'list',
    request: () => ({ path: itemsPath({ campus: 'all', page: 1, limit: 12 }) }),
    check: hasItems,
  },
  {
    name: 'item-detail',
    title: 'Item detail',
    budget: 'detail',
    request: (n, f) => ({ path: `/api/items/${pick(f.itemIds, n)}` }),
    check: (body) => ((body as { item?: { id?: string } }).item?.id ? undefined : 'no item'),
  },
  {
    name: 'profile',
    title: 'Profile',
    request: (n, f) => ({ path: `/api/users/${pick(f.profileIds, n)}` }),
    check: (body) => ((body as { items?: unknown[] }).items?.length ? undefined : 'profile without items'),
  },
  {
    name: 'notifications-unread',
    title: 'Notifications unread poll (signed in)',
    budget: 'poll',
    request: (n, f) => ({ path: '/api/notifications/unread', headers: { cookie: pick(f.people, n).cookie } }),
    check: (body) =>
      Array.isArray((body as { notifications?: unknown }).notifications) ? undefined : 'no list',
  },
  {
    name: 'chat-unread',
    title: 'Chat unread-count poll (signed in)',
    budget: 'poll',
    request: (n, f) => ({
      path: '/api/conversations/unread-count',
      headers: { cookie: pick(f.people, n).cookie },
    }),
    check: (body) => (typeof (body as { count?: unknown }).count === 'number' ? undefined : 'no count'),
  },
  {
    name: 'login',
    title: 'Sign in (argon2id, deliberately slow)',
    connections: 8,
    request: (n, f, origin) => ({
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: pick(f.loginEmails, n), password: BENCH_PASSWORD }),
    }),
    check: (body) => ((body as { user?: { id?: string } }).user?.id ? undefined : 'not signed in'),
  },
];

/** One request of the scenario through fetch, checked; throws with the answer when it is wrong. */
export async function preflight(
  scenario: HttpScenario,
  url: string,
  fixtures: Fixtures,
  n = 0,
): Promise<unknown> {
  const spec = scenario.request(n, fixtures, url);
  const response = await fetch(`${url}${spec.path}`, {
    method: spec.method ?? 'GET',
    headers: { accept: 'application/json', ...spec.headers },
    body: spec.body,
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`${scenario.name}: ${spec.path} answered ${response.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as unknown;
  const problem = scenario.check(body);
  if (problem) throw new Error(`${scenario.name}: ${spec.path}: ${problem}`);
  return body;
}

/**
 * Every search query through preflight (as measured, available today only), then once more over every
 * listing: throws unless most of them find items in the catalogue, typos included. Whether a query
 * finds something available today depends on the weekday on a small campus (weekday-only and weekend
 * items), whether it finds the catalogue's drills and tents at all does not.
 */
export async function preflightSearch(
  scenario: HttpScenario,
  url: string,
  fixtures: Fixtures,
): Promise<number> {
  let found = 0;
  const missed: string[] = [];
  for (let n = 0; n < SEARCH_QUERIES.length; n++) {
    await preflight(scenario, url, fixtures, n);
    const everyListing = itemsPath({ campus: 'all', searchQuery: pick(SEARCH_QUERIES, n), limit: 12 });
    const response = await fetch(`${url}${everyListing}`, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`search: ${everyListing} answered ${response.status}`);
    const body = (await response.json()) as { items: unknown[] };
    if (body.items.length) found++;
    else missed.push(pick(SEARCH_QUERIES, n));
  }
  if (found < SEARCH_QUERIES.length * 0.7) {
    throw new Error(
      `search: only ${found} of ${SEARCH_QUERIES.length} queries found items (none for ${missed.join(', ')})`,
    );
  }
  return found;
}

/**
 * One scenario: checked answers first, then a warm-up (JIT, the embedded database's WebAssembly tiers,
 * caches), then the measured run. Between the two, one more request waits behind whatever the warm-up
 * left queued in the server, so the measured window starts on an idle server.
 */
export async function runHttpScenario(
  scenario: HttpScenario,
  options: { url: string; fixtures: Fixtures; connections: number; seconds: number; warmupSeconds: number },
): Promise<LoadResult> {
  const { url, fixtures } = options;
  if (scenario.name === 'search') await preflightSearch(scenario, url, fixtures);
  else for (let n = 0; n < 3; n++) await preflight(scenario, url, fixtures, n);
  const connections = scenario.connections ?? options.connections;
  const request = (n: number) => scenario.request(n, fixtures, url);
  if (options.warmupSeconds > 0) {
    await runLoad({ url, connections, seconds: options.warmupSeconds, request });
    await preflight(scenario, url, fixtures);
  }
  return runLoad({ url, connections, seconds: options.seconds, request });
}
