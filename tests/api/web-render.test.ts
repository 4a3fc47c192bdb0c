import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createItem, createSignedInUser, createUser, suspend } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Home and Browse arrive rendered for a signed-out visitor (the web app's own server entry,
// src/web/entry-server.tsx, loaded here from source), with the list they show as JSON data so the
// browser does not fetch it again, the styles inline and the page's chunks hinted. A signed-in person
// gets the shell (their own page is rendered in the browser), never a visitor's data.

const webDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-web-'));
const CSS = '.campusloop-test-style{color:green}';
mkdirSync(path.join(webDir, 'assets'), { recursive: true });
mkdirSync(path.join(webDir, '.vite'), { recursive: true });
writeFileSync(
  path.join(webDir, 'index.html'),
  `<!doctype html>
<html lang="en">
  <head>
    <title>CampusLoop · Share. Save. Sustain.</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`,
);
writeFileSync(path.join(webDir, 'assets', 'index-abc.css'), CSS);
writeFileSync(path.join(webDir, 'assets', 'index-abc.js'), 'export {};');
writeFileSync(
  path.join(webDir, '.vite', 'manifest.json'),
  JSON.stringify({
    'index.html': { file: 'assets/index-abc.js', isEntry: true, css: ['assets/index-abc.css'] },
    'routes/browse.tsx': {
      file: 'assets/browse-def.js',
      isDynamicEntry: true,
      imports: ['index.html', '_input.js'],
    },
    '_input.js': { file: 'assets/input-ghi.js', imports: ['index.html'] },
    'routes/item-detail.tsx': {
      file: 'assets/item-detail-jkl.js',
      isDynamicEntry: true,
      imports: ['index.html'],
    },
    'routes/impact.tsx': { file: 'assets/impact-mno.js', isDynamicEntry: true, imports: ['index.html'] },
  }),
);
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

const t = setupTestApp({
  webDir,
  webRenderEntry: path.resolve('src/web/entry-server.tsx'),
  appUrl: 'https://campusloop.example.edu',
});

const EVIL_TITLE = 'Lamp </script><script>alert(1)</script> <!-- & more';

/** The JSON data block of a page, parsed. */
function embeddedState(html: string) {
  const match = /<script type="application\/json" id="cl-query-state">([^<]*)<\/script>/.exec(html);
  expect(match, 'the page carries its data').toBeTruthy();
  return JSON.parse(match![1]!) as {
    queries: { queryKey: unknown[]; state: { data: unknown } }[];
  };
}

/** Every <script> start tag of a page. */
const scriptTags = (html: string) => html.match(/<script\b[^>]*>/g) ?? [];

let berkeleyTitle: string;
let stanfordTitle: string;
let lender: Awaited<ReturnType<typeof createUser>>;
beforeAll(async () => {
  lender = await createUser(t.database.db, { campus: 'stanford.edu' });
  stanfordTitle = 'Stanford tent for four';
  await createItem(t.database.db, { userId: lender.id, title: stanfordTitle });
  await createItem(t.database.db, { userId: lender.id, title: EVIL_TITLE, category: 'electronics' });
  const other = await createUser(t.database.db, { campus: 'berkeley.edu' });
  berkeleyTitle = 'Berkeley bread maker';
  await createItem(t.database.db, { userId: other.id, campus: 'berkeley.edu', title: berkeleyTitle });
});

describe('pre-rendered pages for visitors', () => {
  it('sends Home rendered, with the list it shows as data the browser reuses', async () => {
    const response = await t.get('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    const html = response.body;
    expect(html).toContain('Borrow what you need, lend what you');
    expect(html).toContain('Available Near You');
    // Decision 025: a visitor's Home shows one campus, the one its figures are of (with no
    // borrows anywhere yet, the demo campus).
    expect(html).toContain(stanfordTitle);
    expect(html).not.toContain(berkeleyTitle);
    expect(html).toContain('Ready to borrow at Stanford University');
    expect(html).toContain('<title>CampusLoop · Share. Save. Sustain.</title>');

    const state = embeddedState(html);
    const session = state.queries.find((q) => q.queryKey[0] === '/api/auth/me');
    expect(session?.state.data).toBeNull();
    const campuses = state.queries.find((q) => q.queryKey.length === 1 && q.queryKey[0] === '/api/impact');
    expect(campuses?.state.data).toEqual((await t.get('/api/impact')).json());
    const list = state.queries.find((q) => q.queryKey[0] === '/api/items');
    expect(list?.queryKey).toEqual([
      '/api/items',
      'infinite',
      { campus: 'stanford.edu', availableNow: true, skipTotal: true },
      8,
    ]);
    // The very answer the API gives to the query the browser would have sent.
    const api = await t.get('/api/items?campus=stanford.edu&availableNow=true&skipTotal=true&page=1&limit=8');
    expect(list?.state.data).toEqual({ pages: [api.json()], pageParams: [1] });
  });

  it('is rendered once for many visitors, and again as soon as the catalogue changes', async () => {
    // Browse without search words: a search is left to its time limit (decision 049).
    const first = await t.get('/browse');
    expect(first.body).toContain('Browse Items</h1>');
    expect(first.body).not.toContain('Visitor kayak');
    const lender = await createUser(t.database.db);
    // Written straight to the database, as another server or a job would: the announcement empties
    // the remembered page (read-caches.ts), which the 30 s time limit alone would keep.
    await createItem(t.database.db, { userId: lender.id, title: 'Visitor kayak' });
    await vi.waitFor(async () => expect((await t.get('/browse')).body).toContain('Visitor kayak'), {
      timeout: 2000,
      interval: 25,
    });
  });

  it('sends Browse rendered with its search, its title, and hints for its chunks', async () => {
    const response = await t.get('/browse?q=tent');
    const html = response.body;
    expect(html).toContain('Browse Items</h1>');
    expect(html).toContain('<title>Browse Items · CampusLoop</title>');
    expect(html).toContain(stanfordTitle);
    expect(html).not.toContain(berkeleyTitle);
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/browse-def.js" fetchpriority="low">',
    );
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/input-ghi.js" fetchpriority="low">',
    );
    // The entry is already in the page; it is not hinted twice.
    expect(html.match(/index-abc\.js/g)).toHaveLength(1);
    const list = embeddedState(html).queries.find((q) => q.queryKey[0] === '/api/items');
    expect(list?.queryKey).toEqual([
      '/api/items',
      'infinite',
      { campus: 'all', searchQuery: 'tent', availableNow: true },
      12,
    ]);
    // The photos of the cards in view are fetched at once, not when layout finds them.
    expect(html).toMatch(
      /<img [^>]*loading="eager"[^>]*fetchPriority="high"|<img [^>]*fetchpriority="high"/i,
    );
  });

  it('writes the style sheet inline and no script but the app and data, under the same CSP', async () => {
    const response = await t.get('/');
    const html = response.body;
    expect(html).toContain(`<style>${CSS}</style>`);
    expect(html).not.toContain('href="/assets/index-abc.css"');
    expect(scriptTags(html)).toEqual([
      '<script type="module" crossorigin src="/assets/index-abc.js">',
      '<script type="application/json" id="cl-query-state">',
    ]);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('keeps listing text from ending the data block or adding markup', async () => {
    const response = await t.get('/browse?q=lamp');
    const html = response.body;
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(scriptTags(html)).toHaveLength(2);
    const list = embeddedState(html).queries.find((q) => q.queryKey[0] === '/api/items');
    const data = list!.state.data as { pages: { items: { title: string }[] }[] };
    const titles = data.pages[0]!.items.map((item) => item.title);
    expect(titles).toEqual([EVIL_TITLE]);
  });

  it('is never stored by a shared cache, and varies with the session cookie', async () => {
    const response = await t.get('/browse');
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(String(response.headers.vary)).toMatch(/Cookie/);
  });

  it('sends a signed-in person the shell, without any visitor data', async () => {
    const { cookie } = await createSignedInUser(t.database.db, { campus: 'berkeley.edu' });
    for (const url of ['/', '/browse']) {
      const response = await t.get(url, cookie);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root"></div>');
      expect(response.body).not.toContain('cl-query-state');
      expect(response.body).not.toContain(stanfordTitle);
      expect(response.headers['cache-control']).toBe('private, no-cache');
    }
  });

  it('sends the shell for pages it does not pre-render', async () => {
    for (const url of ['/about', '/no-such-page']) {
      const response = await t.get(url);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root"></div>');
      expect(response.body).not.toContain('cl-query-state');
    }
  });

  it('sends the shell when the page cannot be rendered (a search the API refuses)', async () => {
    const response = await t.get(`/browse?q=${'x'.repeat(300)}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('compresses a rendered page as the browser accepts', async () => {
    const response = await t.request({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(response.headers['content-encoding']).toBe('br');
    const gzip = await t.request({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });

  it('does not serve the build manifest', async () => {
    const response = await t.get('/.vite/manifest.json');
    expect(response.body).not.toContain('browse-def.js');
  });
});

/** The content of the head's `<meta property="…">` tag. */
const property = (html: string, name: string) =>
  new RegExp(`<meta property="${name}" content="([^"]*)">`).exec(html)?.[1];

describe('the item page for visitors', () => {
  it('arrives with its title, price and photo in the HTML, before any script runs', async () => {
    const item = await createItem(t.database.db, {
      userId: lender.id,
      title: 'Rendered camping lantern',
      description: 'A bright lantern with a USB charger.\nLasts three nights.',
      rentalPriceCents: 450,
      rentalPeriod: 'day',
      depositCents: 2000,
      images: ['/uploads/items/lantern.jpg', '/uploads/items/lantern-2.jpg'],
    });
    const response = await t.get(`/item/${item.id}`);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    const body = html.slice(html.indexOf('<div id="root">'));
    expect(body).toMatch(/<h1[^>]*>Rendered camping lantern<\/h1>/);
    expect(body).toContain('$4.50 / day');
    expect(body).toContain('$20.00 refundable deposit');
    expect(body).toMatch(/<img [^>]*src="\/uploads\/items\/lantern.jpg"/);
    expect(html).toContain('<title>Rendered camping lantern · CampusLoop</title>');
    // The page's chunk is hinted, the cover photo preloaded at high priority.
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/item-detail-jkl.js" fetchpriority="low">',
    );
    expect(html).toContain(
      '<link rel="preload" as="image" href="/uploads/items/lantern.jpg" fetchpriority="high">',
    );
    // The data the page shows, as the API answers it: the browser does not fetch it again.
    const detail = embeddedState(html).queries.find((q) => q.queryKey[0] === '/api/items');
    expect(detail?.queryKey).toEqual(['/api/items', item.id]);
    expect(detail?.state.data).toEqual((await t.get(`/api/items/${item.id}`)).json());
  });

  it('has a canonical address and Open Graph tags, so a shared link shows its photo and price', async () => {
    const item = await createItem(t.database.db, {
      userId: lender.id,
      title: 'Shared "best" kayak & paddle',
      description: 'Two-person kayak.',
      rentalPriceCents: 1500,
      rentalPeriod: 'week',
      images: ['https://photos.campusloop.app/items/kayak.jpg'],
    });
    const { body: html } = await t.get(`/item/${item.id}`);
    const url = `https://campusloop.example.edu/item/${item.id}`;
    expect(html).toContain(`<link rel="canonical" href="${url}">`);
    expect(property(html, 'og:url')).toBe(url);
    expect(property(html, 'og:type')).toBe('product');
    expect(property(html, 'og:title')).toBe('Shared &quot;best&quot; kayak &amp; paddle · CampusLoop');
    expect(property(html, 'og:image')).toBe('https://photos.campusloop.app/items/kayak.jpg');
    expect(property(html, 'og:description')).toBe('$15.00 / week. Two-person kayak.');
    expect(property(html, 'product:price:amount')).toBe('15.00');
    expect(property(html, 'product:price:currency')).toBe('USD');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
  });

  it('makes a photo from this server an absolute address, and escapes listing text in the tags', async () => {
    const item = await createItem(t.database.db, {
      userId: lender.id,
      title: EVIL_TITLE,
      images: ['/uploads/items/evil.jpg'],
    });
    const { body: html } = await t.get(`/item/${item.id}`);
    expect(property(html, 'og:image')).toBe('https://campusloop.example.edu/uploads/items/evil.jpg');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(scriptTags(html)).toHaveLength(2);
    expect(property(html, 'og:title')).toContain('Lamp &lt;/script&gt;&lt;script&gt;');
    // A free item says so.
    expect(property(html, 'og:description')).toMatch(/^Free to borrow\./);
  });

  it('answers 404 for an item that is missing, hidden, or of a suspended owner', async () => {
    const hidden = await createItem(t.database.db, {
      userId: lender.id,
      title: 'Hidden rendered drill',
      hiddenAt: new Date(),
    });
    const suspended = await createUser(t.database.db);
    const ofSuspended = await createItem(t.database.db, { userId: suspended.id, title: 'Suspended drill' });
    await suspend(t.database.db, suspended.id);
    for (const url of [
      '/item/00000000-0000-4000-8000-000000000000',
      '/item/not-an-id',
      `/item/${hidden.id}`,
      `/item/${ofSuspended.id}`,
    ]) {
      const response = await t.get(url);
      expect(response.statusCode, url).toBe(404);
      // The shell: the browser shows its 'Item not found' page; search engines drop the address.
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root"></div>');
      expect(response.body).toContain('<meta name="robots" content="noindex">');
      expect(response.body).not.toContain('Hidden rendered drill');
      expect(response.body).not.toContain('og:title');
    }
    // Its owner, signed in, still opens the hidden one (the page is rendered in their browser).
    const { cookie } = await createSignedInUser(t.database.db);
    const own = await t.get(`/item/${hidden.id}`, cookie);
    expect(own.statusCode).toBe(200);
  });
});

describe('the impact page for visitors', () => {
  it('arrives rendered with the default campus and the figures it shows', async () => {
    const response = await t.get('/impact');
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain('Campus Impact Dashboard</h1>');
    expect(html).toContain('<title>Stanford University Impact · CampusLoop</title>');
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/impact-mno.js" fetchpriority="low">',
    );
    const dashboard = embeddedState(html).queries.find(
      (q) => q.queryKey[0] === '/api/impact' && q.queryKey[2] === 'dashboard',
    );
    expect(dashboard?.queryKey).toEqual(['/api/impact', 'stanford.edu', 'dashboard']);
    expect(dashboard?.state.data).toEqual((await t.get('/api/impact/stanford.edu/dashboard')).json());
    expect(html).toContain('<link rel="canonical" href="https://campusloop.example.edu/impact">');
  });
});

describe("pages in the reader's language", () => {
  const page = (url: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url, headers });

  it("writes a visitor's page in the browser's language, and says so", async () => {
    const spanish = await page('/', { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' });
    expect(spanish.statusCode).toBe(200);
    expect(spanish.body).toContain('<html lang="es"');
    expect(spanish.headers['content-language']).toBe('es');
    expect(String(spanish.headers.vary)).toMatch(/Accept-Language/);
    // The app's own words, rendered by its components in Spanish: the footer's language switch.
    expect(spanish.body).toContain('Idioma');
    expect(spanish.body).not.toContain('>Language<');

    // The same address for an English browser is its own page, not the Spanish one remembered.
    const english = await page('/', { 'accept-language': 'en-US,en;q=0.9' });
    expect(english.body).toContain('<html lang="en"');
    expect(english.body).toContain('>Language<');
    expect(english.headers['content-language']).toBe('en');
  });

  it("lets the chosen language (the switch's cookie) win over the browser's", async () => {
    const chosen = await page('/browse', { 'accept-language': 'es', cookie: 'campusloop_lang=en' });
    expect(chosen.body).toContain('<html lang="en"');
    const chosenSpanish = await page('/about', { cookie: 'campusloop_lang=es' });
    expect(chosenSpanish.body).toContain('<html lang="es"');
    // Not one of ours: the browser's language decides.
    const unknown = await page('/about', { 'accept-language': 'es', cookie: 'campusloop_lang=fr' });
    expect(unknown.body).toContain('<html lang="es"');
  });

  it("gives a signed-in person the shell in their account's language", async () => {
    const { cookie } = await createSignedInUser(t.database.db, { locale: 'es' });
    const shell = await t.request({
      method: 'GET',
      url: '/browse',
      cookie,
      headers: { 'accept-language': 'en' },
    });
    expect(shell.body).toContain('<html lang="es"');
    expect(shell.body).toContain('<div id="root"></div>');
  });
});
