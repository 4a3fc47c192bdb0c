import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { thumbnailOf } from '#shared/photos.ts';
import { emailChanges, notificationPreferences, sessions, users } from '../../src/server/db/schema/users.ts';
import {
  LAST_USED_PRECISION_MS,
  resumeSession,
  startSession,
} from '../../src/server/features/auth/service.ts';
import { createItem, createUser, TEST_PASSWORD } from '../factories.ts';
import { mailsTo, readOutbox, tokenOf } from '../helpers/outbox.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Account settings: every path of /api/account, who may call it, and what it refuses.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-account-'));
const uploadsDir = path.join(dataDir, 'uploads');
const t = setupTestApp({ dataDir, uploadsDir, loginAccountRateLimit: { max: 6, windowMs: 60_000 } });
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const db = () => t.database.db;

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A student signed in on a laptop (the browser under test) and a phone. */
async function student(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(db(), overrides);
  const laptop = await startSession(db(), user.id, 30, {
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/133.0',
  });
  const phone = await startSession(db(), user.id, 30, { userAgent: ANDROID_CHROME });
  return { user, cookie: `cl_session=${laptop.token}`, phone: `cl_session=${phone.token}` };
}

async function userRow(id: string) {
  const [row] = await db().select().from(users).where(eq(users.id, id));
  return row!;
}

const login = (email: string, password: string) =>
  t.request({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: '192.0.2.10',
  });

const me = async (cookie: string) => (await t.get('/api/auth/me', cookie)).json().user;

/** A multipart body the way a browser's FormData sends it. */
async function multipart(parts: { name?: string; filename: string; type?: string; data: Buffer | string }[]) {
  const form = new FormData();
  for (const part of parts) {
    const blob = new Blob([typeof part.data === 'string' ? part.data : new Uint8Array(part.data)], {
      type: part.type ?? 'application/octet-stream',
    });
    form.append(part.name ?? 'photo', blob, part.filename);
  }
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type')!,
  };
}

async function uploadPhoto(cookie: string | undefined, parts: Parameters<typeof multipart>[0]) {
  const body = await multipart(parts);
  return t.request({
    method: 'POST',
    url: '/api/account/photo',
    payload: body.payload,
    headers: { 'content-type': body.contentType },
    cookie,
  });
}

const fileOf = (url: string) => path.join(uploadsDir, url.replace(/^\/uploads\//, ''));
const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('who may call', () => {
  it('refuses every account call signed out with 401, and changes nothing', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/account'],
      ['PUT', '/api/account/profile', { fullName: 'X', username: 'xyz' }],
      ['DELETE', '/api/account/photo'],
      ['PUT', '/api/account/password', { currentPassword: 'a', newPassword: 'abcdefg' }],
      ['POST', '/api/account/email', { newEmail: 'a@stanford.edu', currentPassword: 'a' }],
      ['DELETE', '/api/account/email'],
      ['PUT', '/api/account/notification-preferences', { kind: 'account_activity', email: false }],
      ['GET', '/api/account/sessions'],
      ['DELETE', '/api/account/sessions/00000000-0000-4000-8000-000000000000'],
      ['POST', '/api/account/sessions/sign-out-others', {}],
    ];
    for (const [method, url, payload] of calls) {
      const response = await t.request({
        method: method as 'GET',
        url,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
    const photo = await uploadPhoto(undefined, [
      {
        filename: 'a.png',
        data: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
          .png()
          .toBuffer(),
      },
    ]);
    expect(photo.statusCode).toBe(401);
    expect(await db().select().from(notificationPreferences)).toEqual([]);
  });

  it('refuses a change from another site (no same-origin Origin header)', async () => {
    const { user, cookie } = await student();
    const response = await t.request({
      method: 'PUT',
      url: '/api/account/profile',
      payload: { fullName: 'Mallory', username: 'mallory_x' },
      headers: { origin: 'https://evil.example' },
      cookie,
    });
    expect(response.statusCode).toBe(403);
    expect((await userRow(user.id)).fullName).toBe(user.fullName);
  });
});

describe('GET /api/account', () => {
  it('answers the person, no pending change and the default e-mail choices', async () => {
    const { user, cookie } = await student();
    const response = await t.get('/api/account', cookie);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toMatchObject({
      id: user.id,
      email: user.email,
      username: user.username,
      isAdmin: false,
    });
    expect(body.pendingEmail).toBeNull();
    expect(
      body.preferences.map((p: { kind: string; email: boolean; required: boolean }) => [
        p.kind,
        p.email,
        p.required,
      ]),
    ).toEqual([
      ['account_security', true, true],
      ['account_activity', true, false],
      // The notification kinds; other updates are off by e-mail unless chosen.
      ['requests', true, false],
      ['approvals', true, false],
      ['reminders', true, false],
      ['messages', true, false],
      // New listings matching a saved search: one e-mail a batch, unless turned off.
      ['saved_searches', true, false],
      // Money sent to a lender is e-mailed unless turned off.
      ['payouts', true, false],
      // The daily digest of a campus's asks only for whoever turns it on.
      ['asks', false, false],
      ['updates', false, false],
    ]);
  });
});

describe('name and username', () => {
  it('changes both, and the header, profile and item cards say so', async () => {
    const { user, cookie } = await student();
    const item = await createItem(db(), { userId: user.id });
    // Asked once before the change, so a remembered answer would show the old name.
    expect((await t.get(`/api/items/${item.id}`)).json().item.user.fullName).toBe(user.fullName);
    const response = await t.put(
      '/api/account/profile',
      { fullName: '  Ada Lovelace ', username: `ada_l${user.id.slice(0, 4)}` },
      cookie,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      fullName: 'Ada Lovelace',
      username: `ada_l${user.id.slice(0, 4)}`,
    });
    expect((await me(cookie)).fullName).toBe('Ada Lovelace');
    expect((await t.get(`/api/users/${user.id}`)).json().user.fullName).toBe('Ada Lovelace');
    expect((await t.get(`/api/items/${item.id}`)).json().item.user.fullName).toBe('Ada Lovelace');
  });

  it('may change the case of its own username', async () => {
    const { user, cookie } = await student();
    const response = await t.put(
      '/api/account/profile',
      { fullName: user.fullName, username: user.username.toUpperCase() },
      cookie,
    );
    expect(response.statusCode).toBe(200);
    expect((await userRow(user.id)).username).toBe(user.username.toUpperCase());
  });

  it('refuses a username another account uses (any case) with 409, and changes nothing', async () => {
    const other = await createUser(db());
    const { user, cookie } = await student();
    const response = await t.put(
      '/api/account/profile',
      { fullName: 'New Name', username: other.username.toUpperCase() },
      cookie,
    );
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'USERNAME_TAKEN',
      message: 'That username is already taken. Please choose another.',
    });
    const row = await userRow(user.id);
    expect([row.fullName, row.username]).toEqual([user.fullName, user.username]);
  });

  it('gives one of two people racing for a free username a 409, never a 500', async () => {
    const a = await student();
    const b = await student();
    const wanted = `race_${a.user.id.slice(0, 6)}`;
    const answers = await Promise.all(
      [a, b, a, b].map((s) =>
        t.put('/api/account/profile', { fullName: 'Racer', username: wanted }, s.cookie),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.every((c) => c === 200 || c === 409)).toBe(true);
    const holders = await db().select().from(users).where(eq(users.username, wanted));
    expect(holders).toHaveLength(1);
  });

  it.each([
    [{ fullName: '', username: 'valid_name' }, 'fullName', 'Full name is required'],
    [
      { fullName: 'Ada', username: 'no spaces' },
      'username',
      'Username can only contain letters, numbers, dots and underscores',
    ],
    [{ fullName: 'Ada', username: 'ab' }, 'username', 'Username must be at least 3 characters'],
    [
      { fullName: 'A'.repeat(101), username: 'valid_name' },
      'fullName',
      'Full name must be at most 100 characters',
    ],
    [{ fullName: 42, username: 'valid_name' }, 'fullName', 'Full name is required'],
    [{ username: 'valid_name' }, 'fullName', 'Full name is required'],
  ])('refuses %j with 400 on %s, and changes nothing', async (payload, field, message) => {
    const { user, cookie } = await student();
    const response = await t.put('/api/account/profile', payload, cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toContainEqual({ path: field, message });
    const row = await userRow(user.id);
    expect([row.fullName, row.username]).toEqual([user.fullName, user.username]);
  });
});

describe('profile photo', () => {
  it('stores a square photo without metadata and a thumbnail, shown wherever the person is', async () => {
    const { user, cookie } = await student();
    const item = await createItem(db(), { userId: user.id });
    const withGps = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#2f855a' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'PhoneCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 25/1 0/1' } })
      .toBuffer();
    expect(withGps.includes('PhoneCam')).toBe(true);
    const response = await uploadPhoto(cookie, [{ filename: 'me.jpg', type: 'image/jpeg', data: withGps }]);
    expect(response.statusCode).toBe(200);
    const url: string = response.json().user.profileImage;
    expect(url).toMatch(/^\/uploads\/avatars\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.jpg$/);

    const full = await readFile(fileOf(url));
    const thumb = await readFile(fileOf(thumbnailOf(url)));
    const fullMeta = await sharp(full).metadata();
    const thumbMeta = await sharp(thumb).metadata();
    expect([fullMeta.width, fullMeta.height, fullMeta.format]).toEqual([512, 512, 'jpeg']);
    expect([thumbMeta.width, thumbMeta.height]).toEqual([128, 128]);
    for (const meta of [fullMeta, thumbMeta]) expect(meta.exif).toBeUndefined();
    expect(full.includes('PhoneCam')).toBe(false);

    // The header (session), the profile and the item page's Listed by.
    expect((await me(cookie)).profileImage).toBe(url);
    expect((await t.get(`/api/users/${user.id}`)).json().user.profileImage).toBe(url);
    expect((await t.get(`/api/items/${item.id}`)).json().item.user.profileImage).toBe(url);
    // The picture is served.
    expect((await t.get(url)).statusCode).toBe(200);

    // A new photo replaces it: the old files go.
    const second = await sharp({ create: { width: 300, height: 800, channels: 3, background: '#c05621' } })
      .png()
      .toBuffer();
    const replaced = await uploadPhoto(cookie, [{ filename: 'me2.png', type: 'image/png', data: second }]);
    expect(replaced.statusCode).toBe(200);
    const newUrl = replaced.json().user.profileImage;
    expect(newUrl).not.toBe(url);
    expect(await exists(fileOf(url))).toBe(false);
    expect(await exists(fileOf(thumbnailOf(url)))).toBe(false);

    // Removing it brings the initial back and deletes the files.
    const removed = await t.del('/api/account/photo', cookie);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().user.profileImage).toBeNull();
    expect((await userRow(user.id)).profileImage).toBeNull();
    expect(await exists(fileOf(newUrl))).toBe(false);
  });

  it('refuses what is not a photo, no file, or two files, and keeps the photo it had', async () => {
    const { user, cookie } = await student();
    const text = await uploadPhoto(cookie, [
      { filename: 'me.jpg', type: 'image/jpeg', data: 'not an image at all' },
    ]);
    expect(text.statusCode).toBe(415);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const two = await uploadPhoto(cookie, [
      { filename: 'a.png', data: png },
      { filename: 'b.png', data: png },
    ]);
    expect(two.statusCode).toBe(400);
    const wrongField = await uploadPhoto(cookie, [{ name: 'images', filename: 'a.png', data: png }]);
    expect(wrongField.statusCode).toBe(400);
    const json = await t.request({
      method: 'POST',
      url: '/api/account/photo',
      payload: { photo: 'x' },
      cookie,
    });
    expect(json.statusCode).toBe(415);
    expect((await userRow(user.id)).profileImage).toBeNull();
  });
});

describe('password', () => {
  it('needs the current password, then ends every other session but keeps this one', async () => {
    const { user, cookie, phone } = await student();
    const wrong = await t.put(
      '/api/account/password',
      { currentPassword: 'not it', newPassword: 'new secret 1' },
      cookie,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'WRONG_PASSWORD',
      issues: [{ path: 'currentPassword', message: 'Your current password is not correct.' }],
    });
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect(await me(phone)).not.toBeNull();

    const changed = await t.put(
      '/api/account/password',
      { currentPassword: TEST_PASSWORD, newPassword: 'new secret 1' },
      cookie,
    );
    expect(changed.statusCode).toBe(200);
    expect((await me(cookie))?.id).toBe(user.id);
    expect(await me(phone)).toBeNull();
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email, 'new secret 1')).statusCode).toBe(200);
    // The note (on by default) tells the device.
    const [note] = await mailsTo(t.outboxDir, user.email);
    expect(note!.subject).toBe('Your CampusLoop password was changed');
  });

  it('sends no note to someone who turned password notes off', async () => {
    const { user, cookie } = await student();
    const off = await t.put(
      '/api/account/notification-preferences',
      { kind: 'account_activity', email: false },
      cookie,
    );
    expect(off.statusCode).toBe(200);
    expect(off.json().preferences).toContainEqual(
      expect.objectContaining({ kind: 'account_activity', email: false }),
    );
    expect((await t.get('/api/account', cookie)).json().preferences[1].email).toBe(false);
    const changed = await t.put(
      '/api/account/password',
      { currentPassword: TEST_PASSWORD, newPassword: 'quiet secret' },
      cookie,
    );
    expect(changed.statusCode).toBe(200);
    // Something else to this address afterwards proves the outbox was written in order.
    await t.post('/api/auth/password-reset', { email: user.email });
    const mails = await mailsTo(t.outboxDir, user.email);
    expect(mails.map((m) => m.subject)).toEqual(['Reset your CampusLoop password']);
  });

  it.each([
    [{ currentPassword: TEST_PASSWORD, newPassword: '12345' }, 'newPassword'],
    [{ currentPassword: '', newPassword: 'long enough' }, 'currentPassword'],
    [{ currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD }, 'newPassword'],
    [{ newPassword: 'long enough' }, 'currentPassword'],
  ])('refuses %j with 400 and keeps the password', async (payload, field) => {
    const { user, cookie } = await student();
    const response = await t.put('/api/account/password', payload, cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().issues.map((i: { path: string }) => i.path)).toContain(field);
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('stops guessing the current password after a few tries (429)', async () => {
    const { cookie } = await student();
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) {
      codes.push(
        (
          await t.put(
            '/api/account/password',
            { currentPassword: `guess ${i}`, newPassword: 'whatever 1' },
            cookie,
          )
        ).statusCode,
      );
    }
    expect(codes.slice(0, 6).every((c) => c === 400)).toBe(true);
    expect(codes.slice(6)).toEqual([429, 429]);
  });
});

describe('e-mail address', () => {
  const request = (cookie: string, newEmail: unknown, currentPassword: unknown = TEST_PASSWORD) =>
    t.post('/api/account/email', { newEmail, currentPassword }, cookie);
  const confirm = (token: unknown, cookie?: string) =>
    t.post('/api/account/email/confirm', { token }, cookie);
  const linkIn = (text: string | undefined) =>
    text?.match(/https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_-]+/)?.[0];

  it('changes once the link to the new address is opened, verifies it, and tells the old address', async () => {
    const { user, cookie } = await student({ isVerified: false });
    const newEmail = `new.${user.id.slice(0, 8)}@cs.stanford.edu`;
    const asked = await request(cookie, newEmail.toUpperCase());
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({
      success: true,
      pendingEmail: newEmail,
      message: `We've sent a link to ${newEmail}. Your address changes when you open it.`,
    });
    // Nothing has changed yet: the old address still signs in; the change is pending.
    expect((await userRow(user.id)).email).toBe(user.email);
    expect((await t.get('/api/account', cookie)).json().pendingEmail).toBe(newEmail);

    const [mail] = await mailsTo(t.outboxDir, newEmail);
    expect(mail!.subject).toBe('Confirm your new CampusLoop e-mail address');
    const link = linkIn(mail!.text)!;
    expect(link.startsWith(`${t.config.appUrl}/confirm-email?token=`)).toBe(true);
    const token = tokenOf(link);
    const [row] = await db().select().from(emailChanges).where(eq(emailChanges.userId, user.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));

    // Opened signed out (on the phone's mail app).
    const confirmed = await confirm(token);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ success: true, email: newEmail });
    const after = await userRow(user.id);
    expect(after.email).toBe(newEmail);
    expect(after.isVerified).toBe(true);
    expect((await me(cookie)).email).toBe(newEmail);
    expect((await login(newEmail, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await t.get('/api/account', cookie)).json().pendingEmail).toBeNull();

    const [notice] = await mailsTo(t.outboxDir, user.email);
    expect(notice!.subject).toBe('Your CampusLoop e-mail address was changed');
    expect(notice!.text).toContain(newEmail);

    // Used once.
    const again = await confirm(token);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('EMAIL_CHANGE_LINK_USED');
  });

  it('refuses an expired link with 410, and a replaced or cancelled one too', async () => {
    const { user, cookie } = await student();
    const first = `first.${user.id.slice(0, 8)}@stanford.edu`;
    const second = `second.${user.id.slice(0, 8)}@stanford.edu`;
    expect((await request(cookie, first)).statusCode).toBe(200);
    const firstToken = tokenOf(linkIn((await mailsTo(t.outboxDir, first))[0]!.text)!);
    expect((await request(cookie, second)).statusCode).toBe(200);
    const secondToken = tokenOf(linkIn((await mailsTo(t.outboxDir, second))[0]!.text)!);

    const replaced = await confirm(firstToken);
    expect(replaced.statusCode).toBe(410);
    expect(replaced.json().code).toBe('EMAIL_CHANGE_LINK_EXPIRED');

    // A day later the newer one has expired too.
    await db()
      .update(emailChanges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailChanges.tokenHash, createHash('sha256').update(secondToken).digest('hex')));
    expect((await confirm(secondToken)).statusCode).toBe(410);
    expect((await userRow(user.id)).email).toBe(user.email);

    // Cancelled.
    const third = `third.${user.id.slice(0, 8)}@stanford.edu`;
    expect((await request(cookie, third)).statusCode).toBe(200);
    const thirdToken = tokenOf(linkIn((await mailsTo(t.outboxDir, third))[0]!.text)!);
    expect((await t.del('/api/account/email', cookie)).statusCode).toBe(200);
    expect((await t.get('/api/account', cookie)).json().pendingEmail).toBeNull();
    expect((await confirm(thirdToken)).statusCode).toBe(410);
    expect((await userRow(user.id)).email).toBe(user.email);
  });

  it('uses a link opened many times at once exactly once', async () => {
    const { user, cookie } = await student();
    const newEmail = `many.${user.id.slice(0, 8)}@stanford.edu`;
    expect((await request(cookie, newEmail)).statusCode).toBe(200);
    const token = tokenOf(linkIn((await mailsTo(t.outboxDir, newEmail))[0]!.text)!);
    const answers = await Promise.all(Array.from({ length: 6 }, () => confirm(token)));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await userRow(user.id)).email).toBe(newEmail);
    // The old address is told once.
    expect(await mailsTo(t.outboxDir, user.email)).toHaveLength(1);
  });

  it('refuses a link that is not one with 400', async () => {
    for (const token of ['short', 'A'.repeat(43), 42, undefined]) {
      const response = await confirm(token);
      expect(response.statusCode).toBe(400);
    }
  });

  it('answers a taken address as a free one, sends it no link, and changes nothing', async () => {
    const holder = await createUser(db());
    const { user, cookie } = await student();
    const asked = await request(cookie, holder.email);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe(
      `We've sent a link to ${holder.email}. Your address changes when you open it.`,
    );
    const [mail] = await mailsTo(t.outboxDir, holder.email);
    expect(mail!.subject).toBe('Confirm your new CampusLoop e-mail address');
    expect(mail!.text).toContain('an account already uses this address');
    expect(linkIn(mail!.text)).toBeUndefined();
    expect((await userRow(user.id)).email).toBe(user.email);
    expect((await userRow(holder.id)).email).toBe(holder.email);
  });

  it('refuses the address if another account took it before the link was opened (409)', async () => {
    const { user, cookie } = await student();
    const wanted = `wanted.${user.id.slice(0, 8)}@stanford.edu`;
    expect((await request(cookie, wanted)).statusCode).toBe(200);
    const token = tokenOf(linkIn((await mailsTo(t.outboxDir, wanted))[0]!.text)!);
    await createUser(db(), { email: wanted });
    const response = await confirm(token);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('EMAIL_TAKEN');
    expect((await userRow(user.id)).email).toBe(user.email);
  });

  it.each([
    [
      'someone@berkeley.edu',
      'EMAIL_OUTSIDE_UNIVERSITY',
      'Use an address of Stanford University: your account belongs to it.',
    ],
    ['someone@gmail.com', 'VALIDATION_ERROR', 'Must be a valid university email address'],
    ['not an address', 'VALIDATION_ERROR', 'Must be a valid university email address'],
  ])('refuses %s with 400 and sends nothing', async (newEmail, code, message) => {
    const { user, cookie } = await student();
    const before = (await readOutbox(t.outboxDir)).length;
    const response = await request(cookie, newEmail);
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toContainEqual({ path: 'newEmail', message });
    if (code !== 'VALIDATION_ERROR') expect(response.json().code).toBe(code);
    expect((await readOutbox(t.outboxDir)).length).toBe(before);
    expect(await db().select().from(emailChanges).where(eq(emailChanges.userId, user.id))).toEqual([]);
  });

  it('refuses the same address, and a wrong current password, with 400', async () => {
    const { user, cookie } = await student();
    const same = await request(cookie, user.email.toUpperCase());
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('That is already your e-mail address.');
    const wrong = await request(cookie, `other.${user.id.slice(0, 8)}@stanford.edu`, 'not my password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('WRONG_PASSWORD');
    expect(await db().select().from(emailChanges).where(eq(emailChanges.userId, user.id))).toEqual([]);
  });
});

describe('e-mail choices', () => {
  it('refuses turning off account e-mails, and kinds it does not know', async () => {
    const { user, cookie } = await student();
    const off = await t.put(
      '/api/account/notification-preferences',
      { kind: 'account_security', email: false },
      cookie,
    );
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toBe(
      'Account and security e-mails cannot be turned off: they keep your account yours.',
    );
    for (const payload of [
      { kind: 'marketing', email: false },
      { kind: 'account_activity', email: 'no' },
      {},
    ]) {
      expect((await t.put('/api/account/notification-preferences', payload, cookie)).statusCode).toBe(400);
    }
    expect(
      await db().select().from(notificationPreferences).where(eq(notificationPreferences.userId, user.id)),
    ).toEqual([]);
  });
});

describe('sessions', () => {
  it('lists each with its device and last use, this one marked, and ends one by its id', async () => {
    const { user, cookie, phone } = await student();
    const other = await student();
    const response = await t.get('/api/account/sessions', cookie);
    expect(response.statusCode).toBe(200);
    const listed: { id: string; device: string; current: boolean; lastUsedAt: string }[] =
      response.json().sessions;
    expect(listed.map((s) => [s.device, s.current]).sort()).toEqual([
      ['Chrome on Android', false],
      ['Firefox on Windows', true],
    ]);
    expect(JSON.stringify(response.json())).not.toMatch(/[0-9a-f]{64}/);

    // Someone else's session id is not found, whoever asks.
    const theirs = (await t.get('/api/account/sessions', other.cookie)).json().sessions[0].id;
    expect((await t.del(`/api/account/sessions/${theirs}`, cookie)).statusCode).toBe(404);
    expect(await me(other.cookie)).not.toBeNull();
    expect((await t.del('/api/account/sessions/not-a-uuid', cookie)).statusCode).toBe(400);

    const phoneId = listed.find((s) => !s.current)!.id;
    expect((await t.del(`/api/account/sessions/${phoneId}`, cookie)).statusCode).toBe(200);
    expect(await me(phone)).toBeNull();
    expect((await me(cookie))?.id).toBe(user.id);
    expect((await t.del(`/api/account/sessions/${phoneId}`, cookie)).statusCode).toBe(404);

    // Ending this browser's own session signs it out.
    const mine = listed.find((s) => s.current)!.id;
    const own = await t.del(`/api/account/sessions/${mine}`, cookie);
    expect(own.statusCode).toBe(200);
    expect(own.cookies.find((c) => c.name === 'cl_session')?.value ?? '').toBe('');
    expect(await me(cookie)).toBeNull();
  });

  it('records the device a sign-in came from', async () => {
    const user = await createUser(db());
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
      headers: { 'user-agent': IPHONE_SAFARI },
      remoteAddress: '192.0.2.11',
    });
    expect(response.statusCode).toBe(200);
    const [row] = await db().select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row!.device).toBe('Safari on iPhone');
  });

  it('writes the last use at most every few minutes', async () => {
    const user = await createUser(db());
    const start = new Date('2026-11-24T10:00:00Z');
    const { token } = await startSession(db(), user.id, 30, { now: start });
    const lastUsed = async () =>
      (await db().select().from(sessions).where(eq(sessions.userId, user.id)))[0]!.lastUsedAt;
    await resumeSession(db(), token, t.config, new Date(start.getTime() + LAST_USED_PRECISION_MS - 1000));
    expect((await lastUsed()).getTime()).toBe(start.getTime());
    const later = new Date(start.getTime() + LAST_USED_PRECISION_MS + 1000);
    await resumeSession(db(), token, t.config, later);
    expect((await lastUsed()).getTime()).toBe(later.getTime());
  });

  describe('live connections', () => {
    let socketUrl = '';
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      socketUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws`;
    });

    const connect = async (cookie: string) => {
      const socket = new WebSocket(socketUrl, { headers: { cookie } });
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        socket.on('open', () => resolve());
        socket.on('error', reject);
      });
      return { socket, closed };
    };

    it('"Sign out of other sessions" ends them and closes their sockets; this one stays', async () => {
      const { user, cookie, phone } = await student();
      const tablet = `cl_session=${(await startSession(db(), user.id, 30)).token}`;
      const here = await connect(cookie);
      const there = await connect(phone);
      const response = await t.post('/api/account/sessions/sign-out-others', {}, cookie);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, ended: 2 });
      expect(await there.closed).toBe(4401);
      expect(await me(phone)).toBeNull();
      expect(await me(tablet)).toBeNull();
      expect((await me(cookie))?.id).toBe(user.id);
      expect(here.socket.readyState).toBe(WebSocket.OPEN);
      here.socket.close();
    });

    it("a password change closes the other sessions' sockets too", async () => {
      const { cookie, phone } = await student();
      const there = await connect(phone);
      const changed = await t.put(
        '/api/account/password',
        { currentPassword: TEST_PASSWORD, newPassword: 'socket secret' },
        cookie,
      );
      expect(changed.statusCode).toBe(200);
      expect(await there.closed).toBe(4401);
    });
  });
});
