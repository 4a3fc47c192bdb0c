import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { passwordResets, sessions } from '../../src/server/db/schema/users.ts';
import { startSession } from '../../src/server/features/auth/service.ts';
import { passwordResetDeps, passwordResetService } from '../../src/server/features/password-reset/service.ts';
import { createUser, TEST_PASSWORD } from '../factories.ts';
import { mailsTo, passwordResetLinkIn, readOutbox, recipients, tokenOf } from '../helpers/outbox.ts';
import { setupTestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

// Password reset by e-mail link. Small allowances so the limits can be reached; every test
// asks from addresses of its own, so one test's requests never count against another's.

const t = setupTestApp({
  passwordResetRateLimit: { perAccount: 3, perIp: 5, windowSeconds: 3600 },
});
const db = () => t.database.db;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
let ipCounter = 0;
/** A fresh client address (TEST-NET-2), so per-IP counts start at zero. */
const freshIp = () => `198.51.100.${++ipCounter}`;

const requestReset = (email: unknown, ip = freshIp()) =>
  t.request({ method: 'POST', url: '/api/auth/password-reset', payload: { email }, remoteAddress: ip });

const confirm = (body: unknown, cookie?: string) =>
  t.request({
    method: 'POST',
    url: '/api/auth/password-reset/confirm',
    payload: body as object,
    cookie,
  });

const login = (email: string, password: string) =>
  t.request({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: '192.0.2.200',
  });

/** The newest reset link sent to `email`, waiting for it when fewer than `after + 1` mails are there. */
async function newestLink(email: string, after = 0): Promise<string> {
  const mails = await mailsTo(t.outboxDir, email, after);
  expect(mails.length).toBeGreaterThan(after);
  return passwordResetLinkIn(mails.at(-1)!);
}

async function linksOf(userId: string) {
  return db().select().from(passwordResets).where(eq(passwordResets.userId, userId));
}

async function sessionCount(userId: string) {
  return (await db().select().from(sessions).where(eq(sessions.userId, userId))).length;
}

/** A student signed in on two devices. */
async function studentOnTwoDevices(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(db(), overrides);
  const phone = await startSession(db(), user.id, 30);
  const laptop = await startSession(db(), user.id, 30);
  return { user, phone: `cl_session=${phone.token}`, laptop: `cl_session=${laptop.token}` };
}

const NEW_PASSWORD = 'a brand new secret';

describe('asking for a reset link', () => {
  // Decision 036: the answer cannot take longer for an address with an account, because nothing about
  // the address is looked up (nor a link written, nor a mail sent) until the answer is ready.
  it('answers before the address is looked up; the lookup, the link and the mail follow', async () => {
    const user = await createUser(db());
    const stranger = `nobody.${user.email}`;
    for (const email of [user.email, stranger]) {
      const touched: string[] = [];
      const watched = new Proxy(db(), {
        get(target, property) {
          touched.push(String(property));
          const value = Reflect.get(target, property);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const quiet = { info: () => {}, error: () => {} };
      const limits = { take: async () => {} };
      const deps = passwordResetDeps(watched, t.config, t.app.mailer, limits, quiet);
      const { answer, followUp } = await passwordResetService.request(deps, email, freshIp());
      expect(answer).toEqual({
        success: true,
        email,
        message: `If an account uses ${email}, we've sent a link to reset its password.`,
      });
      expect(touched).toEqual([]);
      await followUp();
      expect(touched.length).toBeGreaterThan(0);
    }
    expect(await linksOf(user.id)).toHaveLength(1);
    expect(await mailsTo(t.outboxDir, user.email)).toHaveLength(1);
    const toStranger = (await readOutbox(t.outboxDir)).filter((m) => recipients(m).includes(stranger));
    expect(toStranger).toEqual([]);
  });

  it('mails a link that resets the password once, signs this device in and every other device out', async () => {
    const { user, phone, laptop } = await studentOnTwoDevices({ fullName: 'Ada <b>Lovelace</b>' });
    const before = Date.now();
    const response = await requestReset(user.email.toUpperCase());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      email: user.email,
      message: `If an account uses ${user.email}, we've sent a link to reset its password.`,
    });

    const [mail] = await mailsTo(t.outboxDir, user.email);
    expect(mail!.subject).toBe('Reset your CampusLoop password');
    expect(mail!.text).toContain('Hi Ada,');
    expect(mail!.text).toContain('The link works once and expires in 1 hour');
    const link = passwordResetLinkIn(mail!);
    expect(link.startsWith(`${t.config.appUrl}/reset-password?token=`)).toBe(true);
    expect(mail!.html).toContain(`href="${link}"`);
    expect(mail!.html).not.toContain('<b>Lovelace');

    // Only the token's hash is stored, and it lives an hour.
    const token = tokenOf(link);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await linksOf(user.id);
    expect(row!.tokenHash).toBe(sha256(token));
    expect(row!.usedAt).toBeNull();
    const lifetime = row!.expiresAt.getTime() - before;
    expect(lifetime).toBeGreaterThan(3600_000 - 60_000);
    expect(lifetime).toBeLessThan(3600_000 + 60_000);

    // The reset, from a third browser (the one the e-mail opened in), not signed in.
    const reset = await confirm({ token, password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({
      success: true,
      email: user.email,
      suspended: false,
      user: { id: user.id, email: user.email },
    });
    const cookie = reset.cookies.find((c) => c.name === 'cl_session');
    expect(cookie?.value).toBeTruthy();
    expect(cookie?.httpOnly).toBe(true);

    // This browser is signed in; the phone and the laptop are not any more.
    expect((await t.get('/api/auth/me', `cl_session=${cookie!.value}`)).json().user.id).toBe(user.id);
    expect((await t.get('/api/auth/me', phone)).json().user).toBeNull();
    expect((await t.get('/api/auth/me', laptop)).json().user).toBeNull();
    expect(await sessionCount(user.id)).toBe(1);

    // The old password no longer works; the new one does.
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);

    // A link works once.
    expect((await linksOf(user.id))[0]!.usedAt).toBeInstanceOf(Date);
    const again = await confirm({ token, password: 'yet another one' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'PASSWORD_RESET_LINK_USED',
      message:
        'This password reset link has already been used. If you need to change your password again, request a new link.',
    });
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('answers an unknown address exactly as a known one, and sends nothing', async () => {
    const known = await createUser(db());
    const unknownEmail = `nobody.${Date.now()}@stanford.edu`;
    const forKnown = await requestReset(known.email);
    const forUnknown = await requestReset(unknownEmail);
    expect(forUnknown.statusCode).toBe(forKnown.statusCode);
    expect(forUnknown.json()).toEqual({
      success: true,
      email: unknownEmail,
      message: `If an account uses ${unknownEmail}, we've sent a link to reset its password.`,
    });
    // Same headers apart from the ones that always differ.
    const shape = (headers: Record<string, unknown>) =>
      Object.keys(headers)
        .filter((h) => !['content-length', 'date', 'x-request-id'].includes(h))
        .sort();
    expect(shape(forUnknown.headers)).toEqual(shape(forKnown.headers));
    expect(forUnknown.cookies).toEqual([]);

    await mailsTo(t.outboxDir, known.email);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await readOutbox(t.outboxDir)).some((m) => recipients(m).includes(unknownEmail))).toBe(false);
  });

  it('replaces older links with a newer one', async () => {
    const { user } = await studentOnTwoDevices();
    const ip = freshIp();
    expect((await requestReset(user.email, ip)).statusCode).toBe(200);
    const first = await newestLink(user.email);
    expect((await requestReset(user.email, ip)).statusCode).toBe(200);
    const second = await newestLink(user.email, 1);
    expect(second).not.toBe(first);

    const superseded = await confirm({ token: tokenOf(first), password: NEW_PASSWORD });
    expect(superseded.statusCode).toBe(410);
    expect(superseded.json()).toEqual({
      code: 'PASSWORD_RESET_LINK_EXPIRED',
      message:
        'This password reset link has expired or was replaced by a newer one. Please request a new link.',
    });
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await confirm({ token: tokenOf(second), password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('refuses bad e-mail addresses with a 400 and sends nothing', async () => {
    const linksBefore = (await db().select().from(passwordResets)).length;
    for (const email of ['not-an-email', '', 42, null, 'x'.repeat(300)]) {
      const response = await requestReset(email);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION',
        issues: [{ path: 'email', message: 'Invalid email address' }],
      });
    }
    for (const payload of ['[1]', '"text"', '{"email":']) {
      const response = await t.request({
        method: 'POST',
        url: '/api/auth/password-reset',
        headers: { 'content-type': 'application/json' },
        payload,
        remoteAddress: freshIp(),
      });
      expect(response.statusCode).toBe(400);
    }
    expect(await db().select().from(passwordResets)).toHaveLength(linksBefore);
  });
});

describe('rate limits on reset requests', () => {
  it('allows 3 an hour per address from anywhere, for unknown addresses alike, with Retry-After', async () => {
    const user = await createUser(db());
    for (let i = 0; i < 3; i++) expect((await requestReset(user.email)).statusCode).toBe(200);
    await mailsTo(t.outboxDir, user.email, 2);
    const limited = await requestReset(user.email.toUpperCase());
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: `You have asked for several reset links for ${user.email} recently. If an account uses it, please look for the newest link in your inbox (and spam folder), or try again in 60 minutes.`,
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    expect(await linksOf(user.id)).toHaveLength(3);

    // An address nobody uses is limited the same way: the 429 tells nobody who has an account.
    const nobody = `ghost.${Date.now()}@stanford.edu`;
    for (let i = 0; i < 3; i++) expect((await requestReset(nobody)).statusCode).toBe(200);
    const ghost = await requestReset(nobody);
    expect(ghost.statusCode).toBe(429);
    expect(ghost.json().message).toContain(`reset links for ${nobody} recently`);
  });

  it('allows 5 an hour per IP, whatever the addresses, and other networks go on', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      expect((await requestReset(`someone.${i}.${Date.now()}@stanford.edu`, ip)).statusCode).toBe(200);
    }
    const user = await createUser(db());
    const limited = await requestReset(user.email, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many password reset requests from this network. Please wait 60 minutes and try again.',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await linksOf(user.id)).toHaveLength(0);
    // The refusal did not use up the account's allowance: from another network it goes through.
    expect((await requestReset(user.email)).statusCode).toBe(200);
    // The link is written just after the answer (decision 036).
    await waitFor(async () => (await linksOf(user.id)).length === 1, 60_000, 'the reset link');
  });
});

describe('setting the new password', () => {
  it('refuses an expired link and changes nothing', async () => {
    const { user, phone } = await studentOnTwoDevices();
    await requestReset(user.email);
    const link = await newestLink(user.email);
    await db()
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, user.id));
    const response = await confirm({ token: tokenOf(link), password: NEW_PASSWORD });
    expect(response.statusCode).toBe(410);
    expect(response.json().code).toBe('PASSWORD_RESET_LINK_EXPIRED');
    expect(response.cookies).toEqual([]);
    expect((await linksOf(user.id))[0]!.usedAt).toBeNull();
    expect((await t.get('/api/auth/me', phone)).json().user.id).toBe(user.id);
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it.each([
    ['an unknown token', 'x'.repeat(43), 'PASSWORD_RESET_LINK_INVALID'],
    ['a cut-off token', 'abc123', 'VALIDATION'],
    ['a token with other characters', `${'a'.repeat(42)}=`, 'VALIDATION'],
    ['a number', 42, 'VALIDATION'],
    ['no token', undefined, 'VALIDATION'],
  ])('answers %s with a 400 and the clear message, and changes nothing', async (_, token, code) => {
    const { user, phone } = await studentOnTwoDevices();
    const response = await confirm({ token, password: NEW_PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code,
      message:
        'This password reset link is not valid. Please open the whole link from the newest e-mail we sent you, or request a new one.',
    });
    expect((await t.get('/api/auth/me', phone)).json().user.id).toBe(user.id);
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('holds the new password to the registration rules, and the link still works after', async () => {
    const { user, phone } = await studentOnTwoDevices();
    await requestReset(user.email);
    const token = tokenOf(await newestLink(user.email));
    for (const password of ['abc', '', 'x'.repeat(201), 12345678, undefined, 'tab\u0000null']) {
      const response = await confirm({ token, password });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION');
      expect(response.json().issues[0].path).toBe('password');
    }
    expect((await confirm({ token, password: 'abc' })).json().issues).toEqual([
      { path: 'password', message: 'Password must be at least 6 characters' },
    ]);
    for (const payload of ['[1]', 'null', '{"token":']) {
      const response = await t.request({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
    }
    expect((await linksOf(user.id))[0]!.usedAt).toBeNull();
    expect((await t.get('/api/auth/me', phone)).json().user.id).toBe(user.id);
    expect((await confirm({ token, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('lets exactly one of two simultaneous submissions of a link set the password', async () => {
    const { user } = await studentOnTwoDevices();
    await requestReset(user.email);
    const token = tokenOf(await newestLink(user.email));
    const answers = await Promise.all([
      confirm({ token, password: 'first password' }),
      confirm({ token, password: 'second password' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const loser = answers.find((a) => a.statusCode === 409)!;
    expect(loser.json().code).toBe('PASSWORD_RESET_LINK_USED');
    expect(loser.cookies).toEqual([]);
    // One session, the winner's; one of the two passwords works, the other never did.
    expect(await sessionCount(user.id)).toBe(1);
    const works = [];
    for (const password of ['first password', 'second password']) {
      works.push((await login(user.email, password)).statusCode);
    }
    expect(works.sort()).toEqual([200, 401]);
  });

  it('signs out whatever account this browser was signed in to', async () => {
    const { user } = await studentOnTwoDevices();
    const flatmate = await createUser(db());
    const flatmateSession = await startSession(db(), flatmate.id, 30);
    await requestReset(user.email);
    const token = tokenOf(await newestLink(user.email));
    const reset = await confirm({ token, password: NEW_PASSWORD }, `cl_session=${flatmateSession.token}`);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().user.id).toBe(user.id);
    expect(await sessionCount(flatmate.id)).toBe(0);
  });
});

describe('a suspended account', () => {
  it('gets the same answer and the link, may change its password, and is not signed in', async () => {
    const { user, phone } = await studentOnTwoDevices({ suspendedAt: new Date() });
    const response = await requestReset(user.email);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(
      `If an account uses ${user.email}, we've sent a link to reset its password.`,
    );
    const token = tokenOf(await newestLink(user.email));

    const reset = await confirm({ token, password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ success: true, email: user.email, user: null, suspended: true });
    expect(reset.cookies.find((c) => c.name === 'cl_session')?.value ?? '').toBe('');
    expect(await sessionCount(user.id)).toBe(0);
    expect((await t.get('/api/auth/me', phone)).json().user).toBeNull();

    // The new password is the one that is checked, and the suspension still holds.
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(401);
    const signIn = await login(user.email, NEW_PASSWORD);
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().code).toBe('ACCOUNT_SUSPENDED');
  });
});

describe('live connections', () => {
  let socketUrl = '';
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    socketUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws`;
  });

  it("close on every other device when the password is reset, as a suspension's do", async () => {
    const { user, phone } = await studentOnTwoDevices();
    const socket = new WebSocket(socketUrl, { headers: { cookie: phone } });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () => resolve());
      socket.on('error', reject);
    });
    await requestReset(user.email);
    const token = tokenOf(await newestLink(user.email));
    expect((await confirm({ token, password: NEW_PASSWORD })).statusCode).toBe(200);
    expect(await closed).toBe(4401);
  });
});
