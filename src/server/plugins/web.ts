import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Serves the built web app: hashed assets cached for a year (pre-compressed when the browser accepts
// Brotli or gzip), every other page path answered with
// index.html so the client router can show it (its own 404 page included). API paths that match no
// route get the API's JSON 404 instead.

export default fp(
  async function web(app: FastifyInstance, opts: { webDir: string }) {
    const indexFile = path.join(opts.webDir, 'index.html');
    const hasWeb = existsSync(indexFile);
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: opts.webDir,
        wildcard: false,
        index: false,
        // The build writes .br and .gz copies of scripts and styles (vite.config.ts): sent to browsers
        // that accept them, with Vary: Accept-Encoding.
        preCompressed: true,
        setHeaders(res, filePath) {
          if (filePath.includes(`${path.sep}assets${path.sep}`)) {
            res.header('cache-control', 'public, max-age=31536000, immutable');
          } else {
            res.header('cache-control', 'public, max-age=3600');
          }
        },
      });
    }
    const indexHtml = hasWeb ? readFileSync(indexFile) : undefined;

    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split('?')[0] ?? '/';
      const isPage = request.method === 'GET' || request.method === 'HEAD';
      if (indexHtml && isPage && !pathname.startsWith('/api/') && !pathname.startsWith('/uploads/')) {
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
      }
      return reply
        .status(404)
        .send({ message: `No API route for ${request.method} ${pathname}.`, code: 'NOT_FOUND' });
    });
  },
  { name: 'web' },
);
