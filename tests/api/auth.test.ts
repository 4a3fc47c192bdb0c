import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, createUser, TEST_PASSWORD } from '../factories.ts';
import { registerAndVerify } from '../helpers/register.ts';
import { sessionCookie, setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();

const valid = (overrides: Record<string, unknown> = {}) => ({
  fullName: 'Ada Lovelace',
  username: `ada_${Math.random().toString(36).slice(2, 8)}`,
  email: `ada.${Math.random().toString(36).slice(2, 8)}@cs.stanford.edu`,
  campus: 'stanford.edu',
  password: 'analytical',
  ...overrides,
});

async function userCount() {
  const { rows } = await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from users`);
  return rows[0]!.n;
}

describe('POST /api/auth/register', () => {
  it('answers "check your inbox" without a session; the link signs in with a safe cookie and welcomes the user', async () => {
    const input = valid({ email: 'Grace.Hopper@CS.Stanford.EDU' });
    const { registered, verified, user } = await registerAndVerify(t, input);
    expect(registered.json()).toEqual({
      success: true,
      email: 'grace.hopper@cs.stanford.edu',
      message: expect.stringContaining('Check your inbox'),
    });
    expect(registered.cookies).toHaveLength(0);
    expect(user).toMatchObject({
      fullName: 'Ada Lovelace',
      username: input.username,
      email: 'grace.hopper@cs.stanford.edu',
      campus: 'stanford.edu',
      campusName: 'Stanford University',
      isVerified: true,
      profileImage: null,
    });
    expect(Object.keys(user)).not.toContain('password');

    const cookie = verified.cookies.find((c) => c.name === 'cl_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.path).toBe('/');
    expect(cookie.secure).toBeFalsy();
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const me = await t.get('/api/auth/me', sessionCookie(verified));
    expect(me.json().user.id).toBe(user.id);
    const notifications = await t.get('/api/notifications', sessionCookie(verified));
    expect(notifications.json().notifications).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'system', title: 'Welcome to CampusLoop!', isRead: false }),
      ]),
    );
  });

  it('stores only a hash of the session token', async () => {
    const { verified, user } = await registerAndVerify(t, valid());
    const token = verified.cookies.find((c) => c.name === 'cl_session')!.value;
    const { rows } = await t.database.db.execute<{ token_hash: string }>(
      sql`select token_hash from sessions where user_id = ${user.id}`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toBe(token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['email', { email: 'ada@gmail.com' }, 'Must be a valid university email address'],
    ['email', { email: 'not-an-email' }, 'Must be a valid university email address'],
    ['password', { password: '12345' }, 'Password must be at least 6 characters'],
    ['fullName', { fullName: '   ' }, 'Full name is required'],
    ['campus', { campus: '' }, 'Campus is required'],
    ['username', { username: '' }, 'Username is required'],
    ['username', { username: 'a b' }, 'Username can only contain letters, numbers, dots and underscores'],
    ['email', { email: 42 }, 'Must be a valid university email address'],
  ])('refuses a bad %s with the spec message and stores nothing', async (path, overrides, message) => {
    const before = await userCount();
    const response = await t.post('/api/auth/register', valid(overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, code: 'VALIDATION' });
    expect(response.json().issues).toContainEqual({ path, message });
    expect(await userCount()).toBe(before);
    expect(response.cookies).toHaveLength(0);
  });

  it('refuses a missing body field by field', async () => {
    const response = await t.post('/api/auth/register', {});
    expect(response.statusCode).toBe(400);
    const paths = response.json().issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['fullName', 'username', 'email', 'campus', 'password']));
  });

  it('refuses a campus that is not in the directory, or not the e-mail’s own university', async () => {
    const unknown = await t.post('/api/auth/register', valid({ campus: 'nowhere.edu' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Please choose your university from the list.');
    const other = await t.post('/api/auth/register', valid({ campus: 'berkeley.edu' }));
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toBe('Your university email does not belong to the university you chose.');
  });

  it('lets an e-mail domain missing from the directory choose any listed campus', async () => {
    const response = await t.post(
      '/api/auth/register',
      valid({ email: `kim.${Date.now()}@students.example.edu`, campus: 'berkeley.edu' }),
    );
    expect(response.statusCode).toBe(202);
    const [row] = (
      await t.database.db.execute<{ campus: string }>(
        sql`select campus from users where email = ${response.json().email}`,
      )
    ).rows;
    expect(row!.campus).toBe('berkeley.edu');
  });

  it('answers a taken username with 409 (usernames are public), whatever the address', async () => {
    await createUser(t.database.db, { email: 'taken@stanford.edu', username: 'TakenName' });
    const other = await createUser(t.database.db);
    for (const email of [other.email.toUpperCase(), `new.${Date.now()}@stanford.edu`]) {
      const username = await t.post('/api/auth/register', valid({ email, username: 'takenname' }));
      expect(username.statusCode).toBe(409);
      expect(username.json()).toMatchObject({
        code: 'USERNAME_TAKEN',
        message: expect.stringContaining('username'),
      });
    }
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with the right password, whatever the e-mail’s letter case', async () => {
    const user = await createUser(t.database.db, { email: 'login.case@stanford.edu' });
    const response = await t.post('/api/auth/login', {
      email: 'Login.Case@Stanford.edu',
      password: TEST_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ id: user.id, email: 'login.case@stanford.edu' });
    const me = await t.get('/api/auth/me', sessionCookie(response));
    expect(me.json().user.id).toBe(user.id);
  });

  it('gives one generic 401 for a wrong password and an unknown e-mail', async () => {
    const user = await createUser(t.database.db);
    const wrong = await t.post('/api/auth/login', { email: user.email, password: 'not the password' });
    const unknown = await t.post('/api/auth/login', { email: 'nobody@stanford.edu', password: 'whatever' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Invalid email or password.');
    expect(wrong.cookies).toHaveLength(0);
  });

  it.each([
    [{ email: 'nope', password: 'x' }, 'email', 'Invalid email address'],
    [{ email: 'a@stanford.edu', password: '' }, 'password', 'Password is required'],
    [{ email: 'a@stanford.edu' }, 'password', 'Password is required'],
  ])('refuses %j with the spec message', async (body, path, message) => {
    const response = await t.post('/api/auth/login', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toContainEqual({ path, message });
  });
});

describe('GET /api/auth/me and POST /api/auth/logout', () => {
  it('says {user: null} to a visitor and to a stale cookie', async () => {
    expect((await t.get('/api/auth/me')).json()).toEqual({ user: null });
    const stale = await t.get('/api/auth/me', 'cl_session=not-a-real-token');
    expect(stale.json()).toEqual({ user: null });
    expect(stale.cookies.find((c) => c.name === 'cl_session')?.value).toBe('');
  });

  it('ends the session on the server, so the old cookie no longer works', async () => {
    const { user, cookie } = await createSignedInUser(t.database.db);
    expect((await t.get('/api/auth/me', cookie)).json().user.id).toBe(user.id);
    const logout = await t.post('/api/auth/logout', {}, cookie);
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ success: true });
    const cleared = logout.cookies.find((c) => c.name === 'cl_session')!;
    expect(cleared.value).toBe('');
    expect((await t.get('/api/auth/me', cookie)).json()).toEqual({ user: null });
  });

  it('lets a visitor log out harmlessly', async () => {
    const response = await t.post('/api/auth/logout', {});
    expect(response.statusCode).toBe(200);
  });
});
