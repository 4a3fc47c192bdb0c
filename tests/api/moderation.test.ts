import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { moderationActions, reports } from '../../src/server/db/schema/community.ts';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { sessions } from '../../src/server/db/schema/users.ts';
import { startSession } from '../../src/server/features/auth/service.ts';
import { createItem, createSignedInUser, createUser, TEST_PASSWORD } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The moderators' API: who may call it, the queue, decisions, hiding and suspending.

const ADMIN_EMAIL = 'Moderator.Test@Stanford.edu';
const SECOND_MODERATOR = 'second.moderator@stanford.edu';
const t = setupTestApp({ adminEmails: [ADMIN_EMAIL.toLowerCase(), SECOND_MODERATOR] });
const db = () => t.database.db;

const MISSING = '00000000-0000-4000-8000-000000000000';
const DESCRIPTION = 'This listing copies photos from a store website.';

let admin: Awaited<ReturnType<typeof createSignedInUser>>;
let socketUrl = '';

beforeAll(async () => {
  // Stored in mixed case: the match with ADMIN_EMAILS ignores case.
  admin = await createSignedInUser(db(), { email: ADMIN_EMAIL, fullName: 'Morgan Moderator' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  socketUrl = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws`;
});

/** A lender with a listed item, and a student who reports it. */
async function reportedItem(title = 'Cordless drill', reason = 'fake_listing') {
  const owner = await createSignedInUser(db());
  const item = await createItem(db(), { userId: owner.user.id, title });
  const reporter = await createSignedInUser(db());
  const response = await t.post(
    '/api/reports',
    { reportedItemId: item.id, reason, description: DESCRIPTION },
    reporter.cookie,
  );
  expect(response.statusCode).toBe(201);
  return { owner, item, reporter, reportId: response.json().report.id as string };
}

async function reportedUser() {
  const target = await createSignedInUser(db());
  const reporter = await createSignedInUser(db());
  const response = await t.post(
    '/api/reports',
    {
      reportedUserId: target.user.id,
      reason: 'harassment',
      description: 'Keeps messaging me after I said no.',
    },
    reporter.cookie,
  );
  expect(response.statusCode).toBe(201);
  return { target, reporter, reportId: response.json().report.id as string };
}

const notificationsOf = (userId: string) =>
  db().select().from(notifications).where(eq(notifications.userId, userId));

const login = (email: string, password = TEST_PASSWORD) => t.post('/api/auth/login', { email, password });

describe('who is a moderator', () => {
  it('says so in the session: true for ADMIN_EMAILS (any case), false for everyone else', async () => {
    const me = await t.get('/api/auth/me', admin.cookie);
    expect(me.json().user).toMatchObject({ id: admin.user.id, isAdmin: true });
    const student = await createSignedInUser(db());
    expect((await t.get('/api/auth/me', student.cookie)).json().user).toMatchObject({ isAdmin: false });
    const signIn = await login(ADMIN_EMAIL.toLowerCase());
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user.isAdmin).toBe(true);
  });

  it('keeps every admin route from the signed-out (401) and from students (403), changing nothing', async () => {
    const { item, owner, reportId } = await reportedItem();
    const student = await createSignedInUser(db());
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/reports'],
      ['GET', '/api/admin/reports?status=all'],
      ['GET', `/api/admin/reports/${reportId}`],
      ['POST', `/api/admin/reports/${reportId}/notes`, { note: 'Looks fine to me' }],
      ['POST', `/api/admin/reports/${reportId}/resolve`, {}],
      ['POST', `/api/admin/reports/${reportId}/dismiss`, {}],
      ['POST', `/api/admin/items/${item.id}/hide`, {}],
      ['POST', `/api/admin/items/${item.id}/unhide`, {}],
      ['POST', `/api/admin/users/${owner.user.id}/suspend`, {}],
      ['POST', `/api/admin/users/${owner.user.id}/unsuspend`, {}],
    ];
    for (const [method, url, payload] of routes) {
      const anonymous = await t.request({ method: method as 'GET', url, payload: payload as object });
      expect(anonymous.statusCode, `${method} ${url} signed out`).toBe(401);
      const forbidden = await t.request({
        method: method as 'GET',
        url,
        payload: payload as object,
        cookie: student.cookie,
      });
      expect(forbidden.statusCode, `${method} ${url} as a student`).toBe(403);
      expect(forbidden.json().message).toBe('Only CampusLoop moderators can do that.');
    }
    const [report] = await db().select().from(reports).where(eq(reports.id, reportId));
    expect(report).toMatchObject({ status: 'pending', reviewedBy: null, adminNotes: null });
    expect(
      await db().select().from(moderationActions).where(eq(moderationActions.reportId, reportId)),
    ).toEqual([]);
    expect((await t.get(`/api/items/${item.id}`)).statusCode).toBe(200);
    expect((await t.get('/api/auth/me', owner.cookie)).json().user).not.toBeNull();
  });
});

describe('the queue', () => {
  it('lists reports by status with the reporter, the target and counts per tab, and pages', async () => {
    const a = await reportedItem('Tent for two');
    const b = await reportedUser();
    const c = await reportedItem('Rice cooker');
    await t.post(`/api/admin/reports/${c.reportId}/dismiss`, {}, admin.cookie);

    const pending = await t.get('/api/admin/reports', admin.cookie);
    expect(pending.statusCode).toBe(200);
    const queue = pending.json();
    expect(queue.counts.pending).toBe(queue.total);
    expect(queue.counts.all).toBe(queue.counts.pending + queue.counts.resolved + queue.counts.dismissed);
    expect(queue.counts.dismissed).toBeGreaterThanOrEqual(1);
    const ids = queue.reports.map((r: { id: string }) => r.id);
    expect(ids).toContain(a.reportId);
    expect(ids).toContain(b.reportId);
    expect(ids).not.toContain(c.reportId);
    // Oldest first: whoever waited longest is next.
    expect(ids.indexOf(a.reportId)).toBeLessThan(ids.indexOf(b.reportId));
    expect(queue.reports.find((r: { id: string }) => r.id === a.reportId)).toMatchObject({
      reason: 'fake_listing',
      description: DESCRIPTION,
      status: 'pending',
      reporter: {
        id: a.reporter.user.id,
        fullName: a.reporter.user.fullName,
        username: a.reporter.user.username,
      },
      target: {
        kind: 'item',
        item: { id: a.item.id, title: 'Tent for two', hidden: false, deleted: false },
        user: { id: a.owner.user.id, fullName: a.owner.user.fullName, suspended: false, deleted: false },
      },
    });
    expect(queue.reports.find((r: { id: string }) => r.id === b.reportId).target).toEqual({
      kind: 'user',
      user: {
        id: b.target.user.id,
        fullName: b.target.user.fullName,
        username: b.target.user.username,
        suspended: false,
        deleted: false,
      },
    });

    const dismissed = (await t.get('/api/admin/reports?status=dismissed', admin.cookie)).json();
    expect(dismissed.reports.every((r: { status: string }) => r.status === 'dismissed')).toBe(true);
    expect(dismissed.reports.map((r: { id: string }) => r.id)).toContain(c.reportId);
    const all = (await t.get('/api/admin/reports?status=all&limit=50', admin.cookie)).json();
    expect(all.total).toBe(queue.counts.all);

    const firstPage = (await t.get('/api/admin/reports?status=all&limit=2', admin.cookie)).json();
    expect(firstPage).toMatchObject({ page: 1, limit: 2, hasMore: true });
    expect(firstPage.reports).toHaveLength(2);
    const secondPage = (await t.get('/api/admin/reports?status=all&limit=2&page=2', admin.cookie)).json();
    expect(secondPage.reports[0].id).not.toBe(firstPage.reports[0].id);
  });

  it('refuses an unknown filter or paging', async () => {
    const bad = await t.get('/api/admin/reports?status=open', admin.cookie);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Status must be pending, resolved, dismissed or all');
    expect((await t.get('/api/admin/reports?limit=500', admin.cookie)).statusCode).toBe(400);
    expect((await t.get('/api/admin/reports?page=0', admin.cookie)).statusCode).toBe(400);
  });
});

describe('one report', () => {
  it('shows the item and its owner, the other reports about them, and the history', async () => {
    const first = await reportedItem('Graphing calculator');
    // Another student reports the same item, a third reports the owner.
    const second = await createSignedInUser(db());
    await t.post(
      '/api/reports',
      { reportedItemId: first.item.id, reason: 'scam', description: 'Asked me to pay a deposit by wire.' },
      second.cookie,
    );
    const third = await createSignedInUser(db());
    await t.post(
      '/api/reports',
      { reportedUserId: first.owner.user.id, reason: 'spam', description: 'Sends the same ad to everyone.' },
      third.cookie,
    );
    const unrelated = await reportedItem('Yoga mat');

    const noted = await t.post(
      `/api/admin/reports/${first.reportId}/notes`,
      { note: '  Asked the owner for a receipt.  ' },
      admin.cookie,
    );
    expect(noted.statusCode).toBe(201);

    const response = await t.get(`/api/admin/reports/${first.reportId}`, admin.cookie);
    expect(response.statusCode).toBe(200);
    const detail = response.json();
    expect(detail.report).toMatchObject({
      id: first.reportId,
      status: 'pending',
      adminNotes: null,
      reviewedBy: null,
    });
    expect(detail.item).toMatchObject({
      id: first.item.id,
      title: 'Graphing calculator',
      description: first.item.description,
      hiddenAt: null,
      deletedAt: null,
      owner: { id: first.owner.user.id },
    });
    expect(detail.user).toMatchObject({
      id: first.owner.user.id,
      email: first.owner.user.email,
      campusName: 'Stanford University',
      suspendedAt: null,
    });
    const others = detail.otherReports.map((r: { reason: string }) => r.reason).sort();
    expect(others).toEqual(['scam', 'spam']);
    expect(detail.otherReports.map((r: { id: string }) => r.id)).not.toContain(unrelated.reportId);
    expect(detail.history).toEqual([
      expect.objectContaining({
        action: 'note',
        note: 'Asked the owner for a receipt.',
        reportId: first.reportId,
        targetItemId: first.item.id,
        targetUserId: first.owner.user.id,
        admin: { id: admin.user.id, fullName: 'Morgan Moderator', username: admin.user.username },
      }),
    ]);
  });

  it('answers 404 for a missing report and 400 for a malformed id or a blank note', async () => {
    expect((await t.get(`/api/admin/reports/${MISSING}`, admin.cookie)).statusCode).toBe(404);
    expect((await t.get('/api/admin/reports/nope', admin.cookie)).statusCode).toBe(400);
    const { reportId } = await reportedUser();
    for (const note of ['', '   ', 'x'.repeat(2001)]) {
      const response = await t.post(`/api/admin/reports/${reportId}/notes`, { note }, admin.cookie);
      expect(response.statusCode).toBe(400);
    }
    expect((await t.post(`/api/admin/reports/${reportId}/notes`, {}, admin.cookie)).json().message).toBe(
      'Please write a note',
    );
    const missing = await t.post(`/api/admin/reports/${MISSING}/notes`, { note: 'Hello' }, admin.cookie);
    expect(missing.statusCode).toBe(404);
    expect(
      await db().select().from(moderationActions).where(eq(moderationActions.reportId, reportId)),
    ).toEqual([]);
  });
});

describe('resolving and dismissing', () => {
  it('resolves: status, reviewer, time and notes are kept, the reporter is told, and it is final', async () => {
    const { reporter, reportId, item } = await reportedItem('Standing desk');
    const response = await t.post(
      `/api/admin/reports/${reportId}/resolve`,
      { adminNotes: 'Owner confirmed the photos were wrong; listing fixed.' },
      admin.cookie,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().report).toMatchObject({
      status: 'resolved',
      adminNotes: 'Owner confirmed the photos were wrong; listing fixed.',
      reviewedBy: { id: admin.user.id, fullName: 'Morgan Moderator' },
    });
    expect(Date.now() - Date.parse(response.json().report.reviewedAt)).toBeLessThan(60_000);
    expect(response.json().history[0]).toMatchObject({ action: 'resolve', reportId });

    const notices = await notificationsOf(reporter.user.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      type: 'report_update',
      title: 'Your report was reviewed',
      message:
        'Thank you for reporting “Standing desk” (Fake Listing). Our moderators reviewed your report and took action.',
    });
    // The reporter sees the new status, never the moderators' notes.
    const mine = (await t.get('/api/reports', reporter.cookie)).json().reports[0];
    expect(mine.status).toBe('resolved');
    expect(JSON.stringify(mine)).not.toContain('listing fixed');

    const again = await t.post(`/api/admin/reports/${reportId}/dismiss`, {}, admin.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This report has already been resolved.');
    const [row] = await db().select().from(reports).where(eq(reports.id, reportId));
    expect(row!.status).toBe('resolved');

    // Decided, the item may be reported again by the same student.
    const newReport = await t.post(
      '/api/reports',
      { reportedItemId: item.id, reason: 'other', description: 'The photos changed but are still wrong.' },
      reporter.cookie,
    );
    expect(newReport.statusCode).toBe(201);
  });

  it('dismisses without notes (a bare POST too), telling the reporter nothing was wrong', async () => {
    const { reporter, reportId, target } = await reportedUser();
    const response = await t.request({
      method: 'POST',
      url: `/api/admin/reports/${reportId}/dismiss`,
      cookie: admin.cookie,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().report).toMatchObject({ status: 'dismissed', adminNotes: null });
    const [notice] = await notificationsOf(reporter.user.id);
    expect(notice!.message).toBe(
      `Thank you for reporting ${target.user.fullName} (Harassment). Our moderators reviewed your report and found no breach of the community guidelines, so no action was taken.`,
    );
    expect((await t.post(`/api/admin/reports/${MISSING}/resolve`, {}, admin.cookie)).statusCode).toBe(404);
    const tooLong = await t.post(
      `/api/admin/reports/${reportId}/resolve`,
      { adminNotes: 'x'.repeat(2001) },
      admin.cookie,
    );
    expect(tooLong.statusCode).toBe(400);
  });

  it('lets one of two simultaneous decisions win', async () => {
    const { reportId, reporter } = await reportedUser();
    const results = await Promise.all([
      t.post(`/api/admin/reports/${reportId}/resolve`, {}, admin.cookie),
      t.post(`/api/admin/reports/${reportId}/dismiss`, {}, admin.cookie),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await notificationsOf(reporter.user.id)).toHaveLength(1);
    const decisions = await db()
      .select()
      .from(moderationActions)
      .where(eq(moderationActions.reportId, reportId));
    expect(decisions).toHaveLength(1);
  });
});

describe('hiding an item', () => {
  it('takes it out of home, browse, search, its page and its owner’s profile for everyone but the owner and moderators', async () => {
    const { owner, item, reportId } = await reportedItem('Vintage espresso machine');
    const student = await createSignedInUser(db());
    const listed = async (query: string) =>
      (await t.get(`/api/items?${query}`)).json().items.map((i: { id: string }) => i.id);
    expect(await listed('campus=stanford.edu&limit=50')).toContain(item.id);
    expect(await listed('searchQuery=espresso')).toContain(item.id);

    const hide = await t.post(
      `/api/admin/items/${item.id}/hide`,
      { reportId, note: 'Counterfeit listing.' },
      admin.cookie,
    );
    expect(hide.statusCode).toBe(200);
    expect(hide.json().item).toMatchObject({ id: item.id, hiddenAt: expect.any(String) });

    // Gone from the home list, browse (all campuses, available now) and search.
    expect(await listed('campus=stanford.edu&limit=50')).not.toContain(item.id);
    expect(await listed('campus=all&availableNow=true&limit=50')).not.toContain(item.id);
    expect(await listed('searchQuery=espresso')).not.toContain(item.id);
    expect((await t.get('/api/items?searchQuery=espresso')).json().total).toBe(0);
    // Its page is a 404 for visitors and students…
    for (const cookie of [undefined, student.cookie]) {
      const page = await t.get(`/api/items/${item.id}`, cookie);
      expect(page.statusCode).toBe(404);
      expect(page.json().message).toBe('Item not found.');
    }
    // …but its owner and the moderators still see it, marked hidden.
    const ownView = await t.get(`/api/items/${item.id}`, owner.cookie);
    expect(ownView.statusCode).toBe(200);
    expect(ownView.json().item.hidden).toBe(true);
    expect(ownView.json().moderation).toBeUndefined();
    const adminView = (await t.get(`/api/items/${item.id}`, admin.cookie)).json();
    expect(adminView.item.hidden).toBe(true);
    expect(adminView.moderation).toMatchObject({ hiddenAt: expect.any(String), ownerSuspendedAt: null });
    // The owner's profile lists it to them alone.
    const profileIds = async (cookie?: string) =>
      (await t.get(`/api/users/${owner.user.id}`, cookie)).json().items.map((i: { id: string }) => i.id);
    expect(await profileIds(owner.cookie)).toContain(item.id);
    expect(await profileIds(student.cookie)).not.toContain(item.id);
    expect(await profileIds()).not.toContain(item.id);
    // Nobody can reserve it, chat about it or report it again.
    expect((await t.get(`/api/items/${item.id}/availability`, student.cookie)).statusCode).toBe(404);
    expect((await t.post('/api/conversations', { itemId: item.id }, student.cookie)).statusCode).toBe(404);
    expect(
      (
        await t.post(
          '/api/reports',
          { reportedItemId: item.id, reason: 'scam', description: DESCRIPTION },
          student.cookie,
        )
      ).statusCode,
    ).toBe(404);

    // The owner is told, and the history has it.
    const [notice] = await notificationsOf(owner.user.id);
    expect(notice).toMatchObject({
      type: 'report_update',
      title: 'Your listing was hidden',
      relatedItemId: item.id,
    });
    const detail = (await t.get(`/api/admin/reports/${reportId}`, admin.cookie)).json();
    expect(detail.item.hiddenAt).not.toBeNull();
    expect(detail.report.target.item.hidden).toBe(true);
    expect(detail.history[0]).toMatchObject({ action: 'hide_item', note: 'Counterfeit listing.', reportId });

    const twice = await t.post(`/api/admin/items/${item.id}/hide`, {}, admin.cookie);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This item is already hidden.');

    // Unhidden, it is back everywhere (in a search that did not show it, once that expires: decision 049).
    const unhide = await t.post(`/api/admin/items/${item.id}/unhide`, { reportId }, admin.cookie);
    expect(unhide.statusCode).toBe(200);
    expect(unhide.json().item.hiddenAt).toBeNull();
    expect(await listed('campus=stanford.edu&limit=50')).toContain(item.id);
    expect((await t.get(`/api/items/${item.id}`, student.cookie)).json().item.hidden).toBe(false);
    expect((await notificationsOf(owner.user.id)).map((n) => n.title)).toContain(
      'Your listing is visible again',
    );
    expect((await t.post(`/api/admin/items/${item.id}/unhide`, {}, admin.cookie)).statusCode).toBe(409);
  });

  it('refuses a missing or deleted item, and a report about something else', async () => {
    expect((await t.post(`/api/admin/items/${MISSING}/hide`, {}, admin.cookie)).statusCode).toBe(404);
    const { item, owner } = await reportedItem('Camping stove');
    const { reportId: otherReport } = await reportedUser();
    const wrong = await t.post(`/api/admin/items/${item.id}/hide`, { reportId: otherReport }, admin.cookie);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('That report is not about this item.');
    expect((await t.get(`/api/items/${item.id}`)).statusCode).toBe(200);
    expect((await t.del(`/api/items/${item.id}`, owner.cookie)).statusCode).toBe(200);
    const deleted = await t.post(`/api/admin/items/${item.id}/hide`, {}, admin.cookie);
    expect(deleted.statusCode).toBe(404);
    expect(
      await db().select().from(moderationActions).where(eq(moderationActions.targetItemId, item.id)),
    ).toEqual([]);
  });
});

describe('suspending a user', () => {
  it('ends their sessions, refuses their sign-in, takes their listings out of browse, and can be lifted', async () => {
    const { target, reportId } = await reportedUser();
    const item = await createItem(db(), { userId: target.user.id, title: 'Suspended seller’s kayak' });
    const secondDevice = await startSession(db(), target.user.id, 30);
    expect((await t.get('/api/auth/me', target.cookie)).json().user).not.toBeNull();

    const response = await t.post(
      `/api/admin/users/${target.user.id}/suspend`,
      { reportId, note: 'Repeated harassment.' },
      admin.cookie,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({ id: target.user.id, suspendedAt: expect.any(String) });

    // Every session is gone: the old cookies count as signed out.
    const [left] = await db()
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(sessions)
      .where(eq(sessions.userId, target.user.id));
    expect(left!.n).toBe(0);
    expect((await t.get('/api/auth/me', target.cookie)).json().user).toBeNull();
    expect((await t.get('/api/auth/me', `cl_session=${secondDevice.token}`)).json().user).toBeNull();
    expect((await t.get('/api/notifications', target.cookie)).statusCode).toBe(401);

    // Sign-in says why, but only to someone who knows the password.
    const refused = await login(target.user.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'ACCOUNT_SUSPENDED',
      message: 'This account is suspended. Contact support.',
    });
    expect(refused.cookies.find((c) => c.name === 'cl_session')).toBeUndefined();
    const wrongPassword = await login(target.user.email, 'not the password');
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().message).toBe('Invalid email or password.');

    // Their listings leave browse and their pages, except for moderators.
    expect(
      (await t.get('/api/items?campus=all&limit=50')).json().items.map((i: { id: string }) => i.id),
    ).not.toContain(item.id);
    expect((await t.get(`/api/items/${item.id}`)).statusCode).toBe(404);
    expect(
      (await t.get(`/api/items/${item.id}`, admin.cookie)).json().moderation.ownerSuspendedAt,
    ).not.toBeNull();

    const detail = (await t.get(`/api/admin/reports/${reportId}`, admin.cookie)).json();
    expect(detail.user.suspendedAt).not.toBeNull();
    expect(detail.report.target.user.suspended).toBe(true);
    expect(detail.history[0]).toMatchObject({ action: 'suspend_user', note: 'Repeated harassment.' });
    expect((await t.post(`/api/admin/users/${target.user.id}/suspend`, {}, admin.cookie)).statusCode).toBe(
      409,
    );

    const lifted = await t.post(`/api/admin/users/${target.user.id}/unsuspend`, {}, admin.cookie);
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json().user.suspendedAt).toBeNull();
    expect((await login(target.user.email)).statusCode).toBe(200);
    expect((await t.get(`/api/items/${item.id}`)).statusCode).toBe(200);
    expect((await t.post(`/api/admin/users/${target.user.id}/unsuspend`, {}, admin.cookie)).statusCode).toBe(
      409,
    );
  });

  it('refuses a session that somehow outlived the suspension', async () => {
    const suspended = await createUser(db(), { suspendedAt: new Date() });
    const { token } = await startSession(db(), suspended.id, 30);
    const me = await t.get('/api/auth/me', `cl_session=${token}`);
    expect(me.json().user).toBeNull();
    // The stale cookie is cleared.
    expect(me.cookies.find((c) => c.name === 'cl_session')?.value).toBe('');
  });

  it('closes their open live channel', async () => {
    const { target } = await reportedUser();
    const socket = new WebSocket(socketUrl, { headers: { cookie: target.cookie } });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () => resolve());
      socket.on('error', reject);
    });
    await t.post(`/api/admin/users/${target.user.id}/suspend`, {}, admin.cookie);
    expect(await closed).toBe(4401);
  });

  it('refuses suspending oneself, another moderator, or nobody', async () => {
    const self = await t.post(`/api/admin/users/${admin.user.id}/suspend`, {}, admin.cookie);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('You cannot suspend your own account.');
    const colleague = await createUser(db(), { email: SECOND_MODERATOR });
    const moderator = await t.post(`/api/admin/users/${colleague.id}/suspend`, {}, admin.cookie);
    expect(moderator.statusCode).toBe(400);
    expect(moderator.json().message).toBe(
      'Moderators cannot be suspended. Remove them from ADMIN_EMAILS first.',
    );
    expect((await t.post(`/api/admin/users/${MISSING}/suspend`, {}, admin.cookie)).statusCode).toBe(404);
    const { reportId } = await reportedItem('Bike pump');
    const student = await createUser(db());
    const wrong = await t.post(`/api/admin/users/${student.id}/suspend`, { reportId }, admin.cookie);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('That report is not about this user.');
    const [row] = await db()
      .select()
      .from(moderationActions)
      .where(
        and(eq(moderationActions.targetUserId, student.id), eq(moderationActions.action, 'suspend_user')),
      );
    expect(row).toBeUndefined();
    expect((await login(student.email)).statusCode).toBe(200);
  });
});
