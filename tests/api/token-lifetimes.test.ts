import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emailChanges, emailVerifications, passwordResets } from '../../src/server/db/schema/users.ts';
import { hashPassword } from '../../src/server/features/auth/passwords.ts';
import { startSession } from '../../src/server/features/auth/service.ts';
import { createSignedInUser, createUser, TEST_PASSWORD } from '../factories.ts';
import { mailsTo, passwordResetLinkIn, tokenOf } from '../helpers/outbox.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 036: which event ends which token. Every cell of the decision's table is one test here: a
// student holds every kind of token at once, one event happens through the API, and the token is then
// tried through the API the way its holder (or whoever stole it) would use it.

const MODERATOR = 'moderator.tokens@stanford.edu';
const t = setupTestApp({ adminEmails: [MODERATOR] });
const db = () => t.database.db;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
const inAnHour = () => new Date(Date.now() + 60 * 60 * 1000);
let ipCounter = 0;
/** A client address of its own for every link tried, so the per-IP limits of the link pages never bite. */
const freshIp = () => `198.51.${100 + Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

/** POSTs as a browser at an address of its own would. */
const post = (url: string, payload: object | undefined, cookie?: string) =>
  t.request({ method: 'POST', url, cookie, remoteAddress: freshIp(), ...(payload ? { payload } : {}) });

/**
 * A student who has not verified their address yet (so a verification link means something), signed in
 * on two browsers, with an open reset link, a pending e-mail change and a verification link; and a spare
 * of each for the events that use one up.
 */
async function studentWithEveryToken() {
  const user = await createUser(db(), { isVerified: false });
  const here = await startSession(db(), user.id, 30);
  const there = await startSession(db(), user.id, 30);
  const tokens = {
    reset: newToken(),
    spareReset: newToken(),
    emailChange: newToken(),
    spareEmailChange: newToken(),
    verification: newToken(),
    spareVerification: newToken(),
    takeover: newToken(),
  };
  const expiresAt = inAnHour();
  await db()
    .insert(passwordResets)
    .values(
      [tokens.reset, tokens.spareReset].map((token) => ({
        tokenHash: sha256(token),
        userId: user.id,
        expiresAt,
      })),
    );
  const local = user.email.split('@')[0]!;
  await db()
    .insert(emailChanges)
    .values([
      {
        tokenHash: sha256(tokens.emailChange),
        userId: user.id,
        newEmail: `moved.${local}@stanford.edu`,
        expiresAt,
      },
      {
        tokenHash: sha256(tokens.spareEmailChange),
        userId: user.id,
        newEmail: `spare.${local}@stanford.edu`,
        expiresAt,
      },
    ]);
  await db()
    .insert(emailVerifications)
    .values([
      { tokenHash: sha256(tokens.verification), userId: user.id, expiresAt },
      { tokenHash: sha256(tokens.spareVerification), userId: user.id, expiresAt },
      {
        // Decision 023: a registration for the same address, waiting for the mailbox to prove it.
        tokenHash: sha256(tokens.takeover),
        userId: user.id,
        expiresAt,
        pendingFullName: 'Someone Else',
        pendingUsername: `taker_${local.replace(/\W/g, '_').slice(-20)}`,
        pendingPasswordHash: await hashPassword('the registration password'),
      },
    ]);
  return { user, here: `cl_session=${here.token}`, there: `cl_session=${there.token}`, tokens };
}
type Student = Awaited<ReturnType<typeof studentWithEveryToken>>;

const signedIn = async (cookie: string) => (await t.get('/api/auth/me', cookie)).json().user !== null;

/** Whether each kind of token still does what it is for. */
const columns = {
  'this session': (s: Student) => signedIn(s.here),
  'other sessions': (s: Student) => signedIn(s.there),
  'reset links': async (s: Student) =>
    (
      await post('/api/auth/password-reset/confirm', {
        token: s.tokens.reset,
        password: 'what a thief would set',
      })
    ).statusCode === 200,
  'pending e-mail change links': async (s: Student) =>
    (await post('/api/account/email/confirm', { token: s.tokens.emailChange })).statusCode === 200,
  'verification links': async (s: Student) =>
    (await post('/api/auth/verify-email', { token: s.tokens.verification })).statusCode === 200,
} as const;
type Column = keyof typeof columns;

const expectOk = async (response: Promise<{ statusCode: number; body: string }>) => {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(200);
};

/** Each event as the product makes it happen; "this session" is the browser that does it. */
const events: Record<string, (s: Student) => Promise<void>> = {
  'password changed in Account settings': (s) =>
    expectOk(
      t.put(
        '/api/account/password',
        { currentPassword: TEST_PASSWORD, newPassword: 'a brand new secret' },
        s.here,
      ),
    ),
  'password reset completed': (s) =>
    expectOk(
      post(
        '/api/auth/password-reset/confirm',
        { token: s.tokens.spareReset, password: 'a brand new secret' },
        s.here,
      ),
    ),
  'e-mail change confirmed': (s) =>
    expectOk(post('/api/account/email/confirm', { token: s.tokens.spareEmailChange }, s.here)),
  'e-mail change requested': (s) =>
    expectOk(
      post(
        '/api/account/email',
        { newEmail: `requested.${s.user.email}`, currentPassword: TEST_PASSWORD },
        s.here,
      ),
    ),
  'address verified': (s) =>
    expectOk(post('/api/auth/verify-email', { token: s.tokens.spareVerification }, s.here)),
  'address verified by a registration that takes the account over': (s) =>
    expectOk(post('/api/auth/verify-email', { token: s.tokens.takeover }, s.here)),
  'sign out': (s) => expectOk(post('/api/auth/logout', undefined, s.here)),
  'sign out of other sessions': (s) =>
    expectOk(post('/api/account/sessions/sign-out-others', undefined, s.here)),
  'suspension by a moderator': async (s) =>
    expectOk(post(`/api/admin/users/${s.user.id}/suspend`, {}, await moderatorCookie())),
  'account deleted': (s) => expectOk(post('/api/account/delete', { currentPassword: TEST_PASSWORD }, s.here)),
};

let moderatorSession: string | undefined;
/** The file's one moderator (the list is by address). */
async function moderatorCookie() {
  moderatorSession ??= (await createSignedInUser(db(), { email: MODERATOR })).cookie;
  return moderatorSession;
}

const ENDS = 'ends';
const STAYS = 'stays';
type Fate = typeof ENDS | typeof STAYS;

/** The decision's table, row by row, in the order of `columns`. */
const table: Record<keyof typeof events, Fate[]> = {
  //                                                  this   others  reset  change verification
  'password changed in Account settings': [STAYS, ENDS, ENDS, ENDS, STAYS],
  'password reset completed': [ENDS, ENDS, ENDS, ENDS, STAYS],
  'e-mail change confirmed': [STAYS, STAYS, ENDS, ENDS, ENDS],
  'e-mail change requested': [STAYS, STAYS, STAYS, ENDS, STAYS],
  'address verified': [STAYS, STAYS, STAYS, STAYS, ENDS],
  'address verified by a registration that takes the account over': [ENDS, ENDS, ENDS, ENDS, ENDS],
  'sign out': [ENDS, STAYS, STAYS, STAYS, STAYS],
  'sign out of other sessions': [STAYS, ENDS, STAYS, STAYS, STAYS],
  'suspension by a moderator': [ENDS, ENDS, STAYS, ENDS, STAYS],
  'account deleted': [ENDS, ENDS, ENDS, ENDS, ENDS],
};

const columnNames = Object.keys(columns) as Column[];
const cells = Object.entries(table).flatMap(([event, fates]) =>
  fates.map((fate, i) => ({ event, column: columnNames[i]!, fate })),
);

describe('which token dies when (decision 036)', () => {
  it.each(cells)('$event: $column $fate', async ({ event, column, fate }) => {
    const student = await studentWithEveryToken();
    await events[event]!(student);
    expect(await columns[column](student)).toBe(fate === STAYS);
  });
});

describe('the attacks that found these rules', () => {
  it('an e-mail change asked for with a stolen password dies when the owner changes the password', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const thief = `cl_session=${(await startSession(db(), user.id, 30)).token}`;
    const evil = `evil.${user.email}`;
    await expectOk(post('/api/account/email', { newEmail: evil, currentPassword: TEST_PASSWORD }, thief));
    const [mail] = await mailsTo(t.outboxDir, evil);
    const link = mail!.text!.match(/https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_-]+/)![0];

    await expectOk(
      t.put(
        '/api/account/password',
        { currentPassword: TEST_PASSWORD, newPassword: 'mine again 123' },
        cookie,
      ),
    );

    const opened = await post('/api/account/email/confirm', { token: tokenOf(link) });
    expect(opened.statusCode).toBe(410);
    expect((await t.get('/api/account', cookie)).json().user.email).toBe(user.email);
  });

  it('a reset link mailed to the old address stops working once the address has moved', async () => {
    const { user, cookie } = await createSignedInUser(db());
    await t.request({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: user.email },
      remoteAddress: freshIp(),
    });
    const [resetMail] = await mailsTo(t.outboxDir, user.email);
    const resetLink = passwordResetLinkIn(resetMail!);
    const moved = `moved.${user.email}`;
    await expectOk(post('/api/account/email', { newEmail: moved, currentPassword: TEST_PASSWORD }, cookie));
    const [changeMail] = await mailsTo(t.outboxDir, moved);
    const changeLink = changeMail!.text!.match(/https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_-]+/)![0];
    await expectOk(post('/api/account/email/confirm', { token: tokenOf(changeLink) }));

    const used = await post('/api/auth/password-reset/confirm', {
      token: tokenOf(resetLink),
      password: 'taken over 123',
    });
    expect(used.statusCode).toBe(410);
    expect(used.cookies.find((c) => c.name === 'cl_session' && c.value)).toBeUndefined();
  });
});

describe('two events at the same moment', () => {
  // Each ends the other's token, so whichever commits first wins and the other is refused. Every event
  // locks the account's row before its link (decision 036): they wait for each other, never deadlock.
  it('a reset and an e-mail change confirmed at once: exactly one wins, never a 5xx', async () => {
    const students = await Promise.all(Array.from({ length: 8 }, () => studentWithEveryToken()));
    const answers = await Promise.all(
      students.flatMap((s) => [
        post('/api/auth/password-reset/confirm', { token: s.tokens.reset, password: 'racing new secret' }),
        post('/api/account/email/confirm', { token: s.tokens.emailChange }),
      ]),
    );
    const codes = answers.map((answer) => answer.statusCode);
    for (let i = 0; i < students.length; i++) {
      const [reset, change] = codes.slice(2 * i, 2 * i + 2) as [number, number];
      expect(
        [reset, change].filter((code) => code === 200),
        `reset ${reset}, change ${change}`,
      ).toHaveLength(1);
    }
    expect(codes.filter((code) => code >= 500)).toEqual([]);
  });
});
