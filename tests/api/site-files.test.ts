import { describe, expect, it } from 'vitest';
import { createItem, createUser, suspend } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// robots.txt and sitemap.xml are real files at the root (before, /robots.txt answered the
// app's HTML), and the sitemap names only the items everyone may see.

const t = setupTestApp({ appUrl: 'https://campusloop.example.edu' });

describe('robots.txt', () => {
  it('is plain text that keeps crawlers out of the API and names the sitemap', async () => {
    const response = await t.get('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).not.toContain('<html');
    expect(response.body).toMatch(/^User-agent: \*$/m);
    expect(response.body).toMatch(/^Disallow: \/api\/$/m);
    expect(response.body).not.toMatch(/^Disallow: \/$/m);
    expect(response.body).toContain('Sitemap: https://campusloop.example.edu/sitemap.xml');
  });
});

describe('sitemap.xml', () => {
  it('lists the public pages and only the items everyone may see', async () => {
    const db = t.database.db;
    const lender = await createUser(db);
    const visible = await createItem(db, { userId: lender.id, title: 'Visible camping stove' });
    const hidden = await createItem(db, { userId: lender.id, title: 'Hidden stove', hiddenAt: new Date() });
    const deleted = await createItem(db, {
      userId: lender.id,
      title: 'Deleted stove',
      deletedAt: new Date(),
    });
    const suspended = await createUser(db);
    const ofSuspended = await createItem(db, { userId: suspended.id, title: 'Suspended owner stove' });
    await suspend(db, suspended.id);

    const response = await t.get('/sitemap.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    const xml = response.body;
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain('<loc>https://campusloop.example.edu/</loc>');
    expect(xml).toContain('<loc>https://campusloop.example.edu/browse</loc>');
    expect(xml).toContain(`<loc>https://campusloop.example.edu/item/${visible.id}</loc>`);
    expect(xml).toMatch(new RegExp(`/item/${visible.id}</loc><lastmod>\\d{4}-\\d\\d-\\d\\dT`));
    for (const item of [hidden, deleted, ofSuspended]) expect(xml).not.toContain(item.id);
    // Nothing a crawler may not visit.
    expect(xml).not.toContain('/api/');
  });
});
