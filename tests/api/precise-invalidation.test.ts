import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/composition/app.ts';
import { items } from '../../src/server/db/schema/items.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { reviewService } from '../../src/server/features/reviews/service.ts';
import { createItem, createSignedInUser, TEST_PASSWORD } from '../factories.ts';
import { heardEverything } from '../helpers/announcements.ts';
import { setupTestApp } from '../helpers/test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

// A change empties only the answers it can alter (migration 0011, read-caches.ts). Before,
// any successful request (a chat message, a read mark, a sign-in) emptied the whole catalogue, and
// any change to items, bookings or people emptied every list, item page and profile of every campus.
//
// How a test tells a remembered answer from a fresh one: items are renamed "silently" (the announcing
// trigger off for that transaction), so only an answer computed afresh shows the new title. Set-up
// writes are announced; a successful request waits until its instance has heard every announcement
// committed before it (hub.caughtUp), so one such request lets the set-up's announcements land first.

const t = setupTestApp();
const db = () => t.database.db;

/** Titles as computed now, for the items given, without announcing it. */
async function renameSilently(ids: string[], suffix: string) {
  await db().transaction(async (tx) => {
    await tx.execute(sql`alter table items disable trigger items_cache_update`);
    await tx
      .update(items)
      .set({ title: sql`${items.title} || ${suffix}` })
      .where(inArray(items.id, ids));
    await tx.execute(sql`alter table items enable trigger items_cache_update`);
  });
}

const settle = () => heardEverything(t);

const titles = async (url: string, cookie?: string) => {
  const answer = await t.get(url, cookie);
  expect(answer.statusCode).toBe(200);
  return (answer.json().items as { title: string }[]).map((item) => item.title);
};
const itemTitle = async (id: string) => (await t.get(`/api/items/${id}`)).json().item.title as string;
const profileTitles = async (userId: string) =>
  ((await t.get(`/api/users/${userId}`)).json().items as { title: string }[]).map((item) => item.title);

describe('precise invalidation', () => {
  it('a chat message, a read mark, a sign-in and a booking request leave the catalogue in place', async () => {
    const owner = await createSignedInUser(db());
    const borrower = await createSignedInUser(db());
    const kayak = await createItem(db(), { userId: owner.user.id, title: 'Quiet kayak' });
    const list = '/api/items?campus=all&searchQuery=quiet%20kayak';
    await settle();
    expect(await titles(list)).toEqual(['Quiet kayak']);
    expect(await itemTitle(kayak.id)).toBe('Quiet kayak');
    expect(await profileTitles(owner.user.id)).toEqual(['Quiet kayak']);
    await renameSilently([kayak.id], ' (renamed)');

    const started = await t.post('/api/conversations', { itemId: kayak.id }, borrower.cookie);
    expect(started.statusCode).toBe(200);
    const conversationId = started.json().conversation.id as string;
    const sent = await t.post(
      `/api/conversations/${conversationId}/messages`,
      { content: 'Is it free on Saturday?' },
      borrower.cookie,
    );
    expect(sent.statusCode).toBe(201);
    expect((await t.post(`/api/conversations/${conversationId}/read`, {}, owner.cookie)).statusCode).toBe(
      200,
    );
    const signIn = await t.post('/api/auth/login', { email: borrower.user.email, password: TEST_PASSWORD });
    expect(signIn.statusCode).toBe(200);
    // A request does not take the item out: nobody else's view of the catalogue changes.
    await db().insert(reservations).values({
      itemId: kayak.id,
      borrowerId: borrower.user.id,
      providerId: owner.user.id,
      startDate: '2030-06-01',
      endDate: '2030-06-03',
      status: 'pending',
    });
    await settle();

    expect(await titles(list)).toEqual(['Quiet kayak']);
    expect(await itemTitle(kayak.id)).toBe('Quiet kayak');
    expect(await profileTitles(owner.user.id)).toEqual(['Quiet kayak']);
  });

  it('a new listing reaches its campus’s lists and every campus’s, not another campus’s, nor item pages', async () => {
    const stanford = await createSignedInUser(db());
    const berkeley = await createSignedInUser(db(), {
      email: `precise.${Date.now()}@berkeley.edu`,
      campus: 'berkeley.edu',
    });
    // Lists of a category no other test here lists in (a search is left to its time limit, decision 049).
    const category = 'furniture';
    const tent = await createItem(db(), { userId: stanford.user.id, title: 'Precise tent', category });
    const stove = await createItem(db(), {
      userId: berkeley.user.id,
      title: 'Precise stove',
      campus: 'berkeley.edu',
      category,
    });
    const stanfordList = `/api/items?campus=stanford.edu&category=${category}`;
    const berkeleyList = `/api/items?campus=berkeley.edu&category=${category}`;
    const everyList = `/api/items?campus=all&category=${category}`;
    const stanfordCheapest = `${stanfordList}&sort=price-low`;
    await settle();
    expect(await titles(stanfordList)).toEqual(['Precise tent']);
    expect(await titles(stanfordCheapest)).toEqual(['Precise tent']);
    expect(await titles(berkeleyList)).toEqual(['Precise stove']);
    expect(await itemTitle(tent.id)).toBe('Precise tent');
    expect(await profileTitles(berkeley.user.id)).toEqual(['Precise stove']);
    await renameSilently([tent.id, stove.id], ' (renamed)');

    await createItem(db(), { userId: stanford.user.id, title: 'Precise lantern', category });
    await settle();

    // Stanford's lists and every campus's show the new item: a first page, newest first, takes it in
    // place (decision 083, the rename not read); the others are computed again, and show the rename.
    expect((await titles(stanfordList)).sort()).toEqual(['Precise lantern', 'Precise tent']);
    expect((await titles(stanfordCheapest)).sort()).toEqual(['Precise lantern', 'Precise tent (renamed)']);
    expect((await titles(everyList)).sort()).toEqual([
      'Precise lantern',
      'Precise stove (renamed)',
      'Precise tent (renamed)',
    ]);
    // Berkeley's list, the tent's page and Berkeley's owner's profile are still remembered.
    expect(await titles(berkeleyList)).toEqual(['Precise stove']);
    expect(await itemTitle(tent.id)).toBe('Precise tent');
    expect(await profileTitles(berkeley.user.id)).toEqual(['Precise stove']);
  });

  it('a booking going out empties its campus’s lists and its owner’s profile, not its item page', async () => {
    const owner = await createSignedInUser(db());
    const borrower = await createSignedInUser(db());
    const canoe = await createItem(db(), { userId: owner.user.id, title: 'Outgoing canoe' });
    const [booking] = await db()
      .insert(reservations)
      .values({
        itemId: canoe.id,
        borrowerId: borrower.user.id,
        providerId: owner.user.id,
        startDate: '2026-01-01',
        endDate: '2030-01-03',
        status: 'approved',
      })
      .returning();
    const available = '/api/items?campus=stanford.edu&availableNow=true&searchQuery=outgoing%20canoe';
    await settle();
    expect(await titles(available)).toEqual(['Outgoing canoe']);
    expect(await itemTitle(canoe.id)).toBe('Outgoing canoe');
    const before = (await t.get(`/api/users/${owner.user.id}`)).json().stats.availableNow as number;
    expect(before).toBe(1);
    await renameSilently([canoe.id], ' (renamed)');

    await db().update(reservations).set({ status: 'active' }).where(eq(reservations.id, booking!.id));
    await settle();

    expect(await titles(available)).toEqual([]);
    expect((await t.get(`/api/users/${owner.user.id}`)).json().stats.availableNow).toBe(0);
    expect(await itemTitle(canoe.id)).toBe('Outgoing canoe');
  });

  it('a person’s public change empties their answers and every list; a private one only their sessions', async () => {
    const owner = await createSignedInUser(db());
    const neighbour = await createSignedInUser(db());
    const lamp = await createItem(db(), { userId: owner.user.id, title: 'Personal lamp' });
    const chair = await createItem(db(), { userId: neighbour.user.id, title: 'Personal chair' });
    const list = '/api/items?campus=all&searchQuery=personal';
    const ownerName = async () => (await t.get(`/api/users/${owner.user.id}`)).json().user.fullName as string;
    await settle();
    expect((await titles(list)).sort()).toEqual(['Personal chair', 'Personal lamp']);
    expect(await ownerName()).toBe(owner.user.fullName);
    expect(await itemTitle(chair.id)).toBe('Personal chair');
    await renameSilently([lamp.id, chair.id], ' (renamed)');

    // A private column (the provider's customer id): nothing anyone else reads.
    await db()
      .update(users)
      .set({ stripeCustomerId: `cus_${owner.user.id}` })
      .where(eq(users.id, owner.user.id));
    await settle();
    expect((await titles(list)).sort()).toEqual(['Personal chair', 'Personal lamp']);

    // The name others see: their profile and every list (their cards carry it); not a neighbour's page.
    await db().update(users).set({ fullName: 'Renamed Owner' }).where(eq(users.id, owner.user.id));
    await settle();
    expect(await ownerName()).toBe('Renamed Owner');
    expect((await titles(list)).sort()).toEqual(['Personal chair (renamed)', 'Personal lamp (renamed)']);
    expect(await itemTitle(chair.id)).toBe('Personal chair');
    expect(await itemTitle(lamp.id)).toBe('Personal lamp (renamed)');
  });

  it('a review empties its item’s page and the profile it is about', async () => {
    const owner = await createSignedInUser(db());
    const other = await createSignedInUser(db());
    const drill = await createItem(db(), { userId: owner.user.id, title: 'Reviewed drill' });
    const saw = await createItem(db(), { userId: other.user.id, title: 'Unreviewed saw' });
    await settle();
    expect(await itemTitle(drill.id)).toBe('Reviewed drill');
    expect(await itemTitle(saw.id)).toBe('Unreviewed saw');
    await renameSilently([drill.id, saw.id], ' (renamed)');

    await db().execute(sql`
      with booking as (
        insert into reservations (item_id, borrower_id, provider_id, start_date, end_date, status)
        values (${drill.id}, ${other.user.id}, ${owner.user.id}, '2026-01-01', '2026-01-03', 'completed')
        returning id)
      insert into reviews (reservation_id, reviewer_id, reviewee_id, item_id, rating, comment, review_type)
      select id, ${other.user.id}, ${owner.user.id}, ${drill.id}, 5, 'Great drill', 'borrower_to_lender' from booking`);
    await settle();

    expect(await itemTitle(drill.id)).toBe('Reviewed drill (renamed)');
    expect(await itemTitle(saw.id)).toBe('Unreviewed saw');
  });

  /**
   * A one-sided review of a new item, seen hidden on its page, its lender's profile and its card, then
   * revealed by its 14 days passing silently (time alone writes nothing, so nothing is announced), and
   * still hidden on those remembered answers.
   */
  async function reviewRevealedSilently(comment: string) {
    const owner = await createSignedInUser(db());
    const borrower = await createSignedInUser(db());
    const drill = await createItem(db(), { userId: owner.user.id, title: `Patient drill ${comment}` });
    await db().execute(sql`
      with booking as (
        insert into reservations (item_id, borrower_id, provider_id, start_date, end_date, status)
        values (${drill.id}, ${borrower.user.id}, ${owner.user.id}, '2026-01-01', '2026-01-03', 'completed')
        returning id)
      insert into reviews (reservation_id, reviewer_id, reviewee_id, item_id, rating, comment, review_type)
      select id, ${borrower.user.id}, ${owner.user.id}, ${drill.id}, 4, ${comment}, 'borrower_to_lender' from booking`);
    await settle();
    const page = async () => (await t.get(`/api/items/${drill.id}`)).json();
    const profile = async () => (await t.get(`/api/users/${owner.user.id}`)).json();
    const card = async () =>
      ((await t.get('/api/items?campus=all')).json().items as { id: string; rating: unknown }[]).find(
        (item) => item.id === drill.id,
      );
    expect((await page()).reviews).toEqual([]);
    expect((await page()).lenderRating).toBeNull();
    expect((await profile()).reviews).toEqual([]);
    expect((await card())?.rating).toBeNull();

    await db().transaction(async (tx) => {
      await tx.execute(sql`alter table reviews disable trigger reviews_cache_update`);
      await tx.execute(
        sql`update reviews set created_at = now() - interval '14 days 1 minute' where reviewer_id = ${borrower.user.id}`,
      );
      await tx.execute(sql`alter table reviews enable trigger reviews_cache_update`);
    });
    expect((await page()).reviews).toEqual([]);
    expect((await card())?.rating).toBeNull();
    return { page, profile, card };
  }

  it('a review revealed by its waiting time shows once it is announced, not before', async () => {
    const { page, profile, card } = await reviewRevealedSilently('Worth the wait');
    // The span of the last minutes, as a jobs' round covers it.
    const now = new Date();
    await reviewService.announceRevealedByTime(db(), new Date(now.getTime() - 5 * 60_000), now);
    await settle();
    expect((await page()).reviews).toMatchObject([{ comment: 'Worth the wait' }]);
    expect((await page()).lenderRating).toEqual({ average: 4, count: 1 });
    expect((await profile()).reviews).toMatchObject([{ comment: 'Worth the wait' }]);
    expect((await card())?.rating).toEqual({ average: 4, count: 1 });
  });

  it('the jobs’ round of another instance announces it to this one', async () => {
    const { page, card } = await reviewRevealedSilently('Seen by the round');
    // An instance that runs the timed jobs, on the same database: this one hears its announcement.
    const worker = await buildApp({
      config: { ...t.config, jobs: { ...t.config.jobs, enabled: true, intervalMs: 200 } },
      database: t.database,
      logger: false,
    });
    try {
      await worker.ready();
      await waitFor(
        async () => (await page()).reviews.length === 1,
        20_000,
        'the review on the remembered item page',
      );
      expect((await card())?.rating).toEqual({ average: 4, count: 1 });
    } finally {
      await worker.close();
    }
  });

  // Cards show their item's rating and item pages their lender's (migration 0014).
  it('a review also empties its item’s campus’s lists and its lender’s item pages, not another campus’s', async () => {
    const owner = await createSignedInUser(db());
    const borrower = await createSignedInUser(db());
    const berkeley = await createSignedInUser(db(), {
      email: `rated.${Date.now()}@berkeley.edu`,
      campus: 'berkeley.edu',
    });
    const drill = await createItem(db(), { userId: owner.user.id, title: 'Rated drill' });
    const saw = await createItem(db(), { userId: owner.user.id, title: 'Rated saw' });
    const stove = await createItem(db(), {
      userId: berkeley.user.id,
      title: 'Rated stove',
      campus: 'berkeley.edu',
    });
    const stanfordList = '/api/items?campus=stanford.edu&searchQuery=rated';
    const berkeleyList = '/api/items?campus=berkeley.edu&searchQuery=rated';
    const everyList = '/api/items?campus=all&searchQuery=rated';
    const sawPage = async () => (await t.get(`/api/items/${saw.id}`)).json();
    await settle();
    expect((await titles(stanfordList)).sort()).toEqual(['Rated drill', 'Rated saw']);
    expect(await titles(berkeleyList)).toEqual(['Rated stove']);
    expect((await titles(everyList)).sort()).toEqual(['Rated drill', 'Rated saw', 'Rated stove']);
    expect((await sawPage()).lenderRating).toBeNull();
    await renameSilently([drill.id, saw.id, stove.id], ' (renamed)');

    // Revealed at once: the lender has reviewed the borrower too.
    await db().execute(sql`
      with booking as (
        insert into reservations (item_id, borrower_id, provider_id, start_date, end_date, status)
        values (${drill.id}, ${borrower.user.id}, ${owner.user.id}, '2026-01-01', '2026-01-03', 'completed')
        returning id)
      insert into reviews (reservation_id, reviewer_id, reviewee_id, item_id, rating, comment, review_type)
      select id, ${borrower.user.id}::uuid, ${owner.user.id}::uuid, ${drill.id}::uuid, 4, 'Good drill', 'borrower_to_lender'
      from booking
      union all
      select id, ${owner.user.id}::uuid, ${borrower.user.id}::uuid, null, 5, 'Careful borrower', 'lender_to_borrower'
      from booking`);
    await settle();

    const ratings = async (url: string) =>
      Object.fromEntries(
        ((await t.get(url)).json().items as { title: string; rating: unknown }[]).map((i) => [
          i.title,
          i.rating,
        ]),
      );
    expect(await ratings(stanfordList)).toEqual({
      'Rated drill (renamed)': { average: 4, count: 1 },
      'Rated saw (renamed)': null,
    });
    expect((await titles(everyList)).sort()).toEqual([
      'Rated drill (renamed)',
      'Rated saw (renamed)',
      'Rated stove (renamed)',
    ]);
    // The saw's page names the lender, whose rating changed; Berkeley's list is still remembered.
    const page = await sawPage();
    expect(page.lenderRating).toEqual({ average: 4, count: 1 });
    expect(page.item.title).toBe('Rated saw (renamed)');
    expect(await titles(berkeleyList)).toEqual(['Rated stove']);
  });
});
