import { randomUUID } from 'node:crypto';
import Fastify, { type RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/composition/app.ts';
import { testConfig } from '../../src/server/config.ts';
import { startSession } from '../../src/server/features/auth/service.ts';
import routeScopes, {
  publicRoutes,
  type RouteScope,
  signedInRoutes,
} from '../../src/server/http/route-scopes.ts';
import { createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';
import { createTestDatabase } from '../helpers/test-database.ts';

// Who may call each /api route is said once, by the group it is declared in (src/server/http/route-scopes.ts).
// This table is every route and its group: a new route fails here until it is added, so its scope is a
// choice someone read. Each is then called signed out and as an ordinary student: the signed-in and
// moderator groups refuse with the same 401/403 answers as before the groups.

const SCOPES: Record<string, RouteScope> = {
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  'POST /api/auth/register': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/logout': 'public',
  'GET /api/auth/me': 'public',
  'POST /api/auth/verify-email': 'public',
  'POST /api/auth/resend-verification': 'public',
  'POST /api/auth/password-reset': 'public',
  'POST /api/auth/password-reset/confirm': 'public',
  'GET /api/account': 'signedIn',
  'PUT /api/account/profile': 'signedIn',
  'POST /api/account/photo': 'signedIn',
  'DELETE /api/account/photo': 'signedIn',
  'PUT /api/account/password': 'signedIn',
  'POST /api/account/email': 'signedIn',
  'DELETE /api/account/email': 'signedIn',
  'PUT /api/account/language': 'signedIn',
  'PUT /api/account/notification-preferences': 'signedIn',
  'GET /api/account/sessions': 'signedIn',
  'DELETE /api/account/sessions/:id': 'signedIn',
  'POST /api/account/sessions/sign-out-others': 'signedIn',
  'GET /api/account/export': 'signedIn',
  'POST /api/account/delete': 'signedIn',
  'POST /api/account/email/confirm': 'public',
  'GET /api/universities': 'public',
  'GET /api/universities/campus/:campus': 'public',
  'GET /api/universities/detect': 'public',
  'GET /api/notifications': 'signedIn',
  'GET /api/notifications/unread': 'signedIn',
  'POST /api/notifications/read-all': 'signedIn',
  'POST /api/notifications/:id/read': 'signedIn',
  'GET /api/conversations': 'signedIn',
  'GET /api/conversations/unread-count': 'signedIn',
  'POST /api/conversations': 'signedIn',
  'POST /api/reservations/:id/conversation': 'signedIn',
  'GET /api/conversations/:id/messages': 'signedIn',
  'POST /api/conversations/:id/read': 'signedIn',
  'POST /api/conversations/:id/messages': 'signedIn',
  'POST /api/upload/proxy': 'signedIn',
  'GET /api/items': 'public',
  'GET /api/items/:id': 'public',
  'POST /api/items': 'signedIn',
  'PUT /api/items/:id': 'signedIn',
  'DELETE /api/items/:id': 'signedIn',
  'GET /api/users/:id': 'public',
  'GET /api/items/:id/availability': 'public',
  'POST /api/create-payment-intent': 'signedIn',
  'GET /api/reservations': 'signedIn',
  'POST /api/reservations': 'signedIn',
  'POST /api/reservations/complete-payment': 'signedIn',
  'PUT /api/reservations/:id': 'signedIn',
  'POST /api/reservations/:id/approve': 'signedIn',
  'POST /api/reservations/:id/decline': 'signedIn',
  'POST /api/reservations/:id/card': 'signedIn',
  'POST /api/reservations/:id/claim': 'signedIn',
  'POST /api/reservations/:id/claim/accept': 'signedIn',
  'POST /api/reservations/:id/claim/dispute': 'signedIn',
  'GET /api/admin/claims': 'moderator',
  'GET /api/admin/claims/:id/chat': 'moderator',
  'POST /api/admin/claims/:id/decide': 'moderator',
  'POST /api/reservations/:id/extension-payment-intent': 'signedIn',
  'POST /api/reservations/:id/extensions': 'signedIn',
  'POST /api/extensions/:id/approve': 'signedIn',
  'POST /api/extensions/:id/decline': 'signedIn',
  'POST /api/extensions/:id/cancel': 'signedIn',
  'GET /api/reservations/:id/handovers': 'signedIn',
  'POST /api/reservations/:id/handovers': 'signedIn',
  'GET /api/items/:id/waitlist': 'signedIn',
  'POST /api/items/:id/waitlist': 'signedIn',
  'DELETE /api/waitlist/:id': 'signedIn',
  'GET /api/asks': 'signedIn',
  'POST /api/asks': 'signedIn',
  'POST /api/asks/:id/offers': 'signedIn',
  'DELETE /api/asks/:id': 'signedIn',
  'GET /api/saved-searches': 'signedIn',
  'POST /api/saved-searches': 'signedIn',
  'DELETE /api/saved-searches/:id': 'signedIn',
  'GET /api/push/status': 'signedIn',
  'POST /api/push/subscriptions': 'signedIn',
  'DELETE /api/push/subscriptions': 'signedIn',
  'GET /api/unsubscribe': 'public',
  'POST /api/unsubscribe': 'public',
  'POST /api/reviews': 'signedIn',
  'GET /api/reviews/mine': 'signedIn',
  'GET /api/payment-methods': 'signedIn',
  'POST /api/payment-methods/setup-intent': 'signedIn',
  'POST /api/payment-methods': 'signedIn',
  'PUT /api/payment-methods/:id': 'signedIn',
  'DELETE /api/payment-methods/:id': 'signedIn',
  'POST /api/payments/saved-card': 'signedIn',
  'GET /api/billing-history': 'signedIn',
  'GET /api/config': 'public',
  'POST /api/payments/webhook': 'public',
  'POST /api/webhooks/connect': 'public',
  'POST /api/reports': 'signedIn',
  'GET /api/reports': 'signedIn',
  'GET /api/admin/reports': 'moderator',
  'GET /api/admin/reports/:id': 'moderator',
  'POST /api/admin/reports/:id/notes': 'moderator',
  'POST /api/admin/reports/:id/resolve': 'moderator',
  'POST /api/admin/reports/:id/dismiss': 'moderator',
  'POST /api/admin/items/:id/hide': 'moderator',
  'POST /api/admin/items/:id/unhide': 'moderator',
  'POST /api/admin/users/:id/suspend': 'moderator',
  'POST /api/admin/users/:id/unsuspend': 'moderator',
  'GET /api/admin/payments': 'moderator',
  'GET /api/admin/payout-problems': 'moderator',
  'POST /api/admin/payout-problems/:kind/:id/retry': 'moderator',
  'POST /api/admin/asks/:id/hide': 'moderator',
  'POST /api/admin/asks/:id/unhide': 'moderator',
  'POST /api/admin/payment-steps/:id/retry': 'moderator',
  'POST /api/admin/payment-mismatches/:id/resolve': 'moderator',
  'GET /api/admin/journal-findings': 'moderator',
  'GET /api/admin/lender-totals': 'moderator',
  'GET /api/admin/disputes': 'moderator',
  'GET /api/admin/disputes/:id/evidence': 'moderator',
  'POST /api/admin/disputes/:id/evidence': 'moderator',
  'POST /api/admin/disputes/:id/finding': 'moderator',
  'POST /api/admin/disputes/:id/test-outcome': 'moderator',
  'GET /api/impact': 'public',
  'GET /api/impact/:campus': 'public',
  'GET /api/impact/:campus/leaderboard': 'public',
  'GET /api/impact/:campus/dashboard': 'public',
  'POST /api/payments/test/confirm': 'signedIn',
  'POST /api/payments/test/authenticate': 'signedIn',
  'POST /api/payments/test/confirm-setup': 'signedIn',
  'GET /api/payouts': 'signedIn',
  'POST /api/payouts/onboarding': 'signedIn',
  'GET /api/payouts/onboarding/refresh': 'signedIn',
  'POST /api/payouts/account/refresh': 'signedIn',
  'POST /api/payouts/dashboard': 'signedIn',
  'POST /api/payouts/test/onboarding': 'signedIn',
};

/**
 * Public routes that answer 401 to a signed-out caller of their own accord (the handler, not a group):
 * resending the link with no address named means "mine", which needs a session.
 */
const PUBLIC_BUT_401_WITHOUT_BODY = new Set(['POST /api/auth/resend-verification']);

const SIGNED_OUT = { status: 401, code: 'UNAUTHORIZED', message: 'Please sign in to continue.' };
const NOT_A_MODERATOR = {
  status: 403,
  code: 'FORBIDDEN',
  message: 'Only CampusLoop moderators can do that.',
};

const routes: RouteOptions[] = [];
const ctx = setupTestApp({}, { onRoute: (route) => void routes.push(route) });

/** Every /api route once per method (Fastify's own HEAD copies of GET routes aside). */
function apiRoutes() {
  return routes
    .filter((route) => route.url.startsWith('/api/'))
    .flatMap((route) =>
      [route.method]
        .flat()
        .filter((method) => method !== 'HEAD')
        .map((method) => ({ name: `${method} ${route.url}`, method, url: route.url, route })),
    );
}

/** The route's URL with a made-up id (or campus) in each parameter. */
const concrete = (url: string) =>
  url.replace(/:campus\b/g, 'stanford.edu').replace(/:[a-zA-Z]+/g, () => randomUUID());

describe('route scopes', () => {
  it('puts every /api route in exactly one scope, the one this table names', () => {
    const declared = Object.fromEntries(apiRoutes().map(({ name, route }) => [name, route.config?.scope]));
    expect(declared).toEqual(SCOPES);
    // HEAD copies of GET routes keep their GET route's scope.
    for (const route of routes.filter((r) => r.url.startsWith('/api/'))) {
      expect(route.config?.scope, `${route.method} ${route.url}`).toBeDefined();
    }
  });

  it('refuses a signed-out caller on every signed-in and moderator route, and no public route', async () => {
    for (const { name, method, url } of apiRoutes()) {
      const response = await ctx.request({ method: method as 'GET', url: concrete(url) });
      const scope = SCOPES[name];
      if (scope === 'public') {
        expect(response.statusCode, name).not.toBe(403);
        expect(response.statusCode, name).toBeLessThan(500);
        if (!PUBLIC_BUT_401_WITHOUT_BODY.has(name)) expect(response.statusCode, name).not.toBe(401);
      } else {
        expect({ name, status: response.statusCode, ...response.json() }).toEqual({ name, ...SIGNED_OUT });
      }
    }
  });

  it('lets a signed-in student past every public and signed-in route, and refuses them every moderator route', async () => {
    const student = await createSignedInUser(ctx.database.db);
    for (const { name, method, url } of apiRoutes()) {
      // A session of its own for each call: signing out, or out of other sessions, ends only that one.
      const { token } = await startSession(ctx.database.db, student.user.id, 30);
      const response = await ctx.request({
        method: method as 'GET',
        url: concrete(url),
        cookie: `cl_session=${token}`,
      });
      expect(response.statusCode, name).toBeLessThan(500);
      if (SCOPES[name] === 'moderator') {
        expect({ name, status: response.statusCode, ...response.json() }).toEqual({
          name,
          ...NOT_A_MODERATOR,
        });
      } else {
        expect([401, 403], `${name}: ${response.body}`).not.toContain(response.statusCode);
      }
    }
  });
});

describe('an app with a route in no scope', () => {
  it('refuses to start, naming the route', async () => {
    const database = await createTestDatabase();
    const app = await buildApp({ config: testConfig({ webDir: '/nonexistent' }), database, logger: false });
    try {
      app.get('/api/forgotten', async () => ({ open: true }));
      await expect(app.ready()).rejects.toThrow('GET /api/forgotten');
    } finally {
      await app.close().catch(() => {});
      await database.close();
    }
  });

  it('refuses a route declared in two scopes', async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    await app.register(routeScopes);
    await expect(
      app.register(
        signedInRoutes(async (signedIn) => {
          await signedIn.register(
            publicRoutes(async (open) => {
              open.get('/twice', async () => ({}));
            }),
          );
        }),
        { prefix: '/api' },
      ),
    ).rejects.toThrow('GET /api/twice is declared in two auth scopes: signedIn and public');
    await app.close().catch(() => {});
  });
});
