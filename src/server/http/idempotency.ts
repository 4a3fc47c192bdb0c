import { msg } from '@lingui/core/macro';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKey } from '#shared/schemas/idempotency.ts';
import type { Db } from '../db/client.ts';
import { badRequest } from '../errors.ts';
import {
  fingerprintOf,
  idempotencyService,
  type KeyedRequest,
  markCommittedWithin,
} from './idempotency-keys.ts';

// Every signed-in POST, PUT, PATCH and DELETE under /api honours an Idempotency-Key header (decision
// 039): the first request with a key runs and its answer is kept; a retry with the same key gets that
// answer again, so a retry after a lost answer neither does the action twice nor answers differently.
// Registered before compression: the answer is kept as the JSON text the route wrote.

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: KeyedRequest | null;
  }
}

function keyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  const parsed = idempotencyKey.safeParse(value);
  if (!parsed.success) {
    throw badRequest(msg`The request key (Idempotency-Key) must be 1 to 255 visible characters.`);
  }
  return parsed.data;
}

export default fp(
  async function idempotency(app: FastifyInstance, opts: { db: Db }) {
    markCommittedWithin(opts.db);
    app.decorateRequest('idempotency', null);

    // The handler runs with its key known to the transactions it starts (their commit marks the key).
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!route.url.startsWith('/api/') || !methods.some((m) => CHANGES.has(m))) return;
      const handler = route.handler;
      route.handler = function keyed(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
        const keyed = request.idempotency;
        if (!keyed) return handler.call(this, request, reply);
        return idempotencyService.within(keyed, () => handler.call(this, request, reply));
      } as typeof handler;
    });

    // After validation (a refused body changes nothing and keeps no key) and after the session is read.
    // Both hooks see every request; only a keyed change waits for the database (decision 090).
    app.addHook('preHandler', (request, reply, done) => {
      const key =
        CHANGES.has(request.method) && request.url.startsWith('/api/') && request.user
          ? keyOf(request)
          : undefined;
      if (!key) return done();
      claimKey(request, reply, key).then((replayed) => {
        // A replayed answer is on its way: the handler does not run.
        if (!replayed) done();
      }, done);
    });

    /** Claims the key; true when its answer was replayed instead. */
    async function claimKey(request: FastifyRequest, reply: FastifyReply, key: string): Promise<boolean> {
      const claim = await idempotencyService.claim(
        opts.db,
        request.user!.id,
        key,
        fingerprintOf(request.method, request.url, request.body),
      );
      if (claim.kind === 'replay') {
        reply.code(claim.statusCode).header('idempotent-replayed', 'true');
        if (claim.contentType) reply.type(claim.contentType);
        reply.send(claim.body);
        return true;
      }
      request.idempotency = claim.request;
      return false;
    }

    app.addHook('onSend', (request, reply, payload, done) => {
      const keyed = request.idempotency;
      if (!keyed) return done(null, payload);
      request.idempotency = null;
      const contentType = reply.getHeader('content-type');
      idempotencyService
        .finish(opts.db, keyed, {
          statusCode: reply.statusCode,
          contentType: typeof contentType === 'string' ? contentType : null,
          // Streams and files are not kept: a retry of such a request runs again.
          body: typeof payload === 'string' ? payload : null,
        })
        .catch((error: unknown) => {
          // The answer still goes out; the key stays in flight until its lease ends (decision 039).
          request.log.warn({ err: error }, 'idempotency key answer not kept');
        })
        .then(() => done(null, payload));
    });
  },
  { name: 'idempotency' },
);
