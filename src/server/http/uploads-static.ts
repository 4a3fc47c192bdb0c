import { mkdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Storage } from '../adapters/storage/storage.ts';

// Serves photos kept on local disk at /uploads/. A stored photo never changes (its key holds a random id),
// so browsers may keep it for a year. With an S3 bucket, browsers fetch photos from the bucket instead.

export default fp(
  async function uploadsStatic(app: FastifyInstance, opts: { storage: Storage; uploadsDir: string }) {
    if (opts.storage.kind !== 'local') return;
    mkdirSync(opts.uploadsDir, { recursive: true });
    await app.register(fastifyStatic, {
      root: opts.uploadsDir,
      prefix: '/uploads/',
      decorateReply: false,
      index: false,
      dotfiles: 'deny',
      setHeaders(reply) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  },
  { name: 'uploads-static' },
);
