import { expect, it } from 'vitest';
import { pluginDiagnostics } from './lint-plugins.ts';

// The lint rule of decision 042 bites: a tiny app that opens transactions where it may and where it may not.

it('reports .transaction( outside src/server/db, and lets the helper and src/server/db through', async () => {
  const raw = [
    'export async function f(db: Db, tx: Db) {',
    '  await db.transaction(async () => 1);',
    '  await tx.transaction(async () => 2);',
    '}',
  ];
  const reported = await pluginDiagnostics({
    'src/server/features/orders/service.ts': raw,
    'src/server/db/transaction.ts': raw,
    'src/server/features/orders/helper.ts': ['export const g = (db: Db) => transaction(db, async () => 1);'],
  });
  expect(reported).toEqual([
    'src/server/features/orders/service.ts:2',
    'src/server/features/orders/service.ts:3',
  ]);
}, 60_000);
