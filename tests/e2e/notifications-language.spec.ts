import { describe, expect, it } from 'vitest';
import { expectAccessible, journeySteps, newStudent, setupBrowser } from './helpers.ts';

// Notifications follow the reader's language (decision 052): a student who switches to Spanish reads
// the notifications they got in English in Spanish too, in the bell and on the page, at phone size.

const b = setupBrowser();
const PHONE = { width: 375, height: 667 };

describe('earlier notifications after a switch of language', () => {
  journeySteps();
  const tag = Math.random().toString(36).slice(2, 8);
  let page: Awaited<ReturnType<typeof newStudent>>;

  it('a new student reads the welcome in English in the bell', async () => {
    page = await newStudent(b, { name: 'Ines', surname: 'Arroyo', tag, viewport: PHONE });
    await page.goto('/');
    await page.getByRole('button', { name: /^Notifications, [12] unread/ }).click();
    await page.getByRole('menu').getByText('Welcome to CampusLoop!').waitFor();
    await page.keyboard.press('Escape');
  });

  it('switches to Spanish in Settings: the bell shows the same welcome in Spanish', async () => {
    await page.goto('/settings');
    // Settings' own switch (the footer has one too, labelled alike).
    await page.getByRole('region', { name: 'Language' }).getByLabel('Language').selectOption('es');
    await page.getByRole('button', { name: /^Notificaciones, [12] sin leer/ }).click();
    const menu = page.getByRole('menu');
    await menu.getByText('¡Bienvenido a CampusLoop!').waitFor();
    expect(await menu.getByText('Welcome to CampusLoop!').count()).toBe(0);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
  });

  it('the notifications page shows the earlier notifications in Spanish', async () => {
    await page.goto('/notifications');
    await page.getByRole('heading', { name: 'Notificaciones', level: 1 }).waitFor();
    const list = page.getByRole('tabpanel');
    await list.getByText('¡Bienvenido a CampusLoop!').waitFor();
    await list
      .getByText(/^Nueva insignia: /)
      .first()
      .waitFor();
    expect(await list.getByText('Welcome to CampusLoop!').count()).toBe(0);
    expect(await list.getByText(/^New badge: /).count()).toBe(0);
    await expectAccessible(page);
  });
});
