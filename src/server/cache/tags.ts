// The tags that name what a cached answer was built from (decision 016), as migration 0011's
// announcements name them. A module of its own: sessions (auth) and the caches both use them.

/** The tags of the catalogue's answers, as migration 0011's announcements name them. */
export const catalogueTags = {
  item: (id: string) => `item:${id}`,
  /** What a person's profile lists: their items, badges, reviews received, how many are available. */
  profile: (id: string) => `profile:${id}`,
  /** Every answer that shows a person: their profile, their items' pages, the reviews they wrote. */
  user: (id: string) => `user:${id}`,
  /** What a person's rating shows on: the "Listed by" card of their items' pages (migration 0014). */
  rating: (id: string) => `rating:${id}`,
  /** A list of one campus, or of every campus ('all'); every list also carries everyList. */
  list: (campus: string | undefined) => `list:${!campus || campus === 'all' ? '*' : campus}`,
  /** Carried by every list: a change to an owner's name or standing empties them all. */
  everyList: 'lists',
};

/** The tags a list for `campus` carries. */
export function listTags(campus: string | undefined): string[] {
  return [catalogueTags.list(campus), catalogueTags.everyList];
}
