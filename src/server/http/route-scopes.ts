import { msg } from '@lingui/core/macro';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SessionUser } from '#shared/schemas/auth.ts';
import { forbidden, unauthorized } from '../errors.ts';

// Who may call an API route is said once, by the group it is declared in: public (anyone; a handler
// may read the optional `request.user`), signed in (one hook refuses 401 without a session) or
// moderator (401 signed out, 403 for everyone else). A route under /api declared in no group, or in
// two, stops the app from starting: a route that forgets its scope must not quietly be public.

export type RouteScope = 'public' | 'signedIn' | 'moderator';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The group the route was declared in (set by the group, never by hand). */
    scope?: RouteScope;
  }
  interface FastifyRequest {
    /** The signed-in person, for the routes of the signed-in and moderator groups (their hook ran). */
    readonly signedInUser: SessionUser;
  }
}

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

async function refuseSignedOut(request: FastifyRequest) {
  if (!request.user) throw unauthorized();
}

async function refuseNonModerators(request: FastifyRequest) {
  if (!request.user) throw unauthorized();
  if (!request.user.isAdmin) throw forbidden(msg`Only CampusLoop moderators can do that.`);
}

const refusals: Record<RouteScope, ((request: FastifyRequest) => Promise<void>) | null> = {
  public: null,
  signedIn: refuseSignedOut,
  moderator: refuseNonModerators,
};

const nameOf = (route: Pick<RouteOptions, 'method' | 'url'>) =>
  `${[route.method].flat().join(',')} ${route.url}`;

function scoped(scope: RouteScope) {
  return <Options extends Record<string, unknown> = Record<never, never>>(
    routes: (app: ZodApp, opts: Options) => Promise<void>,
  ): FastifyPluginAsyncZod<Options> =>
    async (app, opts) => {
      app.addHook('onRoute', (route) => {
        const declared = route.config?.scope;
        // Fastify copies a GET route (config included) for its HEAD route; the same group again is fine.
        if (declared && declared !== scope) {
          throw new Error(`${nameOf(route)} is declared in two auth scopes: ${declared} and ${scope}`);
        }
        route.config = { ...route.config, scope };
      });
      const refuse = refusals[scope];
      // onRequest, as before the groups: a signed-out caller is refused before its body is read or
      // checked, and before a route's own hooks (rate limits count signed-in callers only).
      if (refuse) app.addHook('onRequest', refuse);
      await routes(app, opts);
    };
}

/** Routes anyone may call; a handler reads the optional `request.user`. */
export const publicRoutes = scoped('public');
/** Routes for a signed-in person: 401 without a session; handlers read `request.signedInUser`. */
export const signedInRoutes = scoped('signedIn');
/** Routes for moderators: 401 signed out, 403 for everyone else; handlers read `request.signedInUser`. */
export const moderatorRoutes = scoped('moderator');

/**
 * Registered once, before every route: remembers each /api route and, when the app gets ready, refuses
 * to start if one was declared in no group. Also gives requests their `signedInUser`.
 */
export default fp(
  async function routeScopes(app: FastifyInstance) {
    const apiRoutes: RouteOptions[] = [];
    // This hook runs before the group's (parents' first), so it keeps the route and looks at ready.
    app.addHook('onRoute', (route) => {
      if (route.url === '/api' || route.url.startsWith('/api/')) apiRoutes.push(route);
    });
    app.addHook('onReady', async () => {
      const stray = apiRoutes.filter((route) => !route.config?.scope);
      if (stray.length > 0) {
        throw new Error(
          `Every /api route is declared in publicRoutes, signedInRoutes or moderatorRoutes (http/route-scopes.ts); these are in none: ${stray.map(nameOf).join('; ')}`,
        );
      }
    });
    app.decorateRequest('signedInUser', {
      getter(this: FastifyRequest) {
        // Only a route of a public group can get here signed out: it meant request.user.
        if (!this.user) throw unauthorized();
        return this.user;
      },
    });
  },
  { name: 'route-scopes' },
);
