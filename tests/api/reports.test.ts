import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { reports } from '../../src/server/db/schema/community.ts';
import { items } from '../../src/server/db/schema/items.ts';
import { createItem, createSignedInUser, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();
const db = () => t.database.db;

const MISSING = '00000000-0000-4000-8000-000000000000';
const DESCRIPTION = 'The photos are of a different drill than the one described.';

async function reportCount(reporterId: string) {
  const [row] = await db()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(reports)
    .where(eq(reports.reporterId, reporterId));
  return row!.n;
}

/** A lender with an item, and another student who may report them. */
async function scene() {
  const owner = await createSignedInUser(db());
  const item = await createItem(db(), { userId: owner.user.id, title: 'Cordless drill' });
  const reporter = await createSignedInUser(db());
  return { owner, item, reporter };
}

describe('POST /api/reports', () => {
  it('files an item report with the item’s owner as the reported user, and lists it for its reporter', async () => {
    const { owner, item, reporter } = await scene();
    const response = await t.post(
      '/api/reports',
      { reportedItemId: item.id, reason: 'fake_listing', description: `  ${DESCRIPTION}  ` },
      reporter.cookie,
    );
    expect(response.statusCode).toBe(201);
    const { report } = response.json();
    expect(report).toMatchObject({
      reportedItemId: item.id,
      reportedUserId: owner.user.id,
      reason: 'fake_listing',
      description: DESCRIPTION,
      status: 'pending',
      reviewedAt: null,
    });
    expect(Object.keys(report)).not.toContain('adminNotes');

    const mine = await t.get('/api/reports', reporter.cookie);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().reports).toEqual([report]);
    // Nobody else sees it.
    expect((await t.get('/api/reports', owner.cookie)).json().reports).toEqual([]);
  });

  it('files a user report, and the reason defaults to scam (spec §5)', async () => {
    const reporter = await createSignedInUser(db());
    const other = await createUser(db());
    const response = await t.post(
      '/api/reports',
      { reportedUserId: other.id, description: 'Asked me to pay outside the app.' },
      reporter.cookie,
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().report).toMatchObject({
      reportedUserId: other.id,
      reportedItemId: null,
      reason: 'scam',
    });
  });

  it('accepts the owner alongside the item, and refuses someone else named as the owner', async () => {
    const { owner, item, reporter } = await scene();
    const stranger = await createUser(db());
    const wrong = await t.post(
      '/api/reports',
      { reportedItemId: item.id, reportedUserId: stranger.id, reason: 'spam', description: DESCRIPTION },
      reporter.cookie,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('That user does not own this item.');
    const right = await t.post(
      '/api/reports',
      { reportedItemId: item.id, reportedUserId: owner.user.id, reason: 'spam', description: DESCRIPTION },
      reporter.cookie,
    );
    expect(right.statusCode).toBe(201);
  });

  it('refuses bad input with the spec’s messages and stores nothing', async () => {
    const { item, reporter } = await scene();
    const cases: [Record<string, unknown>, string][] = [
      [
        { reportedItemId: item.id, reason: 'scam', description: 'Too short' },
        'Please provide a detailed description (at least 10 characters)',
      ],
      [
        { reportedItemId: item.id, reason: 'scam', description: '   short    ' },
        'Please provide a detailed description (at least 10 characters)',
      ],
      [
        { reportedItemId: item.id, reason: 'scam' },
        'Please provide a detailed description (at least 10 characters)',
      ],
      [{ reportedItemId: item.id, reason: 'scam', description: 'x'.repeat(1001) }, 'Description too long'],
      [{ reportedItemId: item.id, reason: 'rude', description: DESCRIPTION }, 'Please choose a reason'],
      [{ reason: 'scam', description: DESCRIPTION }, 'Choose the item or the user you are reporting'],
      [
        { reportedItemId: null, reportedUserId: null, reason: 'scam', description: DESCRIPTION },
        'Choose the item or the user you are reporting',
      ],
      [{ reportedItemId: 'not-an-id', reason: 'scam', description: DESCRIPTION }, 'Item not found'],
      [{ reportedUserId: 42, reason: 'scam', description: DESCRIPTION }, 'User not found'],
    ];
    for (const [body, message] of cases) {
      const response = await t.post('/api/reports', body, reporter.cookie);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    // The longest allowed description goes through.
    const longest = await t.post(
      '/api/reports',
      { reportedItemId: item.id, reason: 'other', description: 'x'.repeat(1000) },
      reporter.cookie,
    );
    expect(longest.statusCode).toBe(201);
    expect(await reportCount(reporter.user.id)).toBe(1);
  });

  it('refuses reporting oneself or one’s own item', async () => {
    const { owner, item } = await scene();
    const self = await t.post(
      '/api/reports',
      { reportedUserId: owner.user.id, reason: 'harassment', description: DESCRIPTION },
      owner.cookie,
    );
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('You cannot report yourself.');
    const ownItem = await t.post(
      '/api/reports',
      { reportedItemId: item.id, reason: 'spam', description: DESCRIPTION },
      owner.cookie,
    );
    expect(ownItem.statusCode).toBe(400);
    expect(ownItem.json().message).toBe('You cannot report your own item.');
    expect(await reportCount(owner.user.id)).toBe(0);
  });

  it('needs a target that exists and is listed', async () => {
    const { item, reporter } = await scene();
    const missingItem = await t.post(
      '/api/reports',
      { reportedItemId: MISSING, reason: 'scam', description: DESCRIPTION },
      reporter.cookie,
    );
    expect(missingItem.statusCode).toBe(404);
    expect(missingItem.json().message).toBe('Item not found.');
    const missingUser = await t.post(
      '/api/reports',
      { reportedUserId: MISSING, reason: 'scam', description: DESCRIPTION },
      reporter.cookie,
    );
    expect(missingUser.statusCode).toBe(404);
    expect(missingUser.json().message).toBe('User not found.');

    await db().update(items).set({ hiddenAt: new Date() }).where(eq(items.id, item.id));
    const hidden = await t.post(
      '/api/reports',
      { reportedItemId: item.id, reason: 'scam', description: DESCRIPTION },
      reporter.cookie,
    );
    expect(hidden.statusCode).toBe(404);
    await db().update(items).set({ hiddenAt: null, deletedAt: new Date() }).where(eq(items.id, item.id));
    const deleted = await t.post(
      '/api/reports',
      { reportedItemId: item.id, reason: 'scam', description: DESCRIPTION },
      reporter.cookie,
    );
    expect(deleted.statusCode).toBe(404);
    expect(await reportCount(reporter.user.id)).toBe(0);
  });

  it('keeps one open report per reporter and target, even when sent at once', async () => {
    const { owner, item, reporter } = await scene();
    const body = { reportedItemId: item.id, reason: 'scam', description: DESCRIPTION };
    const results = await Promise.all([1, 2, 3, 4].map(() => t.post('/api/reports', body, reporter.cookie)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const clash = results.find((r) => r.statusCode === 409)!;
    expect(clash.json()).toMatchObject({
      code: 'ALREADY_REPORTED',
      message: 'You have already reported this item. Our team will review your report shortly.',
    });

    // Reporting the owner is another target, and has its own one-open rule.
    const person = { reportedUserId: owner.user.id, reason: 'harassment', description: DESCRIPTION };
    expect((await t.post('/api/reports', person, reporter.cookie)).statusCode).toBe(201);
    const again = await t.post('/api/reports', person, reporter.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      'You have already reported this user. Our team will review your report shortly.',
    );

    // Someone else may report the same item.
    const other = await createSignedInUser(db());
    expect((await t.post('/api/reports', body, other.cookie)).statusCode).toBe(201);

    // Once a moderator has decided it, the item may be reported again.
    await db()
      .update(reports)
      .set({ status: 'dismissed', reviewedAt: new Date() })
      .where(eq(reports.reporterId, reporter.user.id));
    expect((await t.post('/api/reports', body, reporter.cookie)).statusCode).toBe(201);
    expect(await reportCount(reporter.user.id)).toBe(3);
  });

  it('is for signed-in people only', async () => {
    const { item } = await scene();
    const response = await t.post('/api/reports', {
      reportedItemId: item.id,
      reason: 'scam',
      description: DESCRIPTION,
    });
    expect(response.statusCode).toBe(401);
    expect((await t.get('/api/reports')).statusCode).toBe(401);
    const [row] = await db()
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(reports)
      .where(eq(reports.reportedItemId, item.id));
    expect(row!.n).toBe(0);
  });

  it('limits a person to ten reports an hour', async () => {
    const reporter = await createSignedInUser(db());
    const targets = await Promise.all(Array.from({ length: 11 }, () => createUser(db())));
    const statuses: number[] = [];
    for (const target of targets) {
      const response = await t.post(
        '/api/reports',
        { reportedUserId: target.id, reason: 'spam', description: DESCRIPTION },
        reporter.cookie,
      );
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(await reportCount(reporter.user.id)).toBe(10);
    // Another person is not affected.
    const other = await createSignedInUser(db());
    const response = await t.post(
      '/api/reports',
      { reportedUserId: targets[0]!.id, reason: 'spam', description: DESCRIPTION },
      other.cookie,
    );
    expect(response.statusCode).toBe(201);
  });
});
