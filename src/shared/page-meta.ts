// What a page rendered on the server says about itself beyond its markup: the web app's
// server entry (src/web/entry-server.tsx) works it out from the page's data, the server's renderer
// (src/server/composition/web-render.ts) writes it into the head as a canonical link and Open Graph tags,
// so a shared link shows the item's photo and price.

export interface PageMeta {
  /** The page's own address from the site's root ('/item/…'): the canonical link and og:url. */
  path: string;
  /** A sentence or two for og:description and the description meta tag. */
  description: string;
  /** 'product' for an item page. */
  type: 'website' | 'product';
  /** The photo a shared link shows (absolute, or from the site's root); also preloaded by the page. */
  image?: string;
  /** Its alternative text. */
  imageAlt?: string;
  /** An item's rental price in US dollars ('5.00'; '0.00' when free). */
  price?: string;
}
