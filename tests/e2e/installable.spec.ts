import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.ts';
import { expectAccessible, journeySteps, setupBrowser, signIn } from './helpers.ts';

const b = setupBrowser();

// The installable app: Chromium's own installability check, and the service worker's offline
// page with what the signed-in person last saw, never what someone who signed out saw.
//
// Lighthouse 12 has no PWA category any more (it was removed in v12), so the checks it made are made
// here: Chromium's installability errors (DevTools' Page.getInstallabilityErrors, the check behind the
// install button), the manifest's fields and icons, a worker that controls the page and answers
// navigations (the offline reload), start_url inside the scope.

/** The worker controls the page (it was installed and claimed the page, or was there already). */
async function waitForWorker(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, {
    timeout: 30_000,
  });
}

/** The offline snapshot as the worker will read it (pwa/offline-snapshot.ts), or null. */
function readSnapshot(page: Page) {
  return page.evaluate(async () => {
    const cache = await caches.open('campusloop-offline-v1');
    const response = await cache.match('/__offline/snapshot.json');
    return response
      ? ((await response.json()) as {
          user: { id: string; fullName: string };
          reservations?: { list: { itemTitle: string; pickupCode: string | null }[] };
          conversations?: { list: { itemTitle: string | null; lastMessage: string | null }[] };
        })
      : null;
  });
}

async function waitForSnapshot(
  page: Page,
  test: (snapshot: Awaited<ReturnType<typeof readSnapshot>>) => boolean,
) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const snapshot = await readSnapshot(page);
    if (test(snapshot)) return snapshot;
    if (Date.now() > deadline)
      throw new Error(`the offline snapshot never matched: ${JSON.stringify(snapshot)}`);
    await page.waitForTimeout(100);
  }
}

/** A calendar day `n` days from today (far enough ahead for any campus time zone). */
function day(n: number): string {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

async function post(page: Page, path: string, data: unknown) {
  const response = await page.request.post(path, { headers: { origin: b.baseURL }, data });
  expect(response.status(), `POST ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** PNG width and height from its header. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('the installable app', () => {
  journeySteps();
  let borrower: Page;
  let lender: Page;
  let title: string;
  let pickupCode: string;
  let message: string;

  // The borrower's browser has a profile of its own: Chromium does not offer to install an app from a
  // private (incognito-like) context, which is what a new context is.
  let profile: BrowserContext;
  const profileDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-pwa-'));

  beforeAll(async () => {
    profile = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      baseURL: b.baseURL,
      viewport: { width: 375, height: 812 },
    });
    borrower = profile.pages()[0] ?? (await profile.newPage());
    borrower.on('pageerror', (error) => {
      throw error;
    });
    lender = await b.newPage();
  });
  afterAll(async () => {
    await profile?.close();
    rmSync(profileDir, { recursive: true, force: true });
  });

  it('meets Chromium’s install criteria: manifest, icons, a worker that controls the page', async () => {
    await borrower.goto('/');
    await waitForWorker(borrower);

    const manifestResponse = await borrower.request.get('/manifest.webmanifest');
    expect(manifestResponse.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = await manifestResponse.json();
    expect(manifest).toMatchObject({
      name: 'CampusLoop',
      short_name: 'CampusLoop',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#047857',
    });
    expect(new URL(manifest.start_url, b.baseURL).pathname.startsWith(manifest.scope)).toBe(true);
    expect(manifest.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url])).toEqual([
      ['Browse', '/browse'],
      ['List', '/list-item'],
      ['Chat', '/chat'],
    ]);
    for (const wanted of ['192x192 any', '512x512 any', '192x192 maskable', '512x512 maskable']) {
      const [sizes, purpose] = wanted.split(' ');
      const icon = manifest.icons.find(
        (i: { sizes: string; purpose: string }) => i.sizes === sizes && i.purpose === purpose,
      );
      expect(icon, wanted).toBeDefined();
      const file = await borrower.request.get(icon.src);
      expect(file.headers()['content-type']).toBe('image/png');
      const bytes = await file.body();
      const size = pngSize(bytes);
      expect(`${size.width}x${size.height}`).toBe(sizes);
      // A maskable icon fills its square (the platform cuts its own shape); the other has round corners.
      const corner = await sharp(bytes)
        .ensureAlpha()
        .extract({ left: 0, top: 0, width: 1, height: 1 })
        .raw()
        .toBuffer();
      expect(corner[3], `${wanted}: the corner's opacity`).toBe(purpose === 'maskable' ? 255 : 0);
    }
    // The page links the manifest (pre-rendered Home included) and the worker's scope is the whole app.
    expect(await borrower.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    const scope = await borrower.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${b.baseURL}/`);

    // Chromium's own verdict, as its install button and Lighthouse's old PWA audit read it.
    const cdp = await borrower.context().newCDPSession(borrower);
    const { errors } = await cdp.send('Page.getAppManifest');
    expect(errors).toEqual([]);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    await cdp.detach();
  });

  it('keeps the borrower’s approved reservation with its pickup code for offline', async () => {
    await signIn(lender, 'maya.chen@stanford.edu');
    title = `Camping lantern ${Date.now().toString(36)}`;
    const { item } = await post(lender, '/api/items', {
      title,
      description: 'A bright LED camping lantern with fresh batteries.',
      category: 'other',
      condition: 'good',
      pickupMethod: 'meetup',
      pickupLocation: 'Tresidder Union',
      availableFrom: day(0),
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      images: [],
    });
    await signIn(borrower, 'jordan.lee@stanford.edu');
    await waitForWorker(borrower);
    const { reservation } = await post(borrower, '/api/reservations', {
      itemId: item.id,
      startDate: day(20),
      endDate: day(22),
    });
    await post(lender, `/api/reservations/${reservation.id}/approve`, {});
    // And a question about it in the chat.
    const { conversation } = await post(borrower, '/api/conversations', { itemId: item.id });
    message = `Where do we meet for the ${title}?`;
    await post(borrower, `/api/conversations/${conversation.id}/messages`, { content: message });

    await borrower.goto('/reservations');
    await borrower.getByRole('heading', { name: 'My Reservations', level: 1 }).waitFor();
    // The innermost box holding this reservation's card and its pickup code.
    const card = borrower
      .locator('div')
      .filter({ has: borrower.getByRole('article', { name: title }) })
      .filter({ hasText: 'Pickup Code:' })
      .last();
    await card.waitFor();
    pickupCode = (await card.locator('p.font-mono').textContent())?.replace(/\D/g, '') ?? '';
    expect(pickupCode).toMatch(/^\d{6}$/);
    await waitForSnapshot(
      borrower,
      (s) => s?.reservations?.list.some((r) => r.itemTitle === title && r.pickupCode === pickupCode) ?? false,
    );

    await borrower.goto('/chat');
    await borrower.getByText(message).first().waitFor();
    await waitForSnapshot(
      borrower,
      (s) => s?.conversations?.list.some((c) => c.itemTitle === title && c.lastMessage === message) ?? false,
    );
  });

  it('offline, a reload shows the offline page with that pickup code, read-only', async () => {
    await borrower.context().setOffline(true);
    try {
      await borrower.reload();
      await borrower.getByRole('heading', { name: 'What you last saw', level: 1 }).waitFor();
      await borrower.getByText(/^You're offline — showing what you last saw at .+/).waitFor();
      await borrower.getByText('Signed in as Jordan Lee.', { exact: false }).waitFor();
      const card = borrower.locator('li.card').filter({ hasText: title });
      await card.getByText('Pickup Code:').waitFor();
      expect((await card.locator('.digits').textContent())?.trim()).toBe(pickupCode);
      // Read-only: nothing to press but links.
      expect(await borrower.locator('button, form, input').count()).toBe(0);
      await expectAccessible(borrower);
      const conversation = borrower.locator('li.card').filter({ hasText: message });
      await conversation.getByText('Maya Chen').waitFor();
      await borrower.screenshot({
        path: path.join(os.tmpdir(), 'campusloop-offline-page-375.png'),
        fullPage: true,
      });
      // Any other page of the app, offline, is the same page.
      await borrower.goto('/chat');
      await borrower.getByRole('heading', { name: 'What you last saw', level: 1 }).waitFor();
    } finally {
      await borrower.context().setOffline(false);
    }
  });

  it('after sign-out, the next person on this browser never sees it', async () => {
    await borrower.goto('/');
    await borrower.getByRole('button', { name: 'Account menu for Jordan Lee' }).click();
    await borrower.getByRole('menuitem', { name: 'Logout' }).click();
    await borrower.getByText('You have been successfully logged out.', { exact: true }).waitFor();
    await waitForSnapshot(borrower, (s) => s === null);

    await signIn(borrower, 'priya.patel@stanford.edu');
    await borrower.goto('/reservations');
    await borrower.getByRole('heading', { name: 'My Reservations', level: 1 }).waitFor();
    await waitForSnapshot(borrower, (s) => s?.user.fullName === 'Priya Patel' && Boolean(s.reservations));

    await borrower.context().setOffline(true);
    try {
      await borrower.reload();
      await borrower.getByText('Signed in as Priya Patel.', { exact: false }).waitFor();
      expect(await borrower.getByText(title).count()).toBe(0);
      expect(await borrower.getByText(pickupCode).count()).toBe(0);
      expect(await borrower.getByText(message).count()).toBe(0);
    } finally {
      await borrower.context().setOffline(false);
    }
  });
});

/** The worker the journeys' server sends (tests/e2e/server-setup.ts serves this checkout's build). */
const SERVICE_WORKER_FILE = path.resolve('dist/web/sw.js');

describe('a new version', () => {
  it('is offered with a prompt, and taken only when the person chooses Reload', async () => {
    const page = await b.newPage();
    await page.goto('/');
    await waitForWorker(page);
    // A deploy: the worker's bytes change on the server (the journeys' server serves this build's
    // dist/web; the file is put back afterwards). Playwright's routing does not see a worker's own
    // update check, so the file itself changes.
    const original = readFileSync(SERVICE_WORKER_FILE);
    writeFileSync(SERVICE_WORKER_FILE, Buffer.concat([original, Buffer.from('\n// the next version\n')]));
    onTestFinished(() => writeFileSync(SERVICE_WORKER_FILE, original));
    await page.evaluate(() => {
      (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
    });
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.ready).update();
    });
    const prompt = page.getByRole('status').filter({ hasText: 'A new version of CampusLoop is available' });
    await prompt.waitFor();
    // Nothing changed behind the person's back: the same page, the old worker still in charge.
    expect(await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate)).toBe(
      true,
    );
    expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).waiting))).toBe(
      true,
    );
    await expectAccessible(page);

    await prompt.getByRole('button', { name: 'Reload' }).click();
    // The new worker takes over and the page reloads on it.
    await page.waitForFunction(() => !(window as unknown as { beforeUpdate?: boolean }).beforeUpdate);
    await waitForWorker(page);
    expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).waiting))).toBe(
      false,
    );
    expect(await prompt.count()).toBe(0);
  });
});
