import { expect, it } from 'vitest';
import { pluginDiagnostics } from './lint-plugins.ts';

// The lint rule of decision 045 bites: a tiny app that writes billing rows, earning entries and payment
// steps from the ledger, where it may, and from other features, where it may not.

it('reports money writes outside src/server/features/ledger, and lets the ledger and reads through', async () => {
  const writes = [
    'export async function f(db: Db, tx: Db) {',
    '  await db.insert(billingHistory).values(row);',
    '  await tx.update(billingHistory).set({ status: "refunded" });',
    '  await tx.delete(billingHistory).where(x);',
    '  await tx.insert(paymentSteps).values(step);',
    '  await tx.insert(earningEntries).values(entry);',
    '  await tx.update(earningEntries).set(entry);',
    '  await tx.insert(paymentStepRows).values(link);',
    '  await tx.insert(journalTransactions).values(posting);',
    '  await tx.insert(journalLines).values(lines);',
    '}',
  ];
  const reported = await pluginDiagnostics(
    {
      'src/server/features/orders/service.ts': writes,
      'src/server/features/ledger/queries.ts': writes,
      'src/server/features/orders/queries.ts': [
        'export async function g(db: Db) {',
        '  await db.select().from(billingHistory);',
        // The runner's own state of a step is the payment-steps feature's to change.
        '  await db.update(paymentSteps).set({ status: "running" });',
        '}',
      ],
    },
    'ledger',
  );
  expect(reported).toEqual(
    [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `src/server/features/orders/service.ts:${n}`),
  );
}, 60_000);
