import { describe, expect, it } from 'vitest';
import { notificationService } from '../../src/server/features/notifications/service.ts';
import { createSignedInUser } from '../factories.ts';
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
