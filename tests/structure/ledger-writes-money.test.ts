import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

// The lint rule of decision 045 bites: Biome with the project's own plugins (from biome.json, as
// `npm run lint` runs them) over a tiny app that writes billing rows, earning entries and payment steps
// from the ledger, where it may, and from other features, where it may not.

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

it('reports money writes outside src/server/features/ledger, and lets the ledger and reads through', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ledger-writes-money-'));
  const config = JSON.parse(await readFile(path.join(root, 'biome.json'), 'utf8')) as { plugins: string[] };
  const plugins = config.plugins.map((plugin) => path.resolve(root, plugin));
  await write('biome.json', JSON.stringify({ plugins }));
  const writes = [
    'export async function f(db: Db, tx: Db) {',
    '  await db.insert(billingHistory).values(row);',
    '  await tx.update(billingHistory).set({ status: "refunded" });',
    '  await tx.delete(billingHistory).where(x);',
    '  await tx.insert(paymentSteps).values(step);',
    '  await tx.insert(earningEntries).values(entry);',
    '  await tx.update(earningEntries).set(entry);',
    '  await tx.insert(paymentStepRows).values(link);',
    '}',
    '',
  ].join('\n');
  await write('src/server/features/orders/service.ts', writes);
  await write('src/server/features/ledger/queries.ts', writes);
  await write(
    'src/server/features/orders/queries.ts',
    [
      'export async function g(db: Db) {',
      '  await db.select().from(billingHistory);',
      // The runner's own state of a step is the payment-steps feature's to change.
      '  await db.update(paymentSteps).set({ status: "running" });',
      '}',
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
    .filter((line) => line.startsWith('::error title=plugin') && line.includes('ledger'))
    .map((line) => {
      const [, file, at] = /file=([^,]+),line=(\d+)/.exec(line)!;
      return `${path.relative(dir!, file!)}:${at}`;
    });
  expect(reported).toEqual([2, 3, 4, 5, 6, 7, 8].map((n) => `src/server/features/orders/service.ts:${n}`));
}, 60_000);
