import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.ts';
import { itemService } from '../items/service.ts';

// The files search engines and link previews ask for at the site's root. robots.txt lets
// crawlers see the public pages but not the API or the signed-in pages, and names the sitemap;
// sitemap.xml lists the public pages and every item everyone may see (not hidden, owner not
// suspended), with absolute addresses from APP_URL.

/** Pages a crawler has no business in: the API, uploads, and the pages that need an account. */
const DISALLOWED = [
  '/api/',
  '/chat',
  '/notifications',
  '/settings',
  '/reservations',
  '/billing-history',
  '/payment-methods',
  '/list-item',
  '/edit-item/',
  '/admin',
  '/payments/',
];

/** Public pages besides the items. */
const STATIC_PAGES = ['/', '/browse', '/impact', '/about', '/help', '/safety', '/stories', '/partners'];

const escapeXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

export function robotsTxt(appUrl: string): string {
  return [
    'User-agent: *',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${appUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

export function sitemapXml(appUrl: string, items: readonly { id: string; updatedAt: Date }[]): string {
  const url = (path: string, lastmod?: Date) =>
    `<url><loc>${escapeXml(`${appUrl}${path}`)}</loc>${
      lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''
    }</url>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...STATIC_PAGES.map((path) => url(path)),
    ...items.map((item) => url(`/item/${encodeURIComponent(item.id)}`, item.updatedAt)),
    '</urlset>',
    '',
  ].join('\n');
}

export const siteFileRoutes: FastifyPluginAsync<{ db: Db; appUrl: string }> = async (app, { db, appUrl }) => {
  const origin = appUrl.replace(/\/+$/, '');
  app.get('/robots.txt', { config: { public: true } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(robotsTxt(origin)),
  );
  app.get('/sitemap.xml', { config: { public: true } }, async (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=600')
      .send(sitemapXml(origin, await itemService.publicItemIds(db))),
  );
};
