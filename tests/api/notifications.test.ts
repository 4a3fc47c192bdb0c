import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notificationDeliveries, pushSubscriptions } from '../../src/server/db/schema/deliveries.ts';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { notificationPreferences } from '../../src/server/db/schema/users.ts';
import { notificationService } from '../../src/server/features/notifications/service.ts';
import { i18n } from '../../src/server/i18n.ts';
import { createSignedInUser, createUser } from '../factories.ts';
import { noticeText } from '../helpers/notice.ts';
import { setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();

async function userWithNotifications(count: number) {
  const signedIn = await createSignedInUser(t.database.db);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = await notificationService.notify(t.database.db, {
      userId: signedIn.user.id,
      type: 'system',
      text: noticeText(`Notice ${i}`, `Message ${i}`),
    });
    ids.push(n.id);
  }
  return { ...signedIn, ids };
}

describe('notifications', () => {
  it('lists a user’s own notifications newest first, and the unread ones', async () => {
    const { cookie } = await userWithNotifications(3);
    await userWithNotifications(2); // someone else's
    const all = (await t.get('/api/notifications', cookie)).json().notifications;
    expect(all.map((n: { title: string }) => n.title)).toEqual(['Notice 2', 'Notice 1', 'Notice 0']);
    expect((await t.get('/api/notifications/unread', cookie)).json().notifications).toHaveLength(3);
  });

  it('marks one as read for its owner only; others get a 404 and nothing changes', async () => {
    const owner = await userWithNotifications(2);
    const stranger = await createSignedInUser(t.database.db);
    const target = owner.ids[0]!;
    const refused = await t.post(`/api/notifications/${target}/read`, {}, stranger.cookie);
    expect(refused.statusCode).toBe(404);
    expect((await t.get('/api/notifications/unread', owner.cookie)).json().notifications).toHaveLength(2);

    const ok = await t.post(`/api/notifications/${target}/read`, {}, owner.cookie);
    expect(ok.statusCode).toBe(200);
    const unread = (await t.get('/api/notifications/unread', owner.cookie)).json().notifications;
    expect(unread.map((n: { id: string }) => n.id)).toEqual([owner.ids[1]]);
  });

  it('marks all as read', async () => {
    const owner = await userWithNotifications(4);
    const response = await t.post('/api/notifications/read-all', {}, owner.cookie);
    expect(response.json()).toEqual({ success: true, count: 4 });
    expect((await t.get('/api/notifications/unread', owner.cookie)).json().notifications).toEqual([]);
  });

  it('needs a signed-in user, and a well-formed id', async () => {
    expect((await t.get('/api/notifications')).statusCode).toBe(401);
    expect((await t.get('/api/notifications/unread')).statusCode).toBe(401);
    expect((await t.post('/api/notifications/read-all', {})).statusCode).toBe(401);
    const owner = await userWithNotifications(1);
    expect((await t.post(`/api/notifications/${owner.ids[0]}/read`, {})).statusCode).toBe(401);
    const bad = await t.post('/api/notifications/not-a-uuid/read', {}, owner.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Notification not found');
  });
});

describe('a notification and its deliveries, written in one statement', () => {
  /** Words that say which language they were written in. */
  const greeting = () => ({
    title: { id: 'test:greeting', message: i18n.locale === 'es' ? 'Hola' : 'Hello' },
    message: { id: 'test:greeting-body', message: i18n.locale === 'es' ? 'Una solicitud' : 'A request' },
  });

  async function recipient(locale: string, devices: number) {
    const user = await createUser(t.database.db, { locale });
    for (let i = 0; i < devices; i++) {
      await t.database.db.insert(pushSubscriptions).values({
        userId: user.id,
        endpoint: `https://push.example.com/${randomUUID()}`,
        p256dh: 'key',
        auth: 'auth',
      });
    }
    return user;
  }

  const deliveriesOf = async (notificationId: string) =>
    (
      await t.database.db
        .select({ channel: notificationDeliveries.channel })
        .from(notificationDeliveries)
        .where(eq(notificationDeliveries.notificationId, notificationId))
    )
      .map((d) => d.channel)
      .sort();

  it('is stored in the recipient’s language, e-mailed and pushed to each device as their choices say', async () => {
    const spanish = await recipient('es', 2);
    const request = await notificationService.notify(t.database.db, {
      userId: spanish.id,
      type: 'reservation_request',
      text: greeting,
    });
    expect(request).toMatchObject({ title: 'Hola', message: 'Una solicitud', type: 'reservation_request' });
    expect(request.isRead).toBe(false);
    expect(Number.isNaN(Date.parse(request.createdAt))).toBe(false);
    // Requests are e-mailed and pushed unless turned off.
    expect(await deliveriesOf(request.id)).toEqual(['email', 'push', 'push']);
    const [stored] = await t.database.db.select().from(notifications).where(eq(notifications.id, request.id));
    expect(stored).toMatchObject({ userId: spanish.id, title: 'Hola', relatedReservationId: null });

    // The same event for someone reading in English, without a device.
    const other = await recipient('en', 0);
    const english = await notificationService.notify(t.database.db, {
      userId: other.id,
      type: 'reservation_request',
      text: greeting,
    });
    expect(english.title).toBe('Hello');
    expect(await deliveriesOf(english.id)).toEqual(['email']);
  });

  it('follows each kind’s choices and defaults: turned off, off by default, or told only in the digest', async () => {
    const person = await recipient('en', 1);
    await t.database.db.insert(notificationPreferences).values([
      { userId: person.id, kind: 'requests', email: false, push: false },
      { userId: person.id, kind: 'approvals', email: true, push: false },
    ]);
    const deliveredFor = async (
      type: 'reservation_request' | 'reservation_approved' | 'system' | 'ask_match',
    ) =>
      deliveriesOf(
        (await notificationService.notify(t.database.db, { userId: person.id, type, text: greeting })).id,
      );
    expect(await deliveredFor('reservation_request')).toEqual([]);
    expect(await deliveredFor('reservation_approved')).toEqual(['email']);
    // Updates are not e-mailed unless chosen, and pushed unless turned off.
    expect(await deliveredFor('system')).toEqual(['push']);
    // An ask's match is pushed at once; even someone who wants ask e-mails gets it in the day's digest.
    await t.database.db
      .insert(notificationPreferences)
      .values({ userId: person.id, kind: 'asks', email: true });
    expect(await deliveredFor('ask_match')).toEqual(['push']);
  });

  it('stores nothing for a person who does not exist, and nothing when its event rolls back', async () => {
    const before = (await t.database.db.select().from(notifications)).length;
    await expect(
      notificationService.notify(t.database.db, { userId: randomUUID(), type: 'system', text: greeting }),
    ).rejects.toThrow(/unknown person/);
    const person = await recipient('en', 1);
    await expect(
      t.database.db.transaction(async (tx) => {
        await notificationService.notify(tx, {
          userId: person.id,
          type: 'reservation_request',
          text: greeting,
        });
        throw new Error('the event failed');
      }),
    ).rejects.toThrow('the event failed');
    expect((await t.database.db.select().from(notifications)).length).toBe(before);
    const stranded = await t.database.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.userId, person.id));
    expect(stranded).toEqual([]);
  });
});
