import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { parameterised } from './queue.ts';

// pg-boss's SQL, with its $n placeholders, is run on the caller's Drizzle transaction: the text must
// reach the database unchanged and every value as a parameter, in the right place.

const dialect = new PgDialect();

describe('parameterised', () => {
  it('keeps the text and binds each placeholder, two-digit ones and repeats included', () => {
    const values = Array.from({ length: 12 }, (_, i) => `v${i + 1}`);
    const query = dialect.sqlToQuery(parameterised('select $1, $12, $2, $1 from t where a = $10', values));
    expect(query.sql).toBe('select $1, $2, $3, $4 from t where a = $5');
    expect(query.params).toEqual(['v1', 'v12', 'v2', 'v1', 'v10']);
  });

  it('sends job data as JSON text, absent values as null, and dates as they are', () => {
    const at = new Date('2026-11-24T10:00:00Z');
    const query = dialect.sqlToQuery(
      parameterised('insert into j values ($1::jsonb, $2, $3)', [{ a: [1, 2] }, undefined, at]),
    );
    expect(query.params).toEqual(['{"a":[1,2]}', null, at]);
  });

  it('leaves text without placeholders alone', () => {
    expect(dialect.sqlToQuery(parameterised('select 1')).sql).toBe('select 1');
  });
});
