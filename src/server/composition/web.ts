import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { msg } from '@lingui/core/macro';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { campusToday } from '#shared/calendar.ts';
import { itemIdParams, itemSearchQuery } from '#shared/schemas/items.ts';
import { LOCALES, type Locale } from '../../shared/i18n.ts';
import type { CachedPage, ReadCaches } from '../cache/read-caches.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { resumeSession } from '../features/auth/service.ts';
import { impactService } from '../features/impact/service.ts';
import { itemListJson, publicItemJson } from '../features/items/routes.ts';
import { acceptedEncoding } from '../http/json-answers.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { requestLocale, translate } from '../i18n.ts';
import { inLanguage } from './page-language.ts';
import { createPageRenderer, type PageRenderer } from './web-render.ts';

// Serves the built web app: hashed assets cached for a year (pre-compressed when the browser accepts
// Brotli or gzip), every other page path answered with index.html so the client router can show it
// (its own 404 page included). The service worker and the web app manifest are asked for afresh each
// time (no-cache). Home, Browse, item pages and Impact are pre-rendered for signed-out visitors
// (web-render.ts); an item hidden or missing is a 404 for them. API paths that match no route get the
// API's JSON 404 instead.

const brotli = promisify(brotliCompress);

/** The installable app's service worker and manifest (vite.config.ts, src/web/sw.ts), at the root. */
const SERVICE_WORKER = 'sw.js';
const WEB_MANIFEST = 'manifest.webmanifest';

/** How long after the server listens the render entry is loaded, if no visitor asked for a page first. */
const RENDERER_WARM_UP_MS = 2000;
const gzipAsync = promisify(gzip);

/** A rendered page, compressed as the browser accepts (quick settings: pages change with the catalogue). */
async function compressPage(
  html: string,
  encoding: CachedPage['encoding'],
  status?: CachedPage['status'],
): Promise<CachedPage> {
  const body = Buffer.from(html);
  if (encoding === 'br') {
    return {
      body: await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
      encoding,
      status,
    };
  }
  if (encoding === 'gzip') return { body: await gzipAsync(body), encoding, status };
  return { body, status };
}

export default fp(
  async function web(
    app: FastifyInstance,
    opts: {
      webDir: string;
      renderEntry: string;
      db: Db;
      campusTimeZone: string;
      caches: ReadCaches;
      appUrl: string;
      /** To know a signed-in person's language (their session), as the API does. */
      config?: Pick<Config, 'sessionDays' | 'adminEmails'>;
    },
  ) {
    const indexFile = path.join(opts.webDir, 'index.html');
    const hasWeb = existsSync(indexFile);
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: opts.webDir,
        wildcard: false,
        index: false,
        // Not the build manifest (.vite/), which only the server reads.
        dotfiles: 'ignore',
        // The build writes .br and .gz copies of scripts and styles (vite.config.ts): sent to browsers
        // that accept them, with Vary: Accept-Encoding.
        preCompressed: true,
        setHeaders(res, filePath) {
          const name = path.relative(opts.webDir, filePath);
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            res.header('cache-control', 'public, max-age=31536000, immutable');
          } else if (name === SERVICE_WORKER || name === WEB_MANIFEST) {
            // Asked again at every check, so a deploy is seen at the next visit (the worker then
            // offers the new version: src/web/pwa/update-prompt.tsx).
            res.header('cache-control', 'no-cache');
            if (name === WEB_MANIFEST) res.header('content-type', 'application/manifest+json; charset=utf-8');
            // The worker controls every page of the app.
            if (name === SERVICE_WORKER) res.header('service-worker-allowed', '/');
          } else {
            res.header('cache-control', 'public, max-age=3600');
          }
        },
      });
    }
    // The shell in each language (decision 035): the browser renders the page in its <html lang>.
    const shellTemplate = hasWeb ? readFileSync(indexFile, 'utf8') : undefined;
    const shells = new Map<Locale, Buffer>(
      shellTemplate ? LOCALES.map((locale) => [locale, Buffer.from(inLanguage(shellTemplate, locale))]) : [],
    );
    // The render entry is 0.9 MB of script to compile: loaded when the first visitor asks for a page, or
    // shortly after the server listens, not before it listens, so a restart answers sooner. A failure
    // to load is logged, and every page is then the shell, rendered in the browser.
    let rendererLoad: Promise<PageRenderer | undefined> | undefined;
    const loadRenderer = () => {
      rendererLoad ??= hasWeb
        ? createPageRenderer({
            webDir: opts.webDir,
            entry: opts.renderEntry,
            // The API's own answer, from the same cache (an invalid query is the API's 400: the shell).
            itemListJson: (query) =>
              itemListJson(
                opts.db,
                opts.caches,
                itemSearchQuery.parse(Object.fromEntries(new URLSearchParams(query))),
                opts.campusTimeZone,
              ),
            impactCampuses: () => impactService.campuses(opts.db),
            impactDashboard: (campus, locale) =>
              impactService.dashboard(
                { db: opts.db, timeZone: opts.campusTimeZone },
                campus,
                new Date(),
                locale,
              ),
            // Not an item id at all: the API's 400, which the page shows as 'not found' too.
            itemJson: async (id) =>
              itemIdParams.safeParse({ id }).success ? publicItemJson(opts.db, opts.caches, id) : undefined,
            appUrl: opts.appUrl,
          }).catch((error) => {
            app.log.error(
              { err: error },
              'the pre-rendering entry did not load; pages are rendered in the browser',
            );
            return undefined;
          })
        : Promise.resolve(undefined);
      return rendererLoad;
    };
    app.addHook('onListen', async () => {
      setTimeout(() => void loadRenderer(), RENDERER_WARM_UP_MS).unref();
    });

    app.setNotFoundHandler(async (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const isPage = request.method === 'GET' || request.method === 'HEAD';
      // A signed-in person's page is in their account's language (unless the switch's cookie says
      // otherwise): the session is read as the API reads it, from the same remembered sessions.
      const token = request.cookies[SESSION_COOKIE];
      if (token && token.length <= 100 && opts.config && !request.user) {
        const resumed = await resumeSession(
          opts.db,
          token,
          opts.config,
          new Date(),
          opts.caches.sessions,
        ).catch(() => undefined);
        if (resumed) request.user = resumed.user;
      }
      const locale = requestLocale(request);
      const shell = shells.get(locale);
      if (shell && isPage && !pathname.startsWith('/api/') && !pathname.startsWith('/uploads/')) {
        // A page is never stored by a shared cache, and differs with the session cookie: a signed-in
        // person gets the shell (their own page is rendered in the browser), a visitor may get it rendered.
        // Its language follows the language cookie, the account and the browser's Accept-Language.
        reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'private, no-cache')
          .header('content-language', locale)
          .header('vary', 'Cookie, Accept-Encoding, Accept-Language');
        const visitor = !request.cookies[SESSION_COOKIE];
        const renderer = visitor && request.method === 'GET' ? await loadRenderer() : undefined;
        if (renderer?.renders(pathname)) {
          try {
            // The same for every visitor on the same campus day, until the catalogue changes.
            const encoding = acceptedEncoding(request);
            const today = campusToday(opts.campusTimeZone).date;
            const page = await opts.caches.pages.get(
              `${encoding}:${locale}:${today}:${request.url}`,
              async () => {
                const rendered = await renderer.render(
                  new URL(request.url, 'http://campusloop.invalid'),
                  locale,
                );
                if (rendered === undefined) return undefined;
                return compressPage(rendered.html, encoding, rendered.status === 404 ? 404 : undefined);
              },
            );
            if (page) {
              if (page.status) reply.status(page.status);
              if (page.encoding) reply.header('content-encoding', page.encoding);
              return reply.send(page.body);
            }
          } catch (error) {
            request.log.warn({ err: error }, 'pre-rendering failed; sent the shell');
          }
        }
        return reply.send(shell);
      }
      const method = request.method;
      return reply.status(404).send({
        message: translate(locale, msg`No API route for ${method} ${pathname}.`),
        code: 'NOT_FOUND',
      });
    });
  },
  { name: 'web' },
);
