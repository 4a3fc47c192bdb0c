import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
// @ts-expect-error http_ece (web-push's own dependency) ships no types
import ece from 'http_ece';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { fixedClock } from '../../src/server/clock.ts';
import { messages } from '../../src/server/db/schema/chat.ts';
import { notificationDeliveries, pushSubscriptions } from '../../src/server/db/schema/deliveries.ts';
import { notificationPreferences } from '../../src/server/db/schema/users.ts';
import {
  deliveryService,
  KEEP_DONE_DELIVERIES_MS,
  KEEP_FAILED_DELIVERIES_MS,
  retryDelayMs,
} from '../../src/server/features/deliveries/service.ts';
import { notificationService } from '../../src/server/features/notifications/service.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { noticeText } from '../helpers/notice.ts';
import { readOutbox, recipients } from '../helpers/outbox.ts';
import { hosts, PUSH_ORIGIN, testPushSender } from '../helpers/push-service.ts';
import { day, reserve, scenario } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 032: notifications by e-mail and Web Push, through the delivery outbox.

const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:test@campusloop.app' };
// Endpoints are https on a public-looking host; the test's sender carries each request to the local
// stand-in below (tests/helpers/push-service.ts).
const pushService = () => testPushSender(vapid, () => pushBase);
const t = setupTestApp({ vapid }, { push: pushService() });
const db = () => t.database.db;
// Ahead of the wall clock, so what the app writes at the database's now() is due at the test's now.
const clock = fixedClock(new Date(Date.now() + 10 * 60_000));
const quiet = { info() {}, warn() {}, error() {} };
const round = () =>
  deliveryService.runRound({
    db: db(),
    mailer: t.app.mailer,
    push: pushService(),
    appUrl: t.config.appUrl,
    clock,
    log: quiet,
  });

async function mailsTo(email: string) {
  return (await readOutbox(t.outboxDir)).filter((m) => recipients(m).includes(email.toLowerCase()));
}

/** A header as the message carries it (mailparser folds List-* headers into one object). */
function rawHeader(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line
    ?.replace(/\r?\n[ \t]+/g, ' ')
    .slice(name.length + 1)
    .trim();
}

/** A notification as a feature writes it: inside a transaction of its own. */
function notify(
  userId: string,
  type: Parameters<typeof notificationService.notify>[1]['type'],
  title = 'Hello',
) {
  return db().transaction((tx) =>
    notificationService.notify(tx, { userId, type, text: noticeText(title, `${title}.`) }),
  );
}

// A stand-in for a push service: records what it gets, answers what the test says.
interface PushRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}
const received: PushRequest[] = [];
let answer: (path: string) => number = () => 201;
let server: Server;
let pushBase = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const status = answer(request.url ?? '');
      if (status < 300)
        received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  pushBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A browser's subscription: its own P-256 key pair and auth secret, as PushManager makes them. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
  };
}

async function subscribe(cookie: string, path: string) {
  const device = browserKeys();
  const endpoint = `${PUSH_ORIGIN}${path}`;
  const response = await t.post('/api/push/subscriptions', { endpoint, keys: device.keys }, cookie);
  expect(response.statusCode).toBe(200);
  return { ...device, endpoint };
}

function decrypt(body: Buffer, device: ReturnType<typeof browserKeys>) {
  return JSON.parse(
    ece.decrypt(body, { version: 'aes128gcm', privateKey: device.ecdh, authSecret: device.auth }).toString(),
  );
}

describe('e-mail by preference', () => {
  it('e-mails a borrow request to the lender, with a one-click unsubscribe, once', async () => {
    const s = await scenario(t);
    const made = await reserve(t, s.borrower.cookie, s.item.id, day(3), day(5));
    expect(made.create?.statusCode).toBe(201);
    expect(await mailsTo(s.lender.user.email)).toHaveLength(0);
    await round();
    await round();
    const mails = await mailsTo(s.lender.user.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toMatch(/request/i);
    expect(mail.text).toContain('Unsubscribe');
    expect(mail.html).toContain('Unsubscribe from these e-mails');
    const header = String(rawHeader(mail, 'List-Unsubscribe'));
    expect(header).toMatch(/^<http:\/\/\S+\/api\/unsubscribe\?token=\S+>$/);
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('sends other updates only to those who chose them, and nothing of a kind turned off', async () => {
    const { user, cookie } = await createSignedInUser(db());
    await notify(user.id, 'badge_earned', 'A badge');
    await round();
    expect(await mailsTo(user.email)).toHaveLength(0);
    expect(
      (await t.put('/api/account/notification-preferences', { kind: 'updates', email: true }, cookie))
        .statusCode,
    ).toBe(200);
    await notify(user.id, 'badge_earned', 'Another badge');
    await round();
    expect((await mailsTo(user.email)).map((m) => m.subject)).toEqual(['Another badge']);
    await t.put('/api/account/notification-preferences', { kind: 'reminders', email: false }, cookie);
    await notify(user.id, 'return_reminder', 'Return tomorrow');
    await round();
    expect(await mailsTo(user.email)).toHaveLength(1);
  });

  it('keeps push and e-mail choices apart, and refuses what cannot be', async () => {
    const { cookie } = await createSignedInUser(db());
    const off = await t.put(
      '/api/account/notification-preferences',
      { kind: 'messages', push: false },
      cookie,
    );
    expect(off.statusCode).toBe(200);
    expect(off.json().preferences).toContainEqual(
      expect.objectContaining({ kind: 'messages', email: true, push: false }),
    );
    for (const payload of [
      { kind: 'account_security', push: true },
      { kind: 'requests' },
      { kind: 'requests', push: 'yes' },
    ]) {
      expect((await t.put('/api/account/notification-preferences', payload, cookie)).statusCode).toBe(400);
    }
    expect(
      (await t.put('/api/account/notification-preferences', { kind: 'messages', push: true })).statusCode,
    ).toBe(401);
  });
});

describe('one-click unsubscribe', () => {
  async function linkFor() {
    const { user, cookie } = await createSignedInUser(db());
    await notify(user.id, 'pickup_reminder', 'Pickup tomorrow');
    await round();
    const [mail] = await mailsTo(user.email);
    const link = String(rawHeader(mail!, 'List-Unsubscribe')).slice(1, -1);
    return { user, cookie, link, path: new URL(link).pathname + new URL(link).search };
  }
  const remindersEmail = async (cookie: string) =>
    (await t.get('/api/account', cookie))
      .json()
      .preferences.find((p: { kind: string }) => p.kind === 'reminders').email;

  it('turns the kind off from the mail client, without a session or an Origin', async () => {
    const { cookie, path } = await linkFor();
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Stop &#34;Reminders&#34; e-mails?</h1>');
    // Opening the link changes nothing (mail scanners follow links).
    expect(await remindersEmail(cookie)).toBe(true);
    const oneClick = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json()).toMatchObject({ success: true, kind: 'reminders' });
    expect(await remindersEmail(cookie)).toBe(false);
  });

  it('refuses a bad or altered token and changes nothing', async () => {
    const { user, cookie, link } = await linkFor();
    const token = new URL(link).searchParams.get('token')!;
    const [id, , signature] = token.split('.');
    for (const bad of [
      'nonsense',
      `${id}.messages.${signature}`,
      `${token}x`,
      `${id}.account_security.${signature}`,
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/unsubscribe?token=${encodeURIComponent(bad)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(response.statusCode).toBe(400);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/unsubscribe' })).statusCode).toBe(400);
    expect(await remindersEmail(cookie)).toBe(true);
    expect(
      await db().select().from(notificationPreferences).where(eq(notificationPreferences.userId, user.id)),
    ).toEqual([]);
  });
});

describe('message e-mails', () => {
  it('e-mail after 10 minutes unread, at most once per conversation an hour', async () => {
    const lender = await createSignedInUser(db());
    const borrower = await createSignedInUser(db());
    const item = await createItem(db(), { userId: lender.user.id, title: 'Camping stove' });
    const conversation = (await t.post('/api/conversations', { itemId: item.id }, borrower.cookie)).json()
      .conversation;
    const send = async (content: string) => {
      const sent = await t.post(
        `/api/conversations/${conversation.id}/messages`,
        { content },
        borrower.cookie,
      );
      expect(sent.statusCode).toBe(201);
      // Written at the test clock's time, which the test moves on.
      await db()
        .update(messages)
        .set({ createdAt: clock.now() })
        .where(eq(messages.id, sent.json().message.id));
    };
    await send('Is it free this weekend?');
    clock.advance(9 * 60_000);
    await round();
    expect(await mailsTo(lender.user.email)).toHaveLength(0);
    clock.advance(2 * 60_000);
    await round();
    let mails = await mailsTo(lender.user.email);
    expect(mails.map((m) => m.subject)).toEqual([`${borrower.user.fullName} wrote about Camping stove`]);
    expect(mails[0]!.text).toContain('Is it free this weekend?');
    expect(rawHeader(mails[0]!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    clock.advance(60_000);
    await send('Or next weekend?');
    await send('Any time works');
    clock.advance(20 * 60_000);
    await round();
    expect(await mailsTo(lender.user.email)).toHaveLength(1);
    clock.advance(40 * 60_000);
    await round();
    mails = await mailsTo(lender.user.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('3 unread messages about Camping stove');

    // Read before the next e-mail was due: no e-mail.
    await send('Hello?');
    expect((await t.post(`/api/conversations/${conversation.id}/read`, {}, lender.cookie)).statusCode).toBe(
      200,
    );
    clock.advance(2 * 60 * 60_000);
    await round();
    expect(await mailsTo(lender.user.email)).toHaveLength(2);
  });
});

describe('keeping the outbox small', () => {
  it('forgets finished deliveries after a week, failed ones after a month, pending ones never', async () => {
    const { user } = await createSignedInUser(db());
    const now = clock.now().getTime();
    const row = (status: string, ageMs: number) => ({
      userId: user.id,
      channel: 'email',
      status,
      createdAt: new Date(now - ageMs),
      dueAt: new Date(now - ageMs),
    });
    const hour = 3600_000;
    const rows = await db()
      .insert(notificationDeliveries)
      .values([
        row('sent', KEEP_DONE_DELIVERIES_MS + hour),
        row('skipped', KEEP_DONE_DELIVERIES_MS + hour),
        row('sent', KEEP_DONE_DELIVERIES_MS - hour),
        row('failed', KEEP_DONE_DELIVERIES_MS + hour),
        row('failed', KEEP_FAILED_DELIVERIES_MS + hour),
        // A pending one that old is a bug elsewhere; it must still not vanish unsent.
        row('pending', KEEP_FAILED_DELIVERIES_MS + hour),
      ])
      .returning({ id: notificationDeliveries.id, status: notificationDeliveries.status });
    const forgotten = await deliveryService.forgetFinished({ db: db(), clock });
    expect(forgotten).toBeGreaterThanOrEqual(3);
    const left = await db()
      .select({ id: notificationDeliveries.id })
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.userId, user.id));
    const leftIds = new Set(left.map((r) => r.id));
    expect(rows.map((r) => leftIds.has(r.id))).toEqual([false, false, true, true, false, true]);
    // The pending one is left to the round (its e-mail goes out), not deleted.
    await db().delete(notificationDeliveries).where(eq(notificationDeliveries.id, rows[5]!.id));
  });
});

describe('Web Push', () => {
  it('delivers the encrypted payload to the device, and a 410 removes the subscription', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const device = await subscribe(cookie, '/push/phone-1');
    const status = await t.get(`/api/push/status?endpoint=${encodeURIComponent(device.endpoint)}`, cookie);
    expect(status.json()).toEqual({
      available: true,
      publicKey: vapid.publicKey,
      devices: 1,
      thisDevice: true,
    });
    await notify(user.id, 'reservation_approved', 'Approved');
    await round();
    const got = received.filter((r) => r.path === '/push/phone-1');
    expect(got).toHaveLength(1);
    expect(got[0]!.headers['content-encoding']).toBe('aes128gcm');
    expect(String(got[0]!.headers.authorization)).toMatch(/^vapid t=.+, k=/);
    expect(got[0]!.body.toString()).not.toContain('Approved');
    expect(decrypt(got[0]!.body, device)).toMatchObject({
      title: 'Approved',
      body: 'Approved.',
      url: '/notifications',
    });

    answer = (path) => (path === '/push/phone-1' ? 410 : 201);
    await notify(user.id, 'reservation_approved', 'Approved again');
    await round();
    answer = () => 201;
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).toEqual(
      [],
    );
    expect((await t.get('/api/push/status', cookie)).json().devices).toBe(0);
  });

  it('takes only https endpoints whose host is on the public internet, and stores nothing else', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const { keys } = browserKeys();
    hosts.set('inside.campusloop.test', ['10.0.0.7']);
    hosts.set('half.campusloop.test', ['93.184.215.15', '192.168.1.1']);
    hosts.set('mapped.campusloop.test', ['::ffff:127.0.0.1']);
    const refused: [string, string][] = [
      ['http://127.0.0.1:5399/push/x', 'The push endpoint must be an https address.'],
      ['http://push.campusloop.test/push/x', 'The push endpoint must be an https address.'],
      ['https://127.0.0.1:5399/push/x', 'The push endpoint must be a public internet address.'],
      ['https://[::1]/push/x', 'The push endpoint must be a public internet address.'],
      ['https://[::ffff:127.0.0.1]/push/x', 'The push endpoint must be a public internet address.'],
      ['https://169.254.169.254/latest/meta-data', 'The push endpoint must be a public internet address.'],
      ['https://inside.campusloop.test/push/x', 'The push endpoint must be a public internet address.'],
      ['https://half.campusloop.test/push/x', 'The push endpoint must be a public internet address.'],
      ['https://mapped.campusloop.test/push/x', 'The push endpoint must be a public internet address.'],
      ['https://nowhere.campusloop.test/push/x', "The push endpoint's address could not be found."],
    ];
    for (const [endpoint, message] of refused) {
      const response = await t.post('/api/push/subscriptions', { endpoint, keys }, cookie);
      expect(response.statusCode, endpoint).toBe(400);
      expect(response.json().issues, endpoint).toContainEqual({ path: 'endpoint', message });
    }
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).toEqual(
      [],
    );
  });

  it('sends nothing to a host that now resolves inside, and drops its subscription', async () => {
    const { user, cookie } = await createSignedInUser(db());
    hosts.set('flip.campusloop.test', ['93.184.215.16']);
    const { keys } = browserKeys();
    const endpoint = 'https://flip.campusloop.test/push/flip';
    expect((await t.post('/api/push/subscriptions', { endpoint, keys }, cookie)).statusCode).toBe(200);
    // DNS changed since: the host now points at the server's own machine.
    hosts.set('flip.campusloop.test', ['127.0.0.1']);
    await notify(user.id, 'reservation_approved', 'Approved');
    await round();
    expect(received.filter((r) => r.path === '/push/flip')).toEqual([]);
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id))).toEqual(
      [],
    );
  });

  it('retries a failing push service with backoff and never sends twice, even with rounds at once', async () => {
    const { user, cookie } = await createSignedInUser(db());
    await subscribe(cookie, '/push/flaky');
    let failures = 2;
    answer = (path) => (path === '/push/flaky' && failures-- > 0 ? 503 : 201);
    await notify(user.id, 'reservation_declined', 'Declined');
    expect((await round()).retried).toBe(1);
    // Not due again before its wait is over.
    expect((await round()).retried).toBe(0);
    clock.advance(retryDelayMs(1));
    expect((await round()).retried).toBe(1);
    clock.advance(retryDelayMs(2));
    expect((await round()).sent).toBeGreaterThanOrEqual(1);
    expect(received.filter((r) => r.path === '/push/flaky')).toHaveLength(1);
    answer = () => 201;

    // Many notifications, several rounds at once: each push and each e-mail exactly once.
    for (let i = 0; i < 12; i += 1) await notify(user.id, 'reservation_request', `Request ${i}`);
    await Promise.all([round(), round(), round()]);
    expect(received.filter((r) => r.path === '/push/flaky')).toHaveLength(13);
    expect((await mailsTo(user.email)).filter((m) => m.subject?.startsWith('Request '))).toHaveLength(12);
    const [pending] = await db()
      .select({ count: sql<number>`count(*)::int` })
      .from(notificationDeliveries)
      .where(
        sql`${notificationDeliveries.userId} = ${user.id} and ${notificationDeliveries.status} = 'pending'`,
      );
    expect(pending!.count).toBe(0);
  });

  it('pushes a new message once, and again only for a newer one', async () => {
    const lender = await createSignedInUser(db());
    const borrower = await createSignedInUser(db());
    const device = await subscribe(lender.cookie, '/push/lender-phone');
    const item = await createItem(db(), { userId: lender.user.id, title: 'Tent' });
    const conversation = (await t.post('/api/conversations', { itemId: item.id }, borrower.cookie)).json()
      .conversation;
    const say = (content: string) =>
      t.post(`/api/conversations/${conversation.id}/messages`, { content }, borrower.cookie);
    expect((await say('Hi! Is the tent free?')).statusCode).toBe(201);
    await round();
    await round();
    let got = received.filter((r) => r.path === '/push/lender-phone');
    expect(got.map((r) => decrypt(r.body, device))).toEqual([
      expect.objectContaining({ body: 'Hi! Is the tent free?', url: '/chat' }),
    ]);
    expect((await say('Friday?')).statusCode).toBe(201);
    await round();
    got = received.filter((r) => r.path === '/push/lender-phone');
    expect(got.map((r) => decrypt(r.body, device).body)).toEqual(['Hi! Is the tent free?', 'Friday?']);
  });

  it('says push is off without VAPID keys, and takes no subscription then', async () => {
    const { user } = await createSignedInUser(db());
    const off = { db: db(), push: null };
    expect(await deliveryService.status(off, user.id)).toMatchObject({ available: false, publicKey: null });
    const device = browserKeys();
    await expect(
      deliveryService.subscribe(off, user.id, { endpoint: `${PUSH_ORIGIN}/push/none`, keys: device.keys }),
    ).rejects.toMatchObject({ statusCode: 503, code: 'PUSH_UNAVAILABLE' });
  });

  it('keeps devices to their owner, and refuses bad subscriptions', async () => {
    const owner = await createSignedInUser(db());
    const other = await createSignedInUser(db());
    const device = await subscribe(owner.cookie, '/push/mine');
    expect(
      (
        await t.request({
          method: 'DELETE',
          url: '/api/push/subscriptions',
          payload: { endpoint: device.endpoint },
          cookie: other.cookie,
        })
      ).json(),
    ).toEqual({ removed: false });
    expect(
      (await t.post('/api/push/subscriptions', { endpoint: device.endpoint, keys: device.keys })).statusCode,
    ).toBe(401);
    for (const body of [
      {},
      { endpoint: 'ftp://x', keys: device.keys },
      { endpoint: device.endpoint },
      { endpoint: device.endpoint, keys: { p256dh: 'a b', auth: 'x' } },
    ]) {
      expect((await t.post('/api/push/subscriptions', body, other.cookie)).statusCode).toBe(400);
    }
    expect((await t.get('/api/push/status', owner.cookie)).json().devices).toBe(1);
    expect(
      (
        await t.request({
          method: 'DELETE',
          url: '/api/push/subscriptions',
          payload: { endpoint: device.endpoint },
          cookie: owner.cookie,
        })
      ).json(),
    ).toEqual({ removed: true });
  });
});
