import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { cardExpiry, typedExpiry } from '../helpers/cards.ts';
import { expectAccessible, newStudent, setupBrowser, signIn, verifyFromOutbox } from './helpers.ts';

// Acting on notifications, toasts and tooltips on a 375 × 667 phone: what a student
// sees on the first screen, the sticky Reserve bar, toasts that keep clear of the Pay button and the
// message box, notification tabs that fit and open where something is, acting on a notification
// reading it. Alex (Berkeley) borrows from Sam; items no other journey books.

const b = setupBrowser();
const PHONE = { width: 375, height: 667 };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, 'element has no box (not shown)').not.toBeNull();
  return found!;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The toast now showing (Radix renders each as a list item of the toast area). */
const shownToast = (page: Page) => page.locator('ol[data-placement] > li').first();

async function openItem(page: Page, title: string) {
  await page.goto(`/browse?q=${encodeURIComponent(title)}`);
  await page
    .getByRole('link', { name: new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
    .first()
    .click();
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
}

function inDays(n: number): string {
  const d = new Date();
  d.setDate(d.getDate() + n);
  return d.toLocaleDateString('en-CA', { timeZone: 'America/Los_Angeles' });
}

describe('phone ergonomics (375 × 667)', () => {
  it('Home: the first items show on the first screen, under a short hero', async () => {
    const page = await b.newPage(PHONE);
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const nearYou = page.getByRole('region', { name: 'Available Near You' });
    const firstItem = nearYou.locator('a[href^="/item/"]').first();
    await firstItem.waitFor();
    const item = await box(firstItem);
    // Without scrolling, at least the top 100 px of the first card are on screen.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(item.y + 100).toBeLessThanOrEqual(PHONE.height);
    const hero = await box(page.locator('section').filter({ has: page.getByRole('heading', { level: 1 }) }));
    expect(hero.height).toBeLessThan(260);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
  });

  it('the item page keeps price, deposit and Reserve in a bar at the bottom while scrolling, which opens the dialog', async () => {
    const page = await b.newPage(PHONE);
    await signIn(page, 'alex.kim@berkeley.edu');
    await openItem(page, 'Hiking backpack (50 L)');
    const bar = page.getByRole('region', { name: 'Price and reserve' });
    await bar.getByText('$4.00 / day').waitFor();
    await bar.getByText('+ $30.00 refundable deposit').waitFor();
    const atTop = await box(bar);
    expect(atTop.y + atTop.height).toBeLessThanOrEqual(PHONE.height);

    // Scrolled to the reviews at the end: the bar is still there, in the same place.
    await page.getByRole('heading', { name: /^Reviews/ }).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(() => window.scrollY > 300);
    const scrolled = await box(bar);
    expect(scrolled.y).toBe(atTop.y);
    expect(scrolled.y + scrolled.height).toBeLessThanOrEqual(PHONE.height);
    // It sits above the phone's bottom bar, not under it.
    const mobileNav = await box(page.getByRole('navigation', { name: 'Mobile' }));
    expect(scrolled.y + scrolled.height).toBeLessThanOrEqual(mobileNav.y + 1);
    await expectAccessible(page);

    await bar.getByRole('button', { name: 'Reserve' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Reserve Hiking backpack (50 L)' }).waitFor();
    expect(new URL(page.url()).searchParams.get('reserve')).toBe('1');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('reserve')).toBeNull();
  });

  it('a declined card is said under its field with no toast over the form, and a toast never covers the way on', async () => {
    const page = await b.newPage(PHONE);
    await signIn(page, 'alex.kim@berkeley.edu');
    await openItem(page, 'Hiking backpack (50 L)');
    await page
      .getByRole('region', { name: 'Price and reserve' })
      .getByRole('button', { name: 'Reserve' })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Continue to Payment' }).click();
    // Alex may have saved a card in another journey: then checkout offers it first.
    const newCard = dialog.getByRole('radio', { name: /Use a new card/ });
    await dialog.getByLabel('Card number').or(newCard).first().waitFor();
    if ((await newCard.count()) > 0) await newCard.check();
    await dialog.getByLabel('Card number').fill('4000 0000 0000 0002');
    await dialog.getByLabel('Expiry (MM / YY)').fill(typedExpiry(cardExpiry(12)));
    await dialog.getByLabel('CVC').fill('123');
    const pay = dialog.getByRole('button', { name: /^Pay \$/ });
    await pay.click();

    // The refusal is said under the card field, in view with the card form; no 'Payment Failed' toast
    // repeats it over the form the student is about to correct.
    const number = dialog.getByLabel('Card number');
    await expect.poll(() => number.getAttribute('aria-invalid')).toBe('true');
    const reason = dialog.getByText('Your card was declined. Try another card.');
    await reason.waitFor();
    // The toast would have come with the reason, from the same answer; give it a frame to show.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    expect(await page.locator('ol[data-placement] > li').count(), 'a toast repeats the refusal').toBe(0);
    for (const shown of [number, reason, pay]) {
      const at = await box(shown);
      expect(at.y).toBeGreaterThanOrEqual(0);
      expect(at.y + at.height).toBeLessThanOrEqual(PHONE.height);
    }
    await page.screenshot({ path: '/tmp/shots/declined-card-phone.png' }).catch(() => undefined);

    // A good card: the request goes; the toast keeps clear of 'Request sent' and its way on.
    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    await pay.click();
    const created = shownToast(page);
    await created.getByText('Reservation created!').waitFor();
    const onward = dialog.getByRole('link', { name: 'Go to My Reservations' });
    await onward.waitFor();
    // 'Request sent' is longer than a phone's screen: the link is the dialog's last line.
    await onward.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/shots/request-sent-phone.png' }).catch(() => undefined);
    const onwardBox = await box(onward);
    expect(onwardBox.y + onwardBox.height).toBeLessThanOrEqual(PHONE.height);
    expect(overlaps(await box(created), onwardBox), 'the toast covers the way on').toBe(false);
    await onward.click();
    await page.waitForURL((url) => url.pathname === '/reservations');
    await page.getByRole('heading', { name: 'My Reservations', level: 1 }).waitFor();
  });

  it('a toast never covers the message box', async () => {
    const page = await b.newPage(PHONE);
    await signIn(page, 'alex.kim@berkeley.edu');
    await openItem(page, 'Microscope for bio lab');
    await page.getByRole('button', { name: 'Chat with Seller' }).click();
    await page.waitForURL((url) => url.pathname === '/chat');
    const started = shownToast(page);
    await started.getByText('Chat started').waitFor();
    const composer = page.locator('form').filter({ has: page.getByLabel('Message', { exact: true }) });
    await composer.waitFor();
    await page.getByPlaceholder('Type a message...').waitFor();
    const messageBox = await box(composer);
    expect(messageBox.y + messageBox.height).toBeLessThanOrEqual(PHONE.height);
    expect(overlaps(await box(started), messageBox), 'the toast covers the message box').toBe(false);
  });

  it('Notifications: the tabs fit, the page opens on a tab with something in it, and approving reads the request', async () => {
    // Alex asks for Sam's Instant Pot (through the API, as the Reserve dialog does for a free item).
    const alex = await b.newPage(PHONE);
    await signIn(alex, 'alex.kim@berkeley.edu');
    const { items } = await (
      await alex.request.get('/api/items?campus=all&searchQuery=Instant%20Pot')
    ).json();
    const pot = items.find((i: { title: string }) => i.title === 'Instant Pot (6 qt)');
    const day = inDays(40);
    const quote = await alex.request.post('/api/create-payment-intent', {
      headers: { origin: b.baseURL },
      data: { itemId: pot.id, startDate: day, endDate: day, depositAmount: '30.00', rentalAmount: '3.00' },
    });
    expect(quote.status(), await quote.text()).toBe(200);
    const { paymentIntentId } = await quote.json();
    const card = { number: '4242 4242 4242 4242', ...cardExpiry(12), cvc: '123' };
    const confirm = await alex.request.post('/api/payments/test/confirm', {
      headers: { origin: b.baseURL },
      data: { paymentIntentId, card },
    });
    expect(confirm.status(), await confirm.text()).toBe(200);
    const created = await alex.request.post('/api/reservations', {
      headers: { origin: b.baseURL },
      data: { itemId: pot.id, startDate: day, endDate: day, stripePaymentIntentId: paymentIntentId },
    });
    expect(created.status(), await created.text()).toBe(201);

    const sam = await b.newPage(PHONE);
    await signIn(sam, 'sam.rivera@berkeley.edu');
    await sam.goto('/notifications');
    const tabs = sam.getByRole('tablist', { name: 'Notification lists' });
    const pendingTab = sam.getByRole('tab', { name: /^Pending Requests \(\d+\)$/ });
    await pendingTab.waitFor();
    // It opens on Pending Requests: there is one.
    expect(await pendingTab.getAttribute('aria-selected')).toBe('true');
    // All three tabs on one row inside the screen, and nothing to scroll sideways.
    const list = await box(tabs);
    expect(list.x + list.width).toBeLessThanOrEqual(PHONE.width);
    for (const tab of await sam.getByRole('tab').all()) {
      const t = await box(tab);
      expect(t.x).toBeGreaterThanOrEqual(0);
      expect(t.x + t.width).toBeLessThanOrEqual(PHONE.width);
      expect(Math.abs(t.y - list.y)).toBeLessThan(10);
    }
    expect(await sam.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(sam);

    const unreadTab = sam.getByRole('tab', { name: /^Unread \(\d+\)$/ });
    const unreadBefore = Number((await unreadTab.textContent())?.match(/\((\d+)\)/)?.[1]);
    const request = sam
      .getByRole('tabpanel')
      .getByRole('listitem')
      .filter({ hasText: 'Instant Pot (6 qt)' })
      .filter({ has: sam.getByRole('button', { name: 'Approve Request' }) })
      .first();
    await request.getByText('New', { exact: true }).waitFor();
    await request.getByRole('button', { name: 'Approve Request' }).click();
    // The approval toast says what approving charges (decision 025).
    await sam
      .getByText(/^Alex Kim has been notified\. Their card is charged \$34\.00 now/)
      .first()
      .waitFor();
    // Read on the server as part of the approval: the badge goes, and the Unread count drops.
    await sam.getByRole('tab', { name: `Unread (${unreadBefore - 1})` }).waitFor();
    const answered = sam
      .getByRole('tabpanel')
      .getByRole('listitem')
      .filter({ hasText: 'Instant Pot (6 qt)' })
      .filter({ hasText: 'Request status' })
      .first();
    await answered.waitFor();
    expect(await answered.getByText('New', { exact: true }).count()).toBe(0);
    expect(await answered.getByRole('button', { name: 'Mark as read' }).count()).toBe(0);

    // The approval toast's 'View' action (spec §3) opens the approved card on the Lending tab.
    await shownToast(sam).getByRole('button', { name: 'View' }).click();
    await sam.waitForURL((url) => url.pathname === '/reservations' && url.searchParams.has('reservation'));
    expect(await sam.getByRole('tab', { name: /Lending/ }).getAttribute('aria-selected')).toBe('true');
    const approved = sam
      .getByRole('listitem')
      .filter({ has: sam.getByRole('heading', { name: 'Instant Pot (6 qt)' }) })
      .filter({ hasText: 'Pickup Code:' })
      .first();
    await approved.waitFor();
    const shown = await box(approved);
    expect(shown.y).toBeLessThan(PHONE.height);
    expect(shown.y + shown.height).toBeGreaterThan(0);
  });

  it('Notifications: with no requests, the page opens on Unread', async () => {
    const page = await b.newPage(PHONE);
    const tag = Date.now().toString(36);
    await page.goto('/register');
    await page.getByLabel('Full Name').fill('Katherine Johnson');
    await page.getByLabel('Username').fill(`kj_${tag}`);
    await page.getByLabel('University Email').fill(`kj.${tag}@stanford.edu`);
    await page.getByText('✓ Auto-detected from your email domain').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('orbital1962');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    await verifyFromOutbox(page, inject('outboxDir'), `kj.${tag}@stanford.edu`);
    await page.goto('/notifications');
    // The welcome notice, and the 'Verified Student' badge the link earned.
    const unread = page.getByRole('tab', { name: /^Unread \([12]\)$/ });
    await unread.waitFor();
    expect(await unread.getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tabpanel').getByText('Welcome to CampusLoop!').waitFor();
  });

  it("a missing item says 'Error' / 'Item not found.' in a toast as well", async () => {
    const page = await b.newPage(PHONE);
    await page.goto('/item/00000000-0000-4000-8000-000000000000');
    await page.getByRole('heading', { name: 'Item not found', level: 1 }).waitFor();
    const shown = shownToast(page);
    await shown.getByText('Error', { exact: true }).waitFor();
    await shown.getByText('Item not found.', { exact: true }).waitFor();
  });
});

/** Each link of the bottom bar: its label, on how many lines, and whether it stays inside its slot. */
function barLabels(page: Page) {
  return page
    .getByRole('navigation', { name: /^(Mobile|Móvil)$/ })
    .getByRole('link')
    .evaluateAll((links) =>
      links.map((link) => {
        const text = [...link.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
        const range = document.createRange();
        range.selectNodeContents(text!);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        const slot = link.getBoundingClientRect();
        const words = range.getBoundingClientRect();
        return {
          label: text!.textContent,
          lines,
          inside: words.left >= slot.left - 0.5 && words.right <= slot.right + 0.5,
        };
      }),
    );
}

describe('the bottom bar at 375 px', () => {
  // Signed in, "Asked for" joins the bar (six slots); a visitor's bar keeps five, with Sign In. Chromium
  // here draws with DejaVu Sans, wider than a phone's own fonts: what fits here fits there.
  it.each([
    [
      'en',
      ['Home', 'Browse', 'Asked for', 'List', 'Impact', 'Profile'],
      ['Home', 'Browse', 'List', 'Impact', 'Sign In'],
    ],
    [
      'es',
      ['Inicio', 'Explorar', 'Se busca', 'Publicar', 'Impacto', 'Perfil'],
      ['Inicio', 'Explorar', 'Publicar', 'Impacto', 'Iniciar sesión'],
    ],
  ] as const)(
    'every label fits its slot, on one line when signed in (%s)',
    async (language, signedIn, visiting) => {
      const tag = `${Date.now().toString(36)}bar${language}`;
      const student = await newStudent(b, {
        name: 'Bea',
        surname: 'Bar',
        tag,
        viewport: PHONE,
        payouts: false,
        ...(language === 'es' ? { language } : {}),
      });
      const visitor = await b.newPage(PHONE, language === 'es' ? 'es' : undefined);
      for (const [page, labels] of [
        [student, signedIn],
        [visitor, visiting],
      ] as const) {
        await page.goto('/browse');
        await page
          .getByRole('navigation', { name: /^(Mobile|Móvil)$/ })
          .getByRole('link')
          .first()
          .waitFor();
        await expect.poll(async () => (await barLabels(page)).map((l) => l.label)).toEqual(labels);
        // The bar keeps its height: a label that wraps stays inside its slot.
        const bar = await box(page.getByRole('navigation', { name: /^(Mobile|Móvil)$/ }));
        expect(bar.height).toBeLessThanOrEqual(57);
        for (const shown of await barLabels(page)) {
          // A visitor's "Iniciar sesión" is longer than its slot in a wide font: two lines, inside it.
          if (page === visitor) {
            expect(shown.inside, `"${shown.label}" stays inside its slot`).toBe(true);
            continue;
          }
          expect(shown, `"${shown.label}" is on one line inside its slot`).toMatchObject({
            lines: 1,
            inside: true,
          });
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          PHONE.width,
        );
      }
      await student.screenshot({ path: `/tmp/mobile-bar-375-${language}.png` });
    },
  );
});

describe('icon buttons have tooltips (spec §9: 700 ms, skip 300 ms)', () => {
  it('the header’s icon buttons explain themselves after 700 ms, the next one at once', async () => {
    const page = await b.newPage({ width: 1280, height: 800 });
    await signIn(page, 'alex.kim@berkeley.edu');
    const messages = page.getByRole('button', { name: /^Messages/ });
    const notifications = page.getByRole('button', { name: /^Notifications/ });
    await messages.waitFor();
    await page.mouse.move(640, 600);

    // Radix marks how a tooltip opened: 'delayed-open' after the delay, 'instant-open' inside the skip
    // delay. Conditions, not stopwatches: only the lower bound of the first delay is timed.
    const tip = (label: string) =>
      page.locator('[data-radix-popper-content-wrapper] > [data-state]').filter({ hasText: label });
    const started = Date.now();
    await messages.hover();
    await page.getByRole('tooltip', { name: 'Messages' }).waitFor();
    expect(Date.now() - started).toBeGreaterThanOrEqual(690);
    expect(await tip('Messages').getAttribute('data-state')).toBe('delayed-open');

    // Straight on to the next icon, as a hand moves: inside the skip delay, its tooltip opens
    // without waiting.
    // The first tooltip stays while the pointer could be heading for it (WCAG 1.4.13: Radix's grace
    // area between the button left and its tooltip), and Chromium merges the moves of a busy frame into
    // one: the hand goes on across the button, away from the first tooltip, until the next one opens.
    const target = await notifications.boundingBox();
    const nextTip = page.getByRole('tooltip', { name: 'Notifications' });
    const across = [0.3, 0.5, 0.7, 0.85].map((f) => ({ x: target!.x + target!.width * f, y: target!.y + 6 }));
    let step = 0;
    await expect
      .poll(async () => {
        const at = across[Math.min(step++, across.length - 1)]!;
        await page.mouse.move(at.x, at.y);
        return nextTip.isVisible();
      })
      .toBe(true);
    expect(await tip('Notifications').getAttribute('data-state')).toBe('instant-open');
  });
});
