import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/server/composition/app.ts';
import { testConfig } from '../../src/server/config.ts';
import type { Database } from '../../src/server/db/client.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { ORIGIN } from '../helpers/test-app.ts';
import { createTestDatabase } from '../helpers/test-database.ts';

// A query that fails in the database must not write its bound values to the log (password
// hashes, e-mails, message text). Triggers make the database refuse a write, the way a constraint or
// an outage would, and the test reads what the app's own logger wrote.

let database: Database;
let app: App;
let outboxDir: string;
const lines: string[] = [];
const logged = () => lines.join('\n');

beforeAll(async () => {
  database = await createTestDatabase();
  outboxDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-outbox-'));
  const base = testConfig();
  const config = testConfig({ webDir: '/nonexistent', mail: { ...base.mail, outboxDir } });
  app = await buildApp({
    config,
    database,
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
  });
  await app.ready();
  // The database refuses new users and new messages, quoting the refused value in its DETAIL, as
  // PostgreSQL's own unique violations do ("Key (email)=(…) already exists").
  await database.db.execute(
    sql.raw(`create function refuse_for_log_test() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'users' then
        raise exception 'refused by the log test' using detail = 'Key (email)=(' || new.email || ') already exists.';
      end if;
      raise exception 'refused by the log test' using detail = 'Failing row contains (' || new.content || ').';
    end $$`),
  );
  await database.db.execute(
    sql.raw(`create trigger refuse_users before insert on users
      for each row when (new.full_name = 'Refused Person') execute function refuse_for_log_test()`),
  );
  await database.db.execute(
    sql.raw(`create trigger refuse_messages before insert on messages
      for each row execute function refuse_for_log_test()`),
  );
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  if (outboxDir) rmSync(outboxDir, { recursive: true, force: true });
});

beforeEach(() => {
  lines.length = 0;
});

function errorEntries() {
  return lines
    .map((line) => JSON.parse(line) as { level: number; msg: string; err?: Record<string, unknown> })
    .filter((entry) => entry.level >= 50);
}

describe('database errors in the log', () => {
  it('a failed sign-up logs the SQL and the error code, but no e-mail, password or hash', async () => {
    const email = 'refused.person@stanford.edu';
    const password = 'my-secret-password-123';
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { origin: ORIGIN, host: 'localhost:80' },
      payload: {
        fullName: 'Refused Person',
        username: 'refused_person',
        email,
        campus: 'stanford.edu',
        password,
      },
    });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain(email);

    const [entry] = errorEntries();
    expect(entry?.msg).toBe('request failed');
    const text = logged();
    expect(text).not.toContain(email);
    expect(text).not.toContain(password);
    expect(text).not.toMatch(/\$argon2/);
    expect(text).not.toContain('Refused Person');
    expect(text).not.toContain('refused_person');
    // What a developer needs is still there: the statement, and PostgreSQL's code and message.
    expect(entry?.err).toMatchObject({
      query: expect.stringMatching(/^insert into "users"/),
      cause: { code: 'P0001', message: 'refused by the log test' },
    });
  });

  it('a failed chat message logs no message text', async () => {
    const seller = await createSignedInUser(database.db);
    const buyer = await createSignedInUser(database.db);
    const item = await createItem(database.db, { userId: seller.user.id });
    const headers = { origin: ORIGIN, host: 'localhost:80', cookie: buyer.cookie };
    const started = await app.inject({
      method: 'POST',
      url: '/api/conversations',
      headers,
      payload: { itemId: item.id },
    });
    expect(started.statusCode).toBe(200);
    lines.length = 0;

    const secret = 'meet me behind the library at 9, bring the cash';
    const response = await app.inject({
      method: 'POST',
      url: `/api/conversations/${started.json().conversation.id}/messages`,
      headers,
      payload: { content: secret },
    });
    expect(response.statusCode).toBe(500);
    const entries = errorEntries();
    expect(entries).toHaveLength(1);
    expect(logged()).not.toContain(secret);
    expect(logged()).not.toContain(buyer.user.id);
    expect(entries[0]?.err?.query).toContain('campusloop_send_message');
  });

  it('any logger path ({ err } from a job or a socket) drops the values a data error quotes', async () => {
    const error = await database.db
      .execute(sql`select ${'card 4242-secret'}::int as n`)
      .then(() => undefined)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    app.log.error({ err: error }, 'reservation expiry job failed');
    expect(logged()).not.toContain('4242-secret');
    const [entry] = errorEntries();
    expect(entry?.err).toMatchObject({ query: 'select $1::int as n', cause: { code: '22P02' } });
    expect(JSON.stringify(entry?.err)).toContain('invalid input syntax for type integer');
  });
});
