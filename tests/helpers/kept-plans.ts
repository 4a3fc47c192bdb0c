import { sql } from 'drizzle-orm';
import { campusToday } from '#shared/calendar.ts';
import type { Db } from '../../src/server/db/client.ts';
import type { SearchFilters } from '../../src/server/features/items/queries.ts';

// How PostgreSQL plans a statement prepared by name, as it does for the app's: run on one connection
// `runs` times with the same values, it either keeps one plan for all values (generic) or plans every
// run for its values (custom). A statement whose kept plan is as good should be kept: planning can
// cost several times the work itself.

/** A value as an SQL literal, for EXECUTE. */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `'${String(value).replaceAll("'", "''")}'`;
}

/** How many of `runs` executions of `statement` PostgreSQL ran with its kept plan, and how many it planned. */
export async function plansOf(
  db: Db,
  statement: { sql: string; params: unknown[] },
  runs = 8,
): Promise<{ generic: number; custom: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`prepare planned_here as ${statement.sql}`));
    try {
      const values = statement.params.map(literal).join(', ');
      for (let i = 0; i < runs; i++) await tx.execute(sql.raw(`execute planned_here(${values})`));
      const [row] = (
        await tx.execute<{ generic_plans: string | number; custom_plans: string | number }>(
          sql.raw(
            `select generic_plans, custom_plans from pg_prepared_statements where name = 'planned_here'`,
          ),
        )
      ).rows;
      return { generic: Number(row?.generic_plans), custom: Number(row?.custom_plans) };
    } finally {
      await tx.execute(sql.raw('deallocate planned_here'));
    }
  });
}

/** The plan PostgreSQL keeps for `statement` (as with force_generic_plan), as EXPLAIN's JSON text. */
export async function keptPlanOf(db: Db, statement: { sql: string; params: unknown[] }): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw('set local plan_cache_mode = force_generic_plan'));
    await tx.execute(sql.raw(`prepare kept_here as ${statement.sql}`));
    try {
      const explained = await tx.execute(
        sql.raw(`explain (format json) execute kept_here(${statement.params.map(literal).join(', ')})`),
      );
      return JSON.stringify(explained.rows);
    } finally {
      await tx.execute(sql.raw('deallocate kept_here'));
    }
  });
}

/** A list's or search's filters as the items service passes them: a first page of 12, today's campus day. */
export function filtersFor(over: Partial<SearchFilters>): SearchFilters {
  return { limit: 12, offset: 0, today: campusToday('America/Los_Angeles'), now: new Date(), ...over };
}
