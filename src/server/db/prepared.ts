import { type Placeholder, sql } from 'drizzle-orm';
import type { Db } from './client.ts';

// Statements built once per database and prepared by name on PostgreSQL. Building a statement's SQL
// through Drizzle on every request was a fifth of the server's CPU for the unread polls (decision 070),
// and an unnamed statement is parsed and planned by PostgreSQL each time too. A prepared statement's
// values are placeholders (`sql.placeholder`), passed at `execute`.

const built = new WeakMap<Db, Map<string, unknown>>();
/** PostgreSQL's NAMEDATALEN less one. */
const MAX_NAME_BYTES = 63;

/**
 * The statement `name` of this database, built by `build` the first time it is asked for. `name` is
 * also the statement's name on PostgreSQL, so it must say everything that makes two builds differ, in
 * at most 63 bytes (PostgreSQL cuts longer names, and two cut alike would share a statement).
 */
export function preparedOnce<T>(db: Db, name: string, build: (name: string) => T): T {
  let forDb = built.get(db);
  if (!forDb) {
    forDb = new Map();
    built.set(db, forDb);
  }
  let statement = forDb.get(name) as T | undefined;
  if (statement === undefined) {
    statementName(name);
    statement = build(name);
    forDb.set(name, statement);
  }
  return statement;
}

/** `name`, if PostgreSQL can keep it whole as a statement's name; else an error, at build time. */
export function statementName(name: string): string {
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new Error(`A statement's name over 63 bytes: ${name}`);
  return name;
}

/**
 * A whole-number placeholder PostgreSQL cannot see when it plans (an InitPlan, `(select $n::int)`), for
 * a LIMIT or OFFSET of a statement prepared by name. Seen, a page's size made every plan made for its
 * values look cheaper than the one kept for all values, so PostgreSQL planned every run again (Home's
 * page: 0.66 ms of planning for 0.2 ms of work, decision 072); unseen, both cost the same and the kept
 * plan is used from the sixth run on. Typed as the placeholder it stands for: Drizzle writes any SQL
 * it is given after LIMIT and OFFSET as it is.
 */
export function unseenByPlanner<N extends string>(name: N): Placeholder<N> {
  return sql`(select ${sql.placeholder(name)}::int)` as unknown as Placeholder<N>;
}
