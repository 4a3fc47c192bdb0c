import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createItem, createSignedInUser, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Issue 7: Home and Browse arrive rendered for a signed-out visitor (the web app's own server entry,
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
  }),
);
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

const t = setupTestApp({ webDir, webRenderEntry: path.resolve('src/web/entry-server.tsx') });

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
beforeAll(async () => {
  const lender = await createUser(t.database.db, { campus: 'stanford.edu' });
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
    // Spec §2: a visitor's Home lists every campus.
    expect(html).toContain(stanfordTitle);
    expect(html).toContain(berkeleyTitle);
    expect(html).toContain('<title>CampusLoop · Share. Save. Sustain.</title>');

    const state = embeddedState(html);
    const session = state.queries.find((q) => q.queryKey[0] === '/api/auth/me');
    expect(session?.state.data).toBeNull();
    const list = state.queries.find((q) => q.queryKey[0] === '/api/items');
    expect(list?.queryKey).toEqual(['/api/items', 'infinite', { campus: 'all', availableNow: true }, 8]);
    // The very answer the API gives to the query the browser would have sent.
    const api = await t.get('/api/items?campus=all&availableNow=true&page=1&limit=8');
    expect(list?.state.data).toEqual({ pages: [api.json()], pageParams: [1] });
  });

  it('is rendered once for many visitors, and again as soon as the catalogue changes', async () => {
    const first = await t.get('/browse?q=kayak');
    expect(first.body).toContain('Browse Items</h1>');
    expect(first.body).not.toContain('Visitor kayak');
    const lender = await createUser(t.database.db);
    // Written straight to the database, as another server or a job would: the announcement empties
    // the remembered page (read-caches.ts), which the 30 s time limit alone would keep.
    await createItem(t.database.db, { userId: lender.id, title: 'Visitor kayak' });
    await vi.waitFor(async () => expect((await t.get('/browse?q=kayak')).body).toContain('Visitor kayak'), {
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
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/browse-def.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/input-ghi.js">');
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
    for (const url of ['/about', '/item/00000000-0000-4000-8000-000000000000', '/no-such-page']) {
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
