import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { items } from '../../src/server/db/schema/items.ts';
import { notifications } from '../../src/server/db/schema/notifications.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Issue 7: the read caches (src/server/cache) answer repeated reads from memory, and nobody ever
// reads stale data because of them: a change through the API is seen at once by its writer, and a
// change written by anyone else (another server instance, a job, a script: here, SQL on the
// database itself) reaches every cache through the database's announcement. The caches keep answers
// for 30 s by default, so every "within a second" below would fail without the invalidation.

const MODERATOR = 'cache.moderator@stanford.edu';
const t = setupTestApp({ adminEmails: [MODERATOR] });
const db = () => t.database.db;
const soon = { timeout: 2000, interval: 25 };

const titlesOf = async (url: string) =>
  ((await t.get(url)).json().items as { title: string }[]).map((item) => item.title);

describe('read caches', () => {
  it('serve a list from memory until an item changes, whoever changes it', async () => {
    const { user } = await createSignedInUser(db());
    const item = await createItem(db(), { userId: user.id, title: 'Cache-test kayak paddle' });
    const url = '/api/items?campus=all&searchQuery=kayak%20paddle';
    expect(await titlesOf(url)).toEqual(['Cache-test kayak paddle']);
    // PostgreSQL hands the announcements of the set-up's own writes to the listener a moment after
    // they commit: let them arrive, then remember the list afresh.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await titlesOf(url)).toEqual(['Cache-test kayak paddle']);

    // Proof that the answer is remembered: a change the database does not announce (the announcing
    // trigger is switched off for this one statement's transaction) is not seen.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table items disable trigger items_cache`);
      await tx.update(items).set({ title: 'Silent kayak paddle' }).where(eq(items.id, item.id));
      await tx.execute(sql`alter table items enable trigger items_cache`);
    });
    expect(await titlesOf(url)).toEqual(['Cache-test kayak paddle']);

    // An announced change, written outside this server: seen within a second.
    await db().update(items).set({ title: 'Renamed kayak paddle' }).where(eq(items.id, item.id));
    await vi.waitFor(async () => expect(await titlesOf(url)).toEqual(['Renamed kayak paddle']), soon);
  });

  it('show the writer their own change at once', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const item = await createItem(db(), { userId: user.id, title: 'Camping stove' });
    expect((await t.get(`/api/items/${item.id}`)).json().item.title).toBe('Camping stove');
    const listUrl = `/api/items?campus=all&searchQuery=${encodeURIComponent('camping stove')}`;
    expect(await titlesOf(listUrl)).toContain('Camping stove');

    const edited = await t.put(
      `/api/items/${item.id}`,
      {
        title: 'Two-burner camping stove',
        description: item.description,
        category: item.category,
        condition: item.condition,
        images: [],
        pickupMethod: item.pickupMethod,
        availableFrom: item.availableFrom,
        availableDays: item.availableDays,
      },
      cookie,
    );
    expect(edited.statusCode).toBe(200);
    // No waiting: the very next reads.
    expect((await t.get(`/api/items/${item.id}`)).json().item.title).toBe('Two-burner camping stove');
    expect(await titlesOf(listUrl)).toContain('Two-burner camping stove');
  });

  it('never show one visitor what only another may see', async () => {
    const owner = await createSignedInUser(db());
    const stranger = await createSignedInUser(db());
    const moderator = await createSignedInUser(db(), { email: MODERATOR });
    const item = await createItem(db(), { userId: owner.user.id, title: 'Hidden lamp' });
    await db().update(items).set({ hiddenAt: new Date() }).where(eq(items.id, item.id));

    // A signed-out visitor's 404 is remembered; the owner and the moderator still get the page.
    await vi.waitFor(async () => expect((await t.get(`/api/items/${item.id}`)).statusCode).toBe(404), soon);
    expect((await t.get(`/api/items/${item.id}`, stranger.cookie)).statusCode).toBe(404);
    const own = await t.get(`/api/items/${item.id}`, owner.cookie);
    expect(own.statusCode).toBe(200);
    expect(own.json().item.hidden).toBe(true);
    const moderated = await t.get(`/api/items/${item.id}`, moderator.cookie);
    expect(moderated.json().moderation.hiddenAt).toBeTruthy();

    // A public profile is remembered for everyone else; the person's own stays their own.
    const publicProfile = await t.get(`/api/users/${owner.user.id}`, stranger.cookie);
    expect(publicProfile.json().borrowed).toBeUndefined();
    expect(publicProfile.json().items.map((i: { title: string }) => i.title)).not.toContain('Hidden lamp');
    const ownProfile = await t.get(`/api/users/${owner.user.id}`, owner.cookie);
    expect(ownProfile.json().borrowed).toEqual([]);
    expect(ownProfile.json().items.map((i: { title: string }) => i.title)).toContain('Hidden lamp');
    expect((await t.get(`/api/users/${owner.user.id}`)).json().borrowed).toBeUndefined();
  });

  it('end a session at once on sign-out, and within a second on suspension by anyone', async () => {
    const a = await createSignedInUser(db());
    expect((await t.get('/api/notifications/unread', a.cookie)).statusCode).toBe(200);
    expect((await t.post('/api/auth/logout', {}, a.cookie)).statusCode).toBe(200);
    expect((await t.get('/api/notifications/unread', a.cookie)).statusCode).toBe(401);

    const b = await createSignedInUser(db());
    expect((await t.get('/api/conversations/unread-count', b.cookie)).statusCode).toBe(200);
    await db().update(users).set({ suspendedAt: new Date() }).where(eq(users.id, b.user.id));
    await vi.waitFor(
      async () => expect((await t.get('/api/conversations/unread-count', b.cookie)).statusCode).toBe(401),
      soon,
    );
  });

  it('update the unread poll when a notification arrives from anywhere, and at once when read', async () => {
    const { user, cookie } = await createSignedInUser(db());
    const unread = async () =>
      (await t.get('/api/notifications/unread', cookie)).json().notifications as { id: string }[];
    const before = (await unread()).length;

    const [row] = await db()
      .insert(notifications)
      .values({ userId: user.id, type: 'system', title: 'Welcome', message: 'Hello from CampusLoop.' })
      .returning();
    await vi.waitFor(async () => expect(await unread()).toHaveLength(before + 1), soon);

    expect((await t.post(`/api/notifications/${row!.id}/read`, {}, cookie)).statusCode).toBe(200);
    expect(await unread()).toHaveLength(before);
  });
});
