import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { logError } from './log-errors.ts';

/** What node-postgres throws for a unique violation: the value is in `detail`. */
function pgUniqueViolation() {
  return Object.assign(new Error('duplicate key value violates unique constraint "users_email_lower"'), {
    name: 'error',
    code: '23505',
    severity: 'ERROR',
    detail: 'Key (lower(email))=(ada@stanford.edu) already exists.',
    table: 'users',
    constraint: 'users_email_lower',
    where: "unnamed portal parameter $1 = '...'",
  });
}

describe('logError', () => {
  it("keeps Drizzle's SQL and the database's code, constraint and table, but none of the values", () => {
    const query = 'insert into "users" ("email", "password_hash") values ($1, $2)';
    const error = new DrizzleQueryError(
      query,
      ['ada@stanford.edu', '$argon2id$v=19$secret'],
      pgUniqueViolation(),
    );
    const logged = logError(error);
    const text = JSON.stringify(logged);
    expect(text).not.toContain('ada@stanford.edu');
    expect(text).not.toContain('argon2');
    expect(text).not.toContain('portal parameter');
    expect(logged).toMatchObject({
      type: 'DrizzleQueryError',
      message: `Failed query: ${query}`,
      query,
      cause: {
        code: '23505',
        constraint: 'users_email_lower',
        table: 'users',
        message: 'duplicate key value violates unique constraint "users_email_lower"',
      },
    });
    expect(logged.stack).toMatch(/^Error: Failed query: insert into "users"[^\n]*\n\s+at /);
  });

  it('cuts the value a data error quotes at the end of its message', () => {
    const error = Object.assign(new Error('invalid input syntax for type uuid: "secret-value"'), {
      code: '22P02',
    });
    const logged = logError(error);
    expect(logged.message).toBe('invalid input syntax for type uuid: "…"');
    expect(JSON.stringify(logged)).not.toContain('secret-value');
  });

  it('leaves other errors as they are, with their causes', () => {
    const error = new Error('mail server unreachable', { cause: new Error('ECONNREFUSED') });
    expect(logError(error)).toMatchObject({
      type: 'Error',
      message: 'mail server unreachable',
      cause: { message: 'ECONNREFUSED' },
    });
  });
});
