import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionUser } from '#shared/schemas/auth.ts';
import { dropAfterWrite, type ReadCaches } from '../cache/read-caches.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { resumeSession } from '../features/auth/service.ts';
import { SESSION_COOKIE } from '../features/auth/session-token.ts';
import { MUTATING } from './security.ts';

// Reads the session cookie once per API request and puts the signed-in user (or null) on the request.

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    sessionToken: string | null;
  }
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string, expiresAt: Date) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config) {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
  });
}

/** The signed-in user, or a 401 for routes that need one. */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** A moderator, or 401 signed out and 403 for everyone else. */
export function requireAdmin(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  if (!user.isAdmin) throw forbidden('Only CampusLoop moderators can do that.');
  return user;
}

export default fp(
  async function session(app: FastifyInstance, opts: { db: Db; config: Config; caches: ReadCaches }) {
    app.decorateRequest('user', null);
    app.decorateRequest('sessionToken', null);
    app.addHook('onRequest', async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (!token || token.length > 100) return;
      const resumed = await resumeSession(opts.db, token, opts.config, new Date(), opts.caches.sessions);
      if (!resumed) {
        // A stale cookie would make every request look signed-in to the browser; drop it.
        clearSessionCookie(reply, opts.config);
        return;
      }
      request.user = resumed.user;
      request.sessionToken = token;
      if (resumed.renewed) setSessionCookie(reply, opts.config, token, resumed.expiresAt);
    });
    // A request that changed something drops, before its answer leaves, what its writer reads next
    // (read-caches.ts). onSend runs after the handler, so its transaction has committed.
    app.addHook('onSend', async (request, _reply, payload) => {
      if (!MUTATING.has(request.method)) return payload;
      dropAfterWrite(opts.caches, {
        userId: request.user?.id,
        isAdmin: request.user?.isAdmin,
        sessionToken: request.sessionToken ?? undefined,
      });
      return payload;
    });
  },
  { name: 'session', dependencies: ['@fastify/cookie'] },
);
