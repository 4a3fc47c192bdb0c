import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client.ts';

// "Bad input changes nothing", checked on the whole database: the row count of every table of the
// public schema, so a table added later is counted without anyone listing it here.

export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const { rows: tables } = await db.execute<{ name: string }>(sql`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
    order by table_name`);
  if (tables.length === 0) return {};
  const counts = tables.map(
    ({ name }) => sql`select ${name}::text as name, count(*)::int as n from ${sql.identifier(name)}`,
  );
  const { rows } = await db.execute<{ name: string; n: number }>(sql.join(counts, sql` union all `));
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}
