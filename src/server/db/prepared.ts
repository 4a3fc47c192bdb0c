import type { Db } from './client.ts';

// Statements built once per database and prepared by name on PostgreSQL. Building a statement's SQL
// through Drizzle on every request was a fifth of the server's CPU for the unread polls (decision 070),
// and an unnamed statement is parsed and planned by PostgreSQL each time too. A prepared statement's
// values are placeholders (`sql.placeholder`), passed at `execute`.

const built = new WeakMap<Db, Map<string, unknown>>();

/**
 * The statement `name` of this database, built by `build` the first time it is asked for. `name` is
 * also the statement's name on PostgreSQL, so it must say everything that makes two builds differ.
 */
export function preparedOnce<T>(db: Db, name: string, build: (name: string) => T): T {
  let forDb = built.get(db);
  if (!forDb) {
    forDb = new Map();
    built.set(db, forDb);
  }
  let statement = forDb.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(name);
    forDb.set(name, statement);
  }
  return statement;
}
