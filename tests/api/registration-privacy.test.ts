import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/users.ts';
import { createUser, TEST_PASSWORD } from '../factories.ts';
import { mailsTo, tokenOf, verificationLinkIn } from '../helpers/outbox.ts';
import { verificationLinkFor } from '../helpers/register.ts';
import { sessionCookie, setupTestApp } from '../helpers/test-app.ts';

// Decision 023: no squatting, no enumeration. Registration answers the same for a new,
// a verified and an unverified address; an unverified account goes to whoever proves the mailbox; a
// verified account's holder is told someone tried.

const t = setupTestApp();
const db = () => t.database.db;
const tag = () => Math.random().toString(36).slice(2, 8);

const registration = (email: string, overrides: Record<string, unknown> = {}) => ({
  fullName: 'Rosa Parks',
  username: `rosa_${tag()}`,
  email,
  campus: 'stanford.edu',
  password: 'rosas password',
  ...overrides,
});

/** What a response tells: status, body (the address made generic) and the names of its headers. */
function shape(response: Awaited<ReturnType<typeof t.post>>, email: string) {
  const headers = Object.keys(response.headers)
    .filter((h) => !['date', 'content-length', 'x-request-id'].includes(h))
    .sort();
  return {
    status: response.statusCode,
    body: response.body.replaceAll(email, '<email>'),
    headers,
    cookies: response.cookies.length,
  };
}

const login = (email: string, password: string) => t.post('/api/auth/login', { email, password });

describe('registration answers the same whoever has the address', () => {
  it('for a new address, a verified account and an unverified one: 202, the same body and headers, no session', async () => {
    const fresh = `fresh.${tag()}@stanford.edu`;
    const verified = await createUser(db());
    const unverified = await createUser(db(), { isVerified: false });
    const answers = [
      shape(await t.post('/api/auth/register', registration(fresh)), fresh),
      shape(await t.post('/api/auth/register', registration(verified.email)), verified.email),
      shape(await t.post('/api/auth/register', registration(unverified.email)), unverified.email),
    ];
    expect(answers[0]).toMatchObject({ status: 202, cookies: 0 });
    expect(JSON.parse(answers[0]!.body)).toEqual({
      success: true,
      email: '<email>',
      message:
        'Check your inbox: we sent an e-mail to <email>. Open the link in it to finish creating your account.',
    });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('tells a verified account’s holder someone tried, and changes nothing', async () => {
    const holder = await createUser(db());
    const response = await t.post('/api/auth/register', registration(holder.email.toUpperCase()));
    expect(response.statusCode).toBe(202);
    const [mail] = await mailsTo(t.outboxDir, holder.email);
    expect(mail!.subject).toBe('Someone tried to register with your address');
    expect(mail!.text).toContain('nothing was created');
    expect(mail!.text).not.toMatch(/verify-email\?token=/);
    const [row] = await db().select().from(users).where(eq(users.id, holder.id));
    expect(row).toMatchObject({ fullName: holder.fullName, username: holder.username, isVerified: true });
    expect((await login(holder.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await login(holder.email, 'rosas password')).statusCode).toBe(401);
  });
});

describe('an unverified account goes to whoever proves the mailbox', () => {
  it('the squatter cannot sign in; the owner’s link replaces name, username and password and signs in', async () => {
    const email = `owner.${tag()}@stanford.edu`;
    const squatter = registration(email, { fullName: 'Squatter', password: 'squatters password' });
    expect((await t.post('/api/auth/register', squatter)).statusCode).toBe(202);
    const squattersLink = await verificationLinkFor(t, email);
    // A password alone opens nothing until the mailbox is proven.
    const squatterLogin = await login(email, 'squatters password');
    expect(squatterLogin.statusCode).toBe(403);
    expect(squatterLogin.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    expect(squatterLogin.cookies).toHaveLength(0);

    const owner = registration(email, { fullName: 'Real Owner', username: `owner_${tag()}` });
    expect((await t.post('/api/auth/register', owner)).statusCode).toBe(202);
    const ownersLink = await verificationLinkFor(t, email, 1);
    // Nothing changes before the link is opened.
    const [before] = await db().select().from(users).where(eq(users.email, email));
    expect(before).toMatchObject({ fullName: 'Squatter', username: squatter.username, isVerified: false });

    // The older link was replaced.
    expect((await t.post('/api/auth/verify-email', { token: tokenOf(squattersLink) })).statusCode).toBe(410);
    const verified = await t.post('/api/auth/verify-email', { token: tokenOf(ownersLink) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().user).toMatchObject({
      email,
      fullName: 'Real Owner',
      username: owner.username,
      isVerified: true,
    });
    expect((await t.get('/api/auth/me', sessionCookie(verified))).json().user.fullName).toBe('Real Owner');
    expect((await login(email, 'squatters password')).statusCode).toBe(401);
    expect((await login(email, 'rosas password')).statusCode).toBe(200);
  });

  it('a signed-out Resend sends a new link for an unverified address and answers the same for any other', async () => {
    const email = `resend.${tag()}@stanford.edu`;
    await t.post('/api/auth/register', registration(email));
    await verificationLinkFor(t, email);
    const known = await t.post('/api/auth/resend-verification', { email });
    const unknownEmail = `nobody.${tag()}@stanford.edu`;
    const unknown = await t.post('/api/auth/resend-verification', { email: unknownEmail });
    expect(shape(known, email)).toEqual(shape(unknown, unknownEmail));
    expect(known.statusCode).toBe(200);
    const mails = await mailsTo(t.outboxDir, email, 1);
    expect(mails).toHaveLength(2);
    const verified = await t.post('/api/auth/verify-email', {
      token: tokenOf(verificationLinkIn(mails[1]!)),
    });
    expect(verified.statusCode).toBe(200);
    expect(await mailsTo(t.outboxDir, unknownEmail, 0, 300)).toEqual([]);
  });
});
