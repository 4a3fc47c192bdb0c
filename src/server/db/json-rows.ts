import { Column, is, SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';

// A page's lists read inside the page's one statement: each list is a subquery aggregated into a JSON
// array, so the page costs one round trip and one checkout (decision 064). The rows come back as
// PostgreSQL's JSON of the same columns, decoded by the same columns' decoders as a plain select's, so
// the answer is the one the separate statements gave (timestamps, arrays, counts alike).

/** Builds subqueries without a database: they are sent inside a statement that has one. */
export const subqueries = new QueryBuilder();

type Leaf = Column | SQL | SQL.Aliased;
export type Fields = { [key: string]: Leaf | Fields };

interface Flat {
  path: string[];
  leaf: Leaf;
}

function flatten(fields: Fields, path: string[] = [], into: Flat[] = []): Flat[] {
  for (const [key, value] of Object.entries(fields)) {
    if (is(value, Column) || is(value, SQL) || is(value, SQL.Aliased))
      into.push({ path: [...path, key], leaf: value });
    else flatten(value, [...path, key], into);
  }
  return into;
}

function decoderOf(leaf: Leaf): (value: unknown) => unknown {
  if (is(leaf, Column)) return (value) => leaf.mapFromDriverValue(value);
  // Drizzle's own result mapping reads the same decoder (`mapWith`), which its types keep internal.
  const { decoder } = (is(leaf, SQL.Aliased) ? leaf.sql : leaf) as unknown as {
    decoder: { mapFromDriverValue(value: unknown): unknown };
  };
  return (value) => decoder.mapFromDriverValue(value);
}

/** What PostgreSQL's json arrives as: parsed by the driver, or its text. */
function parsed(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/**
 * `fields` (a select's fields, nested objects allowed) as one JSON array per row (`row`, for a
 * subquery's select list), and the decoder of a list of such rows back to what the select returns.
 * json_build_array keeps the columns' order without their names (and takes up to 100 of them).
 */
export function jsonRow<F extends Fields>(fields: F) {
  const flat = flatten(fields);
  const decoders = flat.map(({ leaf }) => decoderOf(leaf));
  const row = sql`json_build_array(${sql.join(
    flat.map(({ leaf }) => (is(leaf, SQL.Aliased) ? leaf.sql : leaf)),
    sql`, `,
  )})`;
  const decodeOne = (values: unknown[]): SelectResultFields<F> => {
    const result: Record<string, unknown> = {};
    flat.forEach(({ path }, index) => {
      const value = values[index];
      let target = result;
      for (const key of path.slice(0, -1)) {
        target[key] ??= {};
        target = target[key] as Record<string, unknown>;
      }
      target[path.at(-1)!] = value === null || value === undefined ? null : decoders[index]!(value);
    });
    return result as SelectResultFields<F>;
  };
  return {
    /** The row as a JSON array, named `row` for jsonList. */
    row: row.as('row'),
    /** A jsonList's value (or one row's array) back to the rows the fields' select returns. */
    decodeList: (json: unknown): SelectResultFields<F>[] => (parsed(json) as unknown[][]).map(decodeOne),
    decodeOne: (json: unknown): SelectResultFields<F> => decodeOne(parsed(json) as unknown[]),
  };
}

/**
 * The rows of `query` (a select of one jsonRow's `row`) as one JSON array, in the query's order ('[]'
 * without any): a scalar subquery for a page's select list.
 */
export function jsonList(query: SQLWrapper): SQL<unknown> {
  return sql`(select coalesce(json_agg(listed."row"), '[]'::json) from (${query}) as listed)`;
}
