// Item photo URLs, shared by server and web. Kept apart from the zod schemas so that a page showing
// item cards does not load zod just to find a thumbnail (the Home page's first load).

/**
 * Spec §2 Item card: a card shows the small copy of an uploaded photo when there is one; so does an
 * avatar of an uploaded profile photo.
 */
export function thumbnailOf(url: string): string {
  return /\/uploads\/.+\.jpg$/.test(url) || /\/(?:items|avatars)\/.+\.jpg$/.test(url)
    ? url.replace(/\.jpg$/, '-thumb.jpg')
    : url;
}
