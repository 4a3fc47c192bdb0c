import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/users.ts';
import { createSignedInUser } from '../factories.ts';
import { mailsTo, newestMailTo } from '../helpers/outbox.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The verification e-mail's link brings the student back to the page they were
// on when they signed up (or asked for a new link); only a page of this site is accepted.

const t = setupTestApp();
const tag = () => Math.random().toString(36).slice(2, 8);

function registration(overrides: Record<string, unknown> = {}) {
  const id = tag();
  return {
    fullName: 'Grace Hopper',
    username: `grace_${id}`,
    email: `grace.${id}@stanford.edu`,
    campus: 'stanford.edu',
    password: 'compiler',
    ...overrides,
  };
}

/** The whole verification link in a message's plain text, with any query after the token. */
function fullLink(text: string | undefined): URL {
  const found = text?.match(/https?:\/\/\S+\/verify-email\?\S+/)?.[0];
  expect(found).toBeDefined();
  return new URL(found!);
}

describe('the return path in the verification link', () => {
  it('registration with a page to return to: the link carries it', async () => {
    const input = registration({ returnTo: '/item/5b0e7f3e-0000-4000-8000-000000000000?reserve=1' });
    const response = await t.post('/api/auth/register', input);
    expect(response.statusCode).toBe(202);
    // The e-mail goes out after the answer (decision 023).
    const mail = (await mailsTo(t.outboxDir, input.email)).at(-1);
    const link = fullLink(mail?.text);
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.searchParams.get('returnTo')).toBe('/item/5b0e7f3e-0000-4000-8000-000000000000?reserve=1');
    expect(mail!.html).toContain('returnTo=%2Fitem%2F5b0e7f3e');
  });

  it('registration without one: the plain link', async () => {
    const input = registration();
    expect((await t.post('/api/auth/register', input)).statusCode).toBe(202);
    const link = fullLink((await mailsTo(t.outboxDir, input.email)).at(-1)?.text);
    expect(link.searchParams.has('returnTo')).toBe(false);
  });

  it.each([
    ['another site', 'https://evil.com/'],
    ['a protocol-relative address', '//evil.com'],
    ['a backslash host', '/\\evil.com'],
    ['a script', 'javascript:alert(1)'],
    ['not a string', 42],
  ])('refuses %s with a 400 and creates no account', async (_name, returnTo) => {
    const input = registration({ returnTo });
    const response = await t.post('/api/auth/register', input);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('page of CampusLoop');
    const rows = await t.database.db.select().from(users).where(eq(users.email, input.email));
    expect(rows).toEqual([]);
    expect(await newestMailTo(t.outboxDir, input.email)).toBeUndefined();
  });

  it('Resend may name the page too; a bad one is refused and nothing is sent', async () => {
    const student = await createSignedInUser(t.database.db, { isVerified: false });
    const bad = await t.post('/api/auth/resend-verification', { returnTo: '//evil.com' }, student.cookie);
    expect(bad.statusCode).toBe(400);
    expect(await newestMailTo(t.outboxDir, student.user.email)).toBeUndefined();

    const ok = await t.post('/api/auth/resend-verification', { returnTo: '/chat' }, student.cookie);
    expect(ok.statusCode).toBe(200);
    const [mail] = await mailsTo(t.outboxDir, student.user.email);
    expect(fullLink(mail?.text).searchParams.get('returnTo')).toBe('/chat');

    // Without a body, as before.
    expect((await t.post('/api/auth/resend-verification', {}, student.cookie)).statusCode).toBe(200);
  });
});
