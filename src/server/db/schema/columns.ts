import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, timestamp, uuid } from 'drizzle-orm/pg-core';

// Column and check helpers shared by the schema files.

export const id = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A required link to another row, deleted with it (a person's rows go when the person does). */
export const cascadingRef = (name: string, target: () => AnyPgColumn) =>
  uuid(name).notNull().references(target, { onDelete: 'cascade' });

/** `column IN ('a','b')` from one of the constant lists, so the database refuses what the spec does not know. */
export function oneOf(column: SQL | { name: string }, values: readonly string[]): SQL {
  const list = sql.raw(values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', '));
  return sql`${column} in (${list})`;
}
