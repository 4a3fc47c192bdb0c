import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// No two web features import each other, not even each through the other's api.ts (decision 047): such a
// pair changes together and cannot be read apart; the part both need belongs below them (src/web/lib,
// src/web/components). dependency-cruiser's rules judge one import at a time, so the pairs are counted here.

const root = path.resolve(import.meta.dirname, '../..');
const depcruise = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const FEATURE = /^src\/web\/features\/([^/]+)\//;

/** The features of each import from one web feature into another, as "from -> to". */
function featureImports(modules: { source: string; dependencies: { resolved: string }[] }[]): string[] {
  return modules.flatMap((module) => {
    const from = FEATURE.exec(module.source)?.[1];
    return module.dependencies.flatMap((dependency) => {
      const to = FEATURE.exec(dependency.resolved)?.[1];
      return from && to && from !== to ? [`${from} -> ${to}`] : [];
    });
  });
}

/** Each pair of features that import each other, once, as "a <-> b" (a before b). */
function mutualPairs(imports: readonly string[]): string[] {
  const pairs = new Set(imports);
  return [...pairs]
    .map((pair) => pair.split(' -> ') as [string, string])
    .filter(([from, to]) => from < to && pairs.has(`${to} -> ${from}`))
    .map(([from, to]) => `${from} <-> ${to}`)
    .sort();
}

describe('web features that import each other', () => {
  it('are found, whichever files of the two the imports join', () => {
    const modules = [
      {
        source: 'src/web/features/cart/api.ts',
        dependencies: [{ resolved: 'src/web/features/checkout/api.ts' }],
      },
      {
        source: 'src/web/features/checkout/pay.ts',
        dependencies: [{ resolved: 'src/web/features/cart/api.ts' }],
      },
      {
        source: 'src/web/features/cart/list.ts',
        dependencies: [{ resolved: 'src/web/features/cart/api.ts' }],
      },
      { source: 'src/web/routes/home.tsx', dependencies: [{ resolved: 'src/web/features/cart/api.ts' }] },
      {
        source: 'src/web/features/orders/api.ts',
        dependencies: [{ resolved: 'src/web/features/cart/api.ts' }],
      },
    ];
    expect(mutualPairs(featureImports(modules))).toEqual(['cart <-> checkout']);
  });

  it('are none in src/web', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [depcruise, '--config', path.join(root, '.dependency-cruiser.cjs'), '--output-type', 'json', 'src/web'],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
    );
    expect(mutualPairs(featureImports(JSON.parse(stdout).modules))).toEqual([]);
  }, 60_000);
});
