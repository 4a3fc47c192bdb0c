import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ItemList } from '#shared/schemas/items.ts';

// Pre-rendering of Home and Browse for signed-out visitors (issue 7): the web app's own components
// render the first view on the server (src/web/entry-server.tsx, built into dist/server), the page
// carries the data it was rendered from in a JSON data block, and the head hints the page's chunk. A
// phone then paints the real page when the HTML and the style sheet arrive instead of after all the
// script, and the browser hydrates it without fetching the list again.

/** What the web app's server entry offers (src/web/entry-server.tsx). */
interface RenderEntry {
  rendersPage(pathname: string): boolean;
  renderPage(
    url: URL,
    sources: { items(query: string): Promise<ItemList> },
  ): Promise<{ html: string; data: string; title: string; modules: string[] } | undefined>;
}

/** Vite's build manifest (dist/web/.vite/manifest.json), the parts used here. */
type Manifest = Record<string, { file: string; isEntry?: boolean; imports?: string[]; css?: string[] }>;

export interface PageRenderer {
  /** Whether the page at `pathname` is pre-rendered for visitors. */
  renders(pathname: string): boolean;
  /** The whole HTML document of a page as a signed-out visitor first sees it; undefined if not rendered. */
  render(url: URL): Promise<string | undefined>;
}

const ROOT = '<div id="root"></div>';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * `<link>` hints for the chunks (and their style sheets) a page's lazy modules need beyond the entry,
 * so they download beside the entry instead of after it has run.
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
    ...[...scripts].map((file) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">`),
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
 * The renderer for the built web app in `webDir`, or undefined when there is no server entry (a build
 * without it, or tests without a web app): every page is then the plain shell, rendered in the browser.
 */
export async function createPageRenderer(opts: {
  webDir: string;
  entry: string;
  /** GET /api/items's JSON for a query string, as the API answers it to a visitor. */
  itemListJson(query: string): Promise<string>;
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
  };

  return {
    renders: (pathname) => entry.rendersPage(pathname),
    async render(url) {
      const page = await entry.renderPage(url, sources);
      if (!page) return undefined;
      const pageHead = head
        .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
        .replace('</head>', `${preloadHints(manifest, page.modules)}</head>`);
      return `${pageHead}<div id="root">${page.html}</div>${page.data}${tail}`;
    },
  };
}
