import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionUser } from '#shared/schemas/auth.ts';
import { dropAfterWrite, type ReadCaches } from '../cache/read-caches.ts';
import type { Config } from '../config.ts';
import type { RealtimeHub } from '../db/realtime-hub.ts';
import { reportDbCost } from './db-lanes.ts';
import { MUTATING } from './security.ts';

// Reads the session cookie once per API request and puts the signed-in user (or null) on the request;
// keeps answers about a person out of every cache, and empties the read caches after a change.
// Which session a token is, is the auth feature's to say: the composition passes its resumeSession.

/** The name of the cookie that carries the session token (only its SHA-256 is stored). */
export const SESSION_COOKIE = 'cl_session';

/** A session found for a token: its person, when it ends, and whether that end was just moved on. */
export interface ResumedSession {
  user: SessionUser;
  expiresAt: Date;
  renewed: boolean;
}

/** The session behind a token, or null when there is none or it has ended. */
export type ResumeSession = (token: string) => Promise<ResumedSession | null>;

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    sessionToken: string | null;
  }
  interface FastifyContextConfig {
    /**
     * The answer to a visitor who is not signed in is the same for every such visitor (the catalogue,
     * campus impact, the university directory): it keeps the route's own cache headers. Every answer to
     * a signed-in person, and every other API answer, is private and sent `no-store` (a handler that
     * sets a header of its own, as the directory does, overrides it).
     */
    public?: boolean;
    /**
     * False on a changing route whose writes no cached answer reads (a chat message, a read mark, a
     * sign-in): its answer does not wait for this instance to hear the database's announcement. The
     * writer's own unread counts and session are still dropped at once. Default true: a route that
     * forgets it waits, as every write did.
     */
    changesCachedAnswers?: boolean;
    /**
     * False on a route whose writes never move their writer's own unread counts (a chat message moves
     * its recipient's): its writer's unread polls stay remembered. Default true.
     */
    changesWritersUnread?: boolean;
  }
}

export function setSessionCookie(
  reply: FastifyReply,
  config: Pick<Config, 'cookieSecure'>,
  token: string,
  expiresAt: Date,
) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Pick<Config, 'cookieSecure'>) {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
  });
}

export default fp(
  async function session(
    app: FastifyInstance,
    opts: {
      resume: ResumeSession;
      config: Pick<Config, 'cookieSecure'>;
      caches: ReadCaches;
      hub: Pick<RealtimeHub, 'caughtUp'>;
    },
  ) {
    app.decorateRequest('user', null);
    app.decorateRequest('sessionToken', null);
    // Hooks every request passes through are written with `done`, so a request that needs no waiting
    // (no cookie, a read) goes on at once, without a promise (decision 090).
    app.addHook('onRequest', (request, reply, done) => {
      const token = request.cookies[SESSION_COOKIE];
      if (!token || token.length > 100) return done();
      opts
        .resume(token)
        .then((resumed) => {
          if (!resumed) {
            // A stale cookie would make every request look signed-in to the browser; drop it.
            clearSessionCookie(reply, opts.config);
            return;
          }
          request.user = resumed.user;
          request.sessionToken = token;
          if (resumed.renewed) setSessionCookie(reply, opts.config, token, resumed.expiresAt);
        })
        .then(() => done(), done);
    });
    // Private by default, so a new route about a person cannot be forgotten: no browser (a shared
    // computer) and no proxy keeps someone's reservations, messages or cards. A public route's answer
    // to a signed-in person may be theirs too (their own profile, their hidden item).
    app.addHook('onRequest', (request, reply, done) => {
      if (request.user || !request.routeOptions.config.public) reply.header('cache-control', 'no-store');
      done();
    });
    // A request that changed something waits, before its answer leaves, until this instance has
    // dropped what the change made stale (read-caches.ts): its writer's next read is fresh. onSend
    // runs after the handler, so its transaction has committed. A refused request (4xx) changed
    // nothing and waits for nothing; a failure (5xx) may come after a commit, so it waits as a success
    // does. Every other instance drops the same answers when it hears the database's announcement.
    // The last hook to use the database before the answer leaves: it also reports the request's
    // checkouts (db-lanes.ts).
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!MUTATING.has(request.method) || (reply.statusCode >= 400 && reply.statusCode < 500)) {
        reportDbCost(request, reply);
        return done(null, payload);
      }
      dropAfterWrite(
        opts.caches,
        opts.hub,
        { userId: request.user?.id, sessionToken: request.sessionToken ?? undefined },
        {
          waitForAnnouncement: request.routeOptions.config.changesCachedAnswers !== false,
          writersUnread: request.routeOptions.config.changesWritersUnread !== false,
        },
      )
        .then(() => {
          // Not returned: a reply is itself a thenable, which the promise would wait on.
          reportDbCost(request, reply);
        })
        .then(() => done(null, payload), done);
    });
  },
  { name: 'session', dependencies: ['@fastify/cookie'] },
);
