import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { z } from 'zod';
import type { Category, ItemSort, PickupMethod } from '#shared/constants.ts';
import type { Item, ItemList, itemDetail } from '#shared/schemas/items.ts';
import { api } from '../../lib/api.ts';

// The items feature's public face: what other features may use of it (the list and item hooks, their
// cache keys, and the pieces of the item card others show). The rest of this folder is its own.
export { coverImage, PLACEHOLDER_IMAGE } from './components/item-card.tsx';
export { VerifiedMark } from './components/provider-card.tsx';

// Items (spec §7 GET /api/items, contract in src/shared/schemas/items.ts). List and search hooks
// live here; the item page's hooks (detail, create, update, delete) join this file and reuse
// `itemKeys`, so that a mutation's `invalidateQueries({ queryKey: itemKeys.all })` refreshes every
// list, grid and page at once (spec §7: after each mutation the item lists are refetched).

/** What the Home and Browse screens search by; campus 'all' (or none) means every campus. */
export interface ItemFilters {
  campus?: string;
  category?: Category;
  searchQuery?: string;
  availableNow?: boolean;
  freeOnly?: boolean;
  maxPrice?: number;
  pickupMethod?: PickupMethod;
  /** Without one: a search's best matches first, any other list newest first. */
  sort?: ItemSort;
  /** The list shows no count (Home): the server neither counts nor sends one. */
  skipTotal?: boolean;
}

/** A single page of a list: the filters plus paging (1-based page; the server's limit is 12 by default). */
export interface ItemListParams extends ItemFilters {
  page?: number;
  limit?: number;
}

export const itemKeys = {
  all: ['/api/items'] as const,
  /** One page of a list. */
  list: (params: ItemListParams) => [...itemKeys.all, cleanParams(params)] as const,
  /** Every page loaded so far of a 'Load more' list (a different cache shape from `list`). */
  infinite: (filters: ItemFilters, pageSize: number) =>
    [...itemKeys.all, 'infinite', cleanParams(filters), pageSize] as const,
  detail: (id: string) => [...itemKeys.all, id] as const,
};

/**
 * Spec §7: only truthy values are sent. Dropping the rest here also keeps cache keys stable:
 * `{ searchQuery: '' }` and `{}` are the same search.
 */
function cleanParams<T extends ItemListParams>(params: T): Partial<T> {
  const clean: Partial<T> = {};
  for (const [key, value] of Object.entries(params) as [keyof T, T[keyof T]][]) {
    const v = typeof value === 'string' ? value.trim() : value;
    if (v) clean[key] = v as T[keyof T];
  }
  return clean;
}

/** The query string for GET /api/items, with only the truthy values ('true' for flags). */
export function itemsQueryString(params: ItemListParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(cleanParams(params))) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

function fetchItems(params: ItemListParams): Promise<ItemList> {
  return api.get<ItemList>(`/api/items${itemsQueryString(params)}`);
}

/** One page of items matching the filters. */
export function useItems(params: ItemListParams = {}, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: itemKeys.list(params),
    queryFn: () => fetchItems(params),
    enabled: options.enabled ?? true,
  });
}

/**
 * The query behind `useInfiniteItems`. The server pre-renders a page's first list with the same key and
 * page shape, fetching through `fetch` (the items service instead of HTTP), so the browser finds it
 * in its cache and does not ask again.
 */
export function infiniteItemsQuery(
  filters: ItemFilters,
  pageSize: number,
  fetch: (params: ItemListParams) => Promise<ItemList> = fetchItems,
) {
  return infiniteQueryOptions({
    queryKey: itemKeys.infinite(filters, pageSize),
    queryFn: ({ pageParam }) => fetch({ ...filters, page: pageParam, limit: pageSize }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });
}

/**
 * A 'Load more' list: page 1 first, `fetchNextPage()` adds the next `pageSize` items. `items` is
 * every page so far in order, without repeats (a listing added between two loads shifts the
 * pages by one; its neighbour must not show twice); `total` is the server's count of matches (up to 1,000, then `totalCapped`).
 */
export function useInfiniteItems(
  filters: ItemFilters,
  pageSize: number,
  options: { enabled?: boolean } = {},
) {
  const query = useInfiniteQuery({
    ...infiniteItemsQuery(filters, pageSize),
    enabled: options.enabled ?? true,
  });
  const pages = query.data?.pages;
  const items = useMemo(() => uniqueItems(pages?.flatMap((p) => p.items) ?? []), [pages]);
  return { ...query, items, total: pages?.[0]?.total ?? 0, totalCapped: pages?.[0]?.totalCapped ?? false };
}

function uniqueItems(items: Item[]): Item[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (seen.has(item.id)) return false;
    seen.add(item.id);
    return true;
  });
}

export type ItemDetail = z.infer<typeof itemDetail>;

/** GET /api/items/{id}: the item (with its owner) and its reviews. */
export function useItem(id: string | undefined) {
  return useQuery({
    queryKey: itemKeys.detail(id ?? ''),
    queryFn: () => api.get<ItemDetail>(`/api/items/${encodeURIComponent(id ?? '')}`),
    enabled: Boolean(id),
  });
}
