import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signal } from '../../../tests/helpers/signal.ts';
import { keepStatements } from './pglite-statements.ts';

// The embedded database's statements kept prepared by name must answer exactly as PGlite's own query
// does, for every kind of value sent and read, with its errors, and never inside another's transaction.

describe("PGlite's statements kept prepared", () => {
  let plain: PGlite;
  let kept: PGlite;
  const prepared = async (client: PGlite) =>
    (await client.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map(
      (r) => r.statement,
    );

  beforeAll(async () => {
    plain = await PGlite.create();
    kept = await PGlite.create();
    keepStatements(kept, 3);
    for (const client of [plain, kept]) {
      await client.exec(`create table things (
        id uuid primary key, name text not null unique, tags text[], details jsonb, price numeric(10,2),
        at timestamptz, day date, count int, fine boolean)`);
    }
    // Two databases start in WebAssembly: seconds each on a busy machine.
  }, 60_000);
  afterAll(async () => {
    await plain.close();
    await kept.close();
  });

  const insert = `insert into things (id, name, tags, details, price, at, day, count, fine)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *`;
  const rowsOf = (n: number) => [
    `00000000-0000-4000-8000-00000000000${n}`,
    `Lamp ${n}, "desk" {and} [its] 'bulb'`,
    ['a', 'b c', n % 2 ? null : 'd,"e"'],
    { watts: 40 + n, nested: { list: [1, 'two'] } },
    '12.50',
    new Date(Date.UTC(2026, 11, 1, 10, n, 0, 123)),
    '2026-12-01',
    n,
    n % 2 === 0,
  ];

  it('answers as PGlite does, for every kind of value sent and read, in either row mode', async () => {
    for (const n of [1, 2, 3]) {
      expect(await kept.query(insert, rowsOf(n))).toEqual(await plain.query(insert, rowsOf(n)));
    }
    const select = 'select * from things where count >= $1 and name like $2 order by count';
    for (const options of [undefined, { rowMode: 'array' as const }]) {
      for (let i = 0; i < 2; i++) {
        expect(await kept.query(select, [2, 'Lamp%'], options)).toEqual(
          await plain.query(select, [2, 'Lamp%'], options),
        );
      }
    }
    const nulls = 'select $1::text as a, $2::int as b';
    for (let i = 0; i < 2; i++) {
      expect(await kept.query(nulls, [null, undefined])).toEqual(await plain.query(nulls, [null, undefined]));
    }
  });

  it('prepares a statement by name the second time it is asked, and keeps no more than it may', async () => {
    const once = 'select count(*) from things where count = $1';
    await kept.query(once, [1]);
    expect(await prepared(kept)).not.toContain(once);
    await kept.query(once, [2]);
    expect(await prepared(kept)).toContain(once);
    for (const n of [1, 2, 3, 4]) {
      const text = `select ${n} as n, count(*) from things`;
      await kept.query(text);
      expect((await kept.query<{ n: number }>(text)).rows[0]!.n).toBe(n);
    }
    const left = await prepared(kept);
    expect(left).toHaveLength(3);
    expect(left).not.toContain(once);
  });

  it("fails as PGlite does, with PostgreSQL's code, and goes on answering", async () => {
    const failure = async (client: PGlite) =>
      client.query(insert, rowsOf(1)).then(
        () => undefined,
        (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
      );
    for (let i = 0; i < 2; i++) expect(await failure(kept)).toEqual(await failure(plain));
    const count = 'select count(*)::int as n from things';
    await kept.query(count);
    expect((await kept.query<{ n: number }>(count)).rows).toEqual([{ n: 3 }]);
    expect(kept.isInTransaction()).toBe(false);
  });

  it('answers many statements asked at once, kept, first asked and evicted, beside transactions that fail', async () => {
    // More texts than it may keep (3): statements are prepared and closed while others wait to run.
    const texts = [1, 2, 3, 4, 5].map((n) => `select $1::int * ${n} as n, count(*)::int as c from things`);
    const failing = kept.transaction(async (tx) => {
      await tx.query(insert, rowsOf(8));
      await tx.query(insert, rowsOf(1)); // its name is taken: the transaction rolls back
    });
    const asked = Array.from({ length: 60 }, (_, i) =>
      kept.query<{ n: number; c: number }>(texts[i % 5]!, [i]).then((r) => r.rows[0]),
    );
    await expect(failing).rejects.toMatchObject({ code: '23505' });
    const answers = await Promise.all(asked);
    expect(answers).toEqual(Array.from({ length: 60 }, (_, i) => ({ n: i * ((i % 5) + 1), c: 3 })));
    expect((await prepared(kept)).length).toBeLessThanOrEqual(3);
    expect(kept.isInTransaction()).toBe(false);
  });

  it("never runs inside another's transaction: it waits for it to end", async () => {
    const count = 'select count(*)::int as n from things';
    await kept.query(count);
    const held = signal();
    const inserted = signal();
    const transaction = kept.transaction(async (tx) => {
      await tx.query(insert, rowsOf(7));
      inserted.fire();
      await held.done;
      await tx.rollback();
    });
    await inserted.done;
    const asked = kept.query<{ n: number }>(count);
    held.fire();
    await transaction;
    // Run after the rollback, not inside the transaction that saw the new row.
    expect((await asked).rows).toEqual([{ n: 3 }]);
  });
});
