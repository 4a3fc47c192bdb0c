import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

// The lint rule of decision 042 bites: Biome with the project's own plugins (from biome.json, as
// `npm run lint` runs them) over a tiny app that opens transactions where it may and where it may not.

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

it('reports .transaction( outside src/server/db, and lets the helper and src/server/db through', async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'one-transaction-helper-'));
  const config = JSON.parse(await readFile(path.join(root, 'biome.json'), 'utf8')) as { plugins: string[] };
  const plugins = config.plugins.map((plugin) => path.resolve(root, plugin));
  await write('biome.json', JSON.stringify({ plugins }));
  const raw =
    'export async function f(db: Db, tx: Db) {\n  await db.transaction(async () => 1);\n  await tx.transaction(async () => 2);\n}\n';
  await write('src/server/features/orders/service.ts', raw);
  await write('src/server/db/transaction.ts', raw);
  await write(
    'src/server/features/orders/helper.ts',
    'export const g = (db: Db) => transaction(db, async () => 1);\n',
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
  expect(reported).toEqual([
    'src/server/features/orders/service.ts:2',
    'src/server/features/orders/service.ts:3',
  ]);
}, 60_000);
