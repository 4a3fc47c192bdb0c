import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

// The lint rule of decisions 043 and 046 bites: Biome with the project's own plugins (from biome.json, as
// `npm run lint` runs them) over a tiny app whose features check the session route by route, the ways the
// code base did before the scopes, beside what the scopes allow.

const root = path.resolve(import.meta.dirname, '../..');
const biome = path.join(root, 'node_modules/.bin/biome');
let dir: string | undefined;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function write(file: string, code: string) {
  await mkdir(path.dirname(path.join(dir!, file)), { recursive: true });
  await writeFile(path.join(dir!, file), code);
}

it('reports per-route auth in features, and lets scoped routes and the infrastructure through', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'auth-declared-by-scope-'));
  const config = JSON.parse(await readFile(path.join(root, 'biome.json'), 'utf8')) as { plugins: string[] };
  const plugins = config.plugins.map((plugin) => path.resolve(root, plugin));
  await write('biome.json', JSON.stringify({ plugins }));
  const perRoute = [
    'export function orderRoutes(app: App) {',
    "  app.addHook('onRequest', async (request) => void requireUser(request));",
    "  app.addHook('preHandler', async (request) => {",
    '    if (!request.user?.isAdmin) throw forbidden(onlyModerators);',
    '  });',
    "  app.get('/orders', { onRequest: signedIn }, async (request) => list(request.user!.id));",
    "  app.delete('/orders/:id', async (request) => remove(requireAdmin(request).id));",
    '}',
    '',
  ].join('\n');
  await write('src/server/features/orders/routes.ts', perRoute);
  // The scope's own hook lives in the infrastructure, where it belongs.
  await write('src/server/http/route-scopes.ts', perRoute);
  await write(
    'src/server/features/orders/scoped.ts',
    [
      'export const orderRoutes = signedInRoutes(async (app) => {',
      "  app.addHook('onClose', async () => stop());",
      "  app.get('/orders', { preHandler: perAccount }, async (request) => list(request.signedInUser.id));",
      "  const perPerson = { keyGenerator: (request: R) => 'orders:' + (request.user?.id ?? request.ip) };",
      "  app.post('/orders', { config: { rateLimit: perPerson } }, async (request) => add(request.signedInUser));",
      '});',
      'export const catalogue = publicRoutes(async (app) => {',
      "  app.get('/catalogue', async (request) => list(request.user?.id));",
      '});',
      '',
    ].join('\n'),
  );

  // In a signed-in or moderator scope the person is always there: the optional one was not meant.
  await write(
    'src/server/features/orders/moderation.ts',
    [
      'export const moderation = moderatorRoutes(async (app) => {',
      "  app.get('/queue', async (request) => queue(request.user?.id));",
      '});',
      '',
    ].join('\n'),
  );

  const found = await promisify(execFile)(biome, ['lint', '--only=plugin', '--reporter=github', '.'], {
    cwd: dir,
  }).then(
    ({ stdout }) => stdout,
    (error: { stdout: string }) => error.stdout,
  );
  const reported = found
    .split('\n')
    .filter((line) => line.startsWith('::error title=plugin'))
    .map((line) => {
      const [, file, at] = /file=([^,]+),line=(\d+)/.exec(line)!;
      return `${path.relative(dir!, file!)}:${at}`;
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
