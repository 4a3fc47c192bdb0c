import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import type { Locale } from '#shared/i18n.ts';
import type { PageMeta } from '#shared/page-meta.ts';
import type { ImpactCampuses, ImpactDashboard } from '#shared/schemas/impact.ts';
import type { ItemList, itemDetail } from '#shared/schemas/items.ts';
import { inLanguage } from './page-language.ts';

// Pre-rendering of Home and Browse, an item's page and Impact (decisions 010 and 027) for signed-out
// visitors: the web app's own components
// render the first view on the server (src/web/entry-server.tsx, built into dist/server), the page
// carries the data it was rendered from in a JSON data block, and the head hints the page's chunk. A
// phone then paints the real page when the HTML and the style sheet arrive instead of after all the
// script, and the browser hydrates it without fetching the list again.

/** What the web app's server entry offers (src/web/entry-server.tsx). */
interface RenderEntry {
  rendersPage(pathname: string): boolean;
  renderPage(
    url: URL,
    sources: {
      items(query: string): Promise<ItemList>;
      impactCampuses(): Promise<ImpactCampuses>;
      impactDashboard(campus: string): Promise<ImpactDashboard>;
      item(id: string): Promise<ItemDetail | undefined>;
    },
    locale?: Locale,
  ): Promise<
    | { html: string; data: string; title: string; modules: string[]; meta?: PageMeta }
    | { status: 404 }
    | undefined
  >;
}

type ItemDetail = z.infer<typeof itemDetail>;

/** Vite's build manifest (dist/web/.vite/manifest.json), the parts used here. */
type Manifest = Record<string, { file: string; isEntry?: boolean; imports?: string[]; css?: string[] }>;

export interface PageRenderer {
  /** Whether the page at `pathname` is pre-rendered for visitors. */
  renders(pathname: string): boolean;
  /**
   * The whole HTML document of a page as a signed-out visitor first sees it, and its status (404: an
   * item hidden or missing, sent as the shell the browser renders its 'not found' in); undefined if
   * not rendered.
   */
  render(url: URL, locale: Locale): Promise<{ status: 200 | 404; html: string } | undefined>;
}

const ROOT = '<div id="root"></div>';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * `<link>` hints for the chunks (and their style sheets) a page's lazy modules need beyond the entry,
 * so they download beside the entry instead of after it has run. At low priority: the pre-rendered page
 * can paint without them, and on a slow phone network the page's photo and the entry come first (the
 * item page's 25 hints at the default high priority held its first paint back by 0.8 s in Lighthouse).
 */
function preloadHints(manifest: Manifest, modules: readonly string[]): string {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || chunk.isEntry || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const module of modules) visit(module);
  return [
    ...[...styles].map((file) => `<link rel="stylesheet" crossorigin href="/${escapeHtml(file)}">`),
    ...[...scripts].map(
      (file) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}" fetchpriority="low">`,
    ),
  ].join('');
}

/**
 * The head with the app's style sheet written into it. A pre-rendered page can paint once its HTML is
 * in, not one more round trip later (on a phone network the longest wait of all); the CSP allows
 * inline styles, never inline script. The pages the browser renders keep the cached file.
 */
function inlineStyles(head: string, webDir: string): string {
  return head.replace(/<link rel="stylesheet"[^>]* href="\/(assets\/[^"]+\.css)">/g, (link, file: string) => {
    const css = readFileSync(path.join(webDir, file), 'utf8');
    return /<\/style/i.test(css) ? link : `<style>${css}</style>`;
  });
}

/**
 * The head tags that make a shared link a card with the page's photo and price (Open Graph, read by
 * chat apps and social sites; Twitter's card falls back to them), the canonical address, and a hint
 * that fetches the photo the page opens with beside the script, at high priority.
 */
export function metaTags(meta: PageMeta, title: string, appUrl: string): string {
  const absolute = (href: string) => new URL(href, `${appUrl}/`).href;
  const url = absolute(meta.path);
  const property = (name: string, content: string) =>
    `<meta property="${name}" content="${escapeHtml(content)}">`;
  const tags = [
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    property('og:type', meta.type),
    property('og:site_name', 'CampusLoop'),
    property('og:title', title),
    property('og:description', meta.description),
    property('og:url', url),
  ];
  if (meta.image) {
    tags.push(property('og:image', absolute(meta.image)));
    if (meta.imageAlt) tags.push(property('og:image:alt', meta.imageAlt));
    tags.push('<meta name="twitter:card" content="summary_large_image">');
    tags.push(`<link rel="preload" as="image" href="${escapeHtml(meta.image)}" fetchpriority="high">`);
  }
  if (meta.price !== undefined) {
    tags.push(property('product:price:amount', meta.price), property('product:price:currency', 'USD'));
  }
  return tags.join('');
}

/**
 * The renderer for the built web app in `webDir`, or undefined when there is no server entry (a build
 * without it, or tests without a web app): every page is then the plain shell, rendered in the browser.
 */
export async function createPageRenderer(opts: {
  webDir: string;
  entry: string;
  /** GET /api/items's JSON for a query string, as the API answers it to a visitor. */
  itemListJson(query: string): Promise<string>;
  /** GET /api/impact's answer: which campus a visitor's Home shows. */
  impactCampuses(): Promise<ImpactCampuses>;
  /** GET /api/impact/{campus}/dashboard's answer, its words in the page's language. */
  impactDashboard(campus: string, locale: Locale): Promise<ImpactDashboard>;
  /** GET /api/items/{id}'s JSON as a visitor gets it; undefined for the API's 404. */
  itemJson(id: string): Promise<string | undefined>;
  /** The site's public address (APP_URL), for the canonical link and Open Graph tags. */
  appUrl: string;
}): Promise<PageRenderer | undefined> {
  const indexFile = path.join(opts.webDir, 'index.html');
  if (!existsSync(opts.entry) || !existsSync(indexFile)) return undefined;
  const template = readFileSync(indexFile, 'utf8');
  const at = template.indexOf(ROOT);
  if (at < 0) return undefined;
  const manifestFile = path.join(opts.webDir, '.vite', 'manifest.json');
  const manifest: Manifest = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : {};
  const entry = (await import(pathToFileURL(opts.entry).href)) as RenderEntry;
  const head = inlineStyles(template.slice(0, at), opts.webDir);
  const tail = template.slice(at + ROOT.length);
  const sources = {
    items: async (query: string) => JSON.parse(await opts.itemListJson(query)) as ItemList,
    impactCampuses: () => opts.impactCampuses(),
    item: async (id: string) => {
      const json = await opts.itemJson(id);
      return json === undefined ? undefined : (JSON.parse(json) as ItemDetail);
    },
  };
  const appUrl = opts.appUrl.replace(/\/+$/, '');
  // The shell as a missing page's answer: the browser renders its 'not found'; search engines drop it.
  const missingPage = template.replace('</head>', '<meta name="robots" content="noindex"></head>');

  return {
    renders: (pathname) => entry.rendersPage(pathname),
    async render(url, locale) {
      const inPageLanguage = {
        ...sources,
        impactDashboard: (campus: string) => opts.impactDashboard(campus, locale),
      };
      const page = await entry.renderPage(url, inPageLanguage, locale);
      if (!page) return undefined;
      if ('status' in page) return { status: 404, html: inLanguage(missingPage, locale) };
      const meta = page.meta ? metaTags(page.meta, page.title, appUrl) : '';
      const pageHead = head
        .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`)
        .replace('</head>', () => `${meta}${preloadHints(manifest, page.modules)}</head>`);
      const html = `${pageHead}<div id="root">${page.html}</div>${page.data}${tail}`;
      // The page wrote its own title and description in its language; only <html lang> is left.
      return { status: 200, html: inLanguage(html, locale, { head: !page.meta }) };
    },
  };
}
