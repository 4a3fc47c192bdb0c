import { expect, it } from 'vitest';
import { pluginDiagnostics } from './lint-plugins.ts';

// The lint rule of decisions 043 and 046 bites: a tiny app whose features check the session route by
// route, the ways the code base did before the scopes, beside what the scopes allow.

it('reports per-route auth in features, and lets scoped routes and the infrastructure through', async () => {
  const perRoute = [
    'export function orderRoutes(app: App) {',
    "  app.addHook('onRequest', async (request) => void requireUser(request));",
    "  app.addHook('preHandler', async (request) => {",
    '    if (!request.user?.isAdmin) throw forbidden(onlyModerators);',
    '  });',
    "  app.get('/orders', { onRequest: signedIn }, async (request) => list(request.user!.id));",
    "  app.delete('/orders/:id', async (request) => remove(requireAdmin(request).id));",
    '}',
  ];
  const reported = await pluginDiagnostics({
    'src/server/features/orders/routes.ts': perRoute,
    // The scope's own hook lives in the infrastructure, where it belongs.
    'src/server/http/route-scopes.ts': perRoute,
    'src/server/features/orders/scoped.ts': [
      'export const orderRoutes = signedInRoutes(async (app) => {',
      "  app.addHook('onClose', async () => stop());",
      "  app.get('/orders', { preHandler: perAccount }, async (request) => list(request.signedInUser.id));",
      "  const perPerson = { keyGenerator: (request: R) => 'orders:' + (request.user?.id ?? request.ip) };",
      "  app.post('/orders', { config: { rateLimit: perPerson } }, async (request) => add(request.signedInUser));",
      '});',
      'export const catalogue = publicRoutes(async (app) => {',
      "  app.get('/catalogue', async (request) => list(request.user?.id));",
      '});',
    ],
    // In a signed-in or moderator scope the person is always there: the optional one was not meant.
    'src/server/features/orders/moderation.ts': [
      'export const moderation = moderatorRoutes(async (app) => {',
      "  app.get('/queue', async (request) => queue(request.user?.id));",
      '});',
    ],
  });
  // Line 6 twice: the route's own onRequest, and the non-null user it reads.
  expect(reported.sort()).toEqual([
    'src/server/features/orders/moderation.ts:2',
    'src/server/features/orders/routes.ts:2',
    'src/server/features/orders/routes.ts:3',
    'src/server/features/orders/routes.ts:6',
    'src/server/features/orders/routes.ts:6',
    'src/server/features/orders/routes.ts:7',
  ]);
}, 60_000);
