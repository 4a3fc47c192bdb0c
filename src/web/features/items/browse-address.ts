import {
  CATEGORIES,
  type Category,
  ITEM_SORTS,
  type ItemSort,
  PICKUP_METHODS,
  type PickupMethod,
} from '#shared/constants.ts';

// Everything Browse shows is in its address (spec §2 Browse): the search words, campus, category, the
// filters and how many pages are loaded. Back and Forward step through what the student chose, a
// reload shows the same list, and a shared link opens on it. The server pre-renders the first view from
// the same address (entry-server.tsx). Only what differs from the defaults is written, so a plain
// /browse stays plain. Anything unreadable in an address (a hand-edited link) reads as the default.

/** What Browse lists, read from its address. `campus` is absent when the address names none. */
export interface BrowseChoice {
  search: string;
  campus?: string;
  category?: Category;
  freeOnly: boolean;
  /** Spec §2: on unless turned off. */
  availableNow: boolean;
  /** The max-price box's text as the address holds it ('' for no limit). */
  maxPrice: string;
  pickupMethod: PickupMethod | '';
  /** '' for the default order: a search's best matches first, any other list newest first. */
  sort: ItemSort | '';
  /** How many pages of results are shown (1 until 'Load more'). */
  pages: number;
}

/** A reload or a link asks for at most this many pages at once (12 each): a long list stays a list. */
export const MOST_PAGES_IN_ADDRESS = 10;

/** The address's names: short, readable in a shared link. */
const PARAM = {
  search: 'q',
  campus: 'campus',
  category: 'category',
  freeOnly: 'free',
  availableNow: 'available',
  maxPrice: 'max',
  pickupMethod: 'pickup',
  sort: 'sort',
  pages: 'page',
} as const;

/** `available=any` turns 'Available now' off (on is the default, so it is not written). */
const ANY_TIME = 'any';

const isCategory = (value: string | null): value is Category =>
  (CATEGORIES as readonly string[]).includes(value ?? '');
const isPickupMethod = (value: string | null): value is PickupMethod =>
  (PICKUP_METHODS as readonly string[]).includes(value ?? '');
const isSort = (value: string | null): value is ItemSort =>
  (ITEM_SORTS as readonly string[]).includes(value ?? '');

/** The max-price text as a filter: empty (or not a number of at least 0) means no limit. */
export function parseMaxPrice(text: string): number | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function readBrowseAddress(params: URLSearchParams): BrowseChoice {
  const category = params.get(PARAM.category);
  const pickup = params.get(PARAM.pickupMethod);
  const sort = params.get(PARAM.sort);
  const max = params.get(PARAM.maxPrice) ?? '';
  const pages = Number.parseInt(params.get(PARAM.pages) ?? '', 10);
  return {
    search: params.get(PARAM.search) ?? '',
    campus: params.get(PARAM.campus)?.trim().toLowerCase() || undefined,
    category: isCategory(category) ? category : undefined,
    freeOnly: params.get(PARAM.freeOnly) === '1',
    availableNow: params.get(PARAM.availableNow) !== ANY_TIME,
    maxPrice: parseMaxPrice(max) === undefined ? '' : max.trim(),
    pickupMethod: isPickupMethod(pickup) ? pickup : '',
    sort: isSort(sort) ? sort : '',
    pages: Number.isFinite(pages) ? Math.min(Math.max(pages, 1), MOST_PAGES_IN_ADDRESS) : 1,
  };
}

/** A change to what Browse lists; `undefined` for a key leaves it as it is. */
export type BrowseChange = Partial<Omit<BrowseChoice, 'category'>> & { category?: Category | null };

/**
 * The address after `change`. Any change but one of `pages` starts the list again from its first page:
 * the pages loaded belonged to the old list.
 */
export function writeBrowseAddress(previous: URLSearchParams, change: BrowseChange): URLSearchParams {
  const next = new URLSearchParams(previous);
  const put = (name: string, value: string | undefined) => {
    if (value) next.set(name, value);
    else next.delete(name);
  };
  if (change.search !== undefined) put(PARAM.search, change.search);
  if (change.campus !== undefined) put(PARAM.campus, change.campus);
  if (change.category !== undefined) put(PARAM.category, change.category ?? undefined);
  if (change.freeOnly !== undefined) put(PARAM.freeOnly, change.freeOnly ? '1' : undefined);
  if (change.availableNow !== undefined) put(PARAM.availableNow, change.availableNow ? undefined : ANY_TIME);
  if (change.maxPrice !== undefined) {
    put(PARAM.maxPrice, parseMaxPrice(change.maxPrice) === undefined ? undefined : change.maxPrice.trim());
  }
  if (change.pickupMethod !== undefined) put(PARAM.pickupMethod, change.pickupMethod);
  if (change.sort !== undefined) put(PARAM.sort, change.sort);
  const listChanged = Object.keys(change).some((key) => key !== 'pages');
  if (listChanged) next.delete(PARAM.pages);
  if (change.pages !== undefined) {
    put(PARAM.pages, change.pages > 1 ? String(Math.min(change.pages, MOST_PAGES_IN_ADDRESS)) : undefined);
  }
  return next;
}

/** 'Reset filters' in the panel: its own filters and the order. */
export const FILTERS_RESET: BrowseChange = {
  freeOnly: false,
  availableNow: true,
  maxPrice: '',
  pickupMethod: '',
  sort: '',
};

/** Spec §2 'Clear all filters': no search words, every category, free-only off, available-now on. */
export const CLEARED: BrowseChange = { ...FILTERS_RESET, search: '', category: null };

/** The address names of the typed boxes (search words, max price): written as typing pauses. */
export const TYPED_PARAMS = { search: PARAM.search, maxPrice: PARAM.maxPrice } as const;
