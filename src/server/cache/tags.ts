// The tags that name what a cached answer was built from (decisions 016 and 049), as the database's
// announcements name them (migrations 0011 and cache_tags_by_category). A module of its own: sessions
// (auth) and the caches both use them.

/** A campus or a category a list is narrowed to, or '*' for a list of every one. */
const either = (value: string | undefined) => (!value || value === 'all' ? '*' : value);

/** The tags of the catalogue's answers, as the database's announcements name them. */
export const catalogueTags = {
  item: (id: string) => `item:${id}`,
  /** What a person's profile lists: their items, badges, reviews received, how many are available. */
  profile: (id: string) => `profile:${id}`,
  /** Every answer that shows a person: their profile, their items' pages, the reviews they wrote. */
  user: (id: string) => `user:${id}`,
  /** What a person's rating shows on: the "Listed by" card of their items' pages (migration 0014). */
  rating: (id: string) => `rating:${id}`,
  /**
   * The lists of one campus (or of every campus) and one category (or of every category). A change
   * announces `list:<campus>:<category>` for the item it touched; it reaches the four lists that can
   * show that item (listsShowing). A new listing announces `list:<campus>:<category>:new:<price>:<pickup>:<id>`:
   * of those four, it reaches only the lists whose filters it meets (admitsNewListing), and the first
   * pages of the newest-first ones take its card in place (decision 083).
   */
  list: (campus: string | undefined, category?: string) => `list:${either(campus)}:${either(category)}`,
  /** An item went out with a borrower or came back: it leaves or joins "available now". */
  availability: (id: string) => `availability:${id}`,
  /** Carried by every list and search: a change to an owner's name or standing empties them all. */
  everyList: 'lists',
  /** Carried by every page rendered for visitors (Home, Browse, an item): any list change reaches them. */
  renderedPages: 'pages',
  /** Carried by every search and its count: dropped together when items changed that no check covered. */
  everySearch: 'searches',
  /**
   * The searches for these words (as searchWordsOf reads them) on one campus (or every campus), whatever
   * their other filters: dropped when an item of that campus their words match changes
   * (features/items/searches-told.ts). Never announced by the database.
   */
  searchWords: (words: readonly string[], campus: string | undefined) =>
    `words:${either(campus)}:${words.join(' ')}`,
};

/** What a list is narrowed to besides its campus and category, as GET /api/items asks it. */
export interface ListFilters {
  campus?: string | undefined;
  category?: string | undefined;
  freeOnly?: boolean | undefined;
  /** In dollars, as asked. */
  maxPrice?: number | undefined;
  pickupMethod?: string | undefined;
}

/**
 * A list's narrowing by price or pickup, as a tag of its own: a new listing that fails it cannot enter
 * the list (admitsNewListing). Never announced.
 */
const ONLY = 'only:';

/**
 * The tags a list (no search words) carries: its campus and category, every list, and each filter a
 * new listing must meet to enter it.
 */
export function listTags(filters: ListFilters): string[] {
  return [
    catalogueTags.list(filters.campus, filters.category),
    catalogueTags.everyList,
    ...(filters.freeOnly ? [`${ONLY}free`] : []),
    ...(filters.maxPrice !== undefined ? [`${ONLY}max:${Math.round(filters.maxPrice * 100)}`] : []),
    ...(filters.pickupMethod ? [`${ONLY}pickup:${filters.pickupMethod}`] : []),
  ];
}

/** A new listing as its announcement tells it (migration 0054): what a list's price and pickup filters read. */
export interface NewListing {
  /** The listing's id; absent from an announcement of an earlier shape (migration 0054). */
  id?: string;
  /** Null for a free item (no price). */
  priceCents: number | null;
  pickupMethod: string;
}

/**
 * Whether a list with these tags could show the new listing: it meets every price and pickup filter
 * the list has (as filterConditions in features/items/queries.ts reads them: a free item is under any
 * price cap). "Available now" is not judged here: such a list is taken to show it.
 */
export function admitsNewListing(tags: readonly string[], listing: NewListing): boolean {
  const price = listing.priceCents ?? 0;
  return tags.every((tag) => {
    if (!tag.startsWith(ONLY)) return true;
    const filter = tag.slice(ONLY.length);
    if (filter === 'free') return price === 0;
    if (filter.startsWith('max:')) return price <= Number(filter.slice('max:'.length));
    if (filter.startsWith('pickup:')) return listing.pickupMethod === filter.slice('pickup:'.length);
    return true;
  });
}

/**
 * The new listing an announced list tag's parts after its campus and category tell (`new`, its price
 * in cents or nothing, its pickup, and its id since migration 0055), or undefined for any other shape.
 */
export function newListingOf(rest: readonly string[]): NewListing | undefined {
  const [kind, price, pickupMethod, id, ...more] = rest;
  if (kind !== 'new' || price === undefined || !pickupMethod || more.length || !/^\d*$/.test(price))
    return undefined;
  if (id !== undefined && !/^[0-9a-f-]{36}$/.test(id)) return undefined;
  return { priceCents: price === '' ? null : Number(price), pickupMethod, ...(id ? { id } : {}) };
}

/**
 * The tags of a search's answer (decisions 049 and 076): it is dropped when an item it shows changes,
 * goes out or comes back, or when an owner's name or standing changes; with `told` (its tag as a search
 * told of the items its words match), also when any item its words match changes, so a new listing it would now
 * find shows at once. Without them, a new listing shows when the answer expires. Emptying every search
 * at every new listing was the campus day's miss storm.
 */
export function searchTags(itemIds: readonly string[], told?: string): string[] {
  return [
    ...itemIds.flatMap((id) => [catalogueTags.item(id), catalogueTags.availability(id)]),
    catalogueTags.everyList,
    catalogueTags.everySearch,
    ...(told ? [told] : []),
  ];
}

/** The lists an announced `list:<campus>:<category>` reaches: its own, and those of every campus or category. */
export function listsShowing(campus: string, category: string): string[] {
  return [...new Set([campus, '*'])].flatMap((c) =>
    [...new Set([category, '*'])].map((k) => catalogueTags.list(c, k)),
  );
}
