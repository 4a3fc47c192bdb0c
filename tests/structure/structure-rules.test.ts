import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

// The structure rules bite: the project's own .dependency-cruiser.cjs, run as `npm run lint` runs it,
// over a tiny app in fixture/ that breaks each rule once and also does what the rules allow.

const root = path.resolve(import.meta.dirname, '../..');
/** The `depcruise` command (the package's exports do not include its bin). */
const depcruise = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

it('reports each broken rule of .dependency-cruiser.cjs, and nothing the rules allow', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [depcruise, '--config', path.join(root, '.dependency-cruiser.cjs'), '--output-type', 'json', 'src'],
    { cwd: path.join(import.meta.dirname, 'fixture'), maxBuffer: 16 * 1024 * 1024 },
  );
  const violations = (JSON.parse(stdout).summary.violations as Violation[])
    .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
    .sort();
  expect(violations).toEqual([
    'below-http-not-to-http: src/server/db/sessions.ts -> src/server/http/scopes.ts',
    'composition-on-top: src/server/db/seed.ts -> src/server/composition/app.ts',
    'composition-on-top: src/server/features/orders/checkout.ts -> src/server/composition/app.ts',
    'feature-through-service: src/server/features/orders/routes.ts -> src/server/features/items/queries.ts',
    'feature-through-service: src/server/features/orders/service.ts -> src/server/features/items/queries.ts',
    'infrastructure-below-features: src/server/http/session.ts -> src/server/features/items/service.ts',
    // A loop is reported once, at the edge where the checker closed it.
    'no-circular: src/server/plugins/first.ts -> src/server/plugins/second.ts',
    'resolvable: src/web/missing.ts -> ./not-there.ts',
    'shared-no-node: src/shared/uses-node.ts -> path',
    'shared-only-shared: src/shared/uses-server.ts -> src/server/config.ts',
    'web-feature-not-to-pages: src/web/features/checkout/pay.ts -> src/web/routes/home-page.ts',
    'web-feature-through-api: src/web/features/checkout/pay.ts -> src/web/features/cart/cart-total.ts',
    'web-lib-no-feature: src/web/lib/total-label.ts -> src/web/features/cart/api.ts',
    'web-not-to-server: src/web/page.ts -> src/server/config.ts',
  ]);
}, 60_000);
