import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { PublicUser } from '#shared/schemas/auth.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { unauthorized } from '../errors.ts';
import { resumeSession } from '../features/auth/service.ts';
import { SESSION_COOKIE } from '../features/auth/session-token.ts';

// Reads the session cookie once per API request and puts the signed-in user (or null) on the request.

declare module 'fastify' {
  interface FastifyRequest {
    user: PublicUser | null;
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
export function requireUser(request: FastifyRequest): PublicUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

export default fp(
  async function session(app: FastifyInstance, opts: { db: Db; config: Config }) {
    app.decorateRequest('user', null);
    app.decorateRequest('sessionToken', null);
    app.addHook('onRequest', async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (!token || token.length > 100) return;
      const resumed = await resumeSession(opts.db, token, opts.config.sessionDays);
      if (!resumed) {
        // A stale cookie would make every request look signed-in to the browser; drop it.
        clearSessionCookie(reply, opts.config);
        return;
      }
      request.user = resumed.user;
      request.sessionToken = token;
      if (resumed.renewed) setSessionCookie(reply, opts.config, token, resumed.expiresAt);
    });
  },
  { name: 'session', dependencies: ['@fastify/cookie'] },
);
