import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { campusToday } from '#shared/calendar.ts';
import { itemCounts, items } from '../../src/server/db/schema/items.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { startSession } from '../../src/server/features/auth/service.ts';
import { COUNT_CAP, countItems } from '../../src/server/features/items/queries.ts';
import { createItem, createSignedInUser, freeListing } from '../factories.ts';
import { day } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Browse's plain counts (a campus and a category, or either, or neither) come from counters kept by
// the items' triggers, less the items of suspended owners; searches read a copy of the items' search
// columns kept by triggers too. Whatever is written, and however many writes run at once, the counts
// must say what counting every item would say, and the copy what the items say.

const ADMIN = 'counts.moderator@stanford.edu';
const t = setupTestApp({ adminEmails: [ADMIN] });
const db = () => t.database.db;

const CAMPUS = 'stanford.edu';
const OTHER = 'berkeley.edu';
const CATEGORIES = [undefined, 'tools', 'books', 'kitchen'] as const;
const CAMPUSES = [CAMPUS, OTHER, 'all'] as const;

/** What counting every listed item says (not deleted, not hidden, owner not suspended). */
async function recount(campus: string, category: string | undefined): Promise<number> {
  const [row] = await db()
    .select({ n: count() })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(
      and(
        isNull(items.deletedAt),
        isNull(items.hiddenAt),
        isNull(users.suspendedAt),
        campus === 'all' ? undefined : eq(items.campus, campus),
        category ? eq(items.category, category) : undefined,
      ),
    );
  return Math.min(row!.n, COUNT_CAP);
}

/** What Browse's count says for the filter, straight from the query (no cache between). */
async function counted(campus: string, category: string | undefined): Promise<number> {
  const result = await countItems(db(), {
    campus,
    category,
    limit: 12,
    offset: 0,
    today: campusToday('America/Los_Angeles'),
    now: new Date(),
  });
  return result.total;
}

/** `item_search` is exactly the search columns of every item not deleted (migration 0050). */
async function expectSearchCopyTrue() {
  const copied = sql.raw(
    'id, campus, category, user_id, created_at, hidden_at, pickup_method, rental_price_cents, is_available, ' +
      'available_from, available_until, available_days, out_count, search_vector::text',
  );
  const differing = await db().execute(sql`
    (select 'missing' as what, ${copied} from items where deleted_at is null
     except all select 'missing', ${copied} from item_search)
    union all
    (select 'extra', ${copied} from item_search
     except all select 'extra', ${copied} from items where deleted_at is null)`);
  expect(differing.rows).toEqual([]);
}

/** Every item's `out_count` is the number of its reservations out with a borrower (migration 0052). */
async function expectOutCountsTrue() {
  const differing = await db().execute(sql`
    select i.id, i.out_count, count(r.id)::int as active from items i
    left join reservations r on r.item_id = i.id and r.status = 'active'
    group by i.id, i.out_count having i.out_count <> count(r.id)`);
  expect(differing.rows).toEqual([]);
}

async function expectCountsTrue() {
  await expectSearchCopyTrue();
  await expectOutCountsTrue();
  for (const campus of CAMPUSES) {
    for (const category of CATEGORIES) {
      expect({ campus, category, n: await counted(campus, category) }).toEqual({
        campus,
        category,
        n: await recount(campus, category),
      });
    }
  }
}

const listing = (title: string, category: string) =>
  freeListing({ title, category, description: 'Counted by the triggers.' });

let admin: Awaited<ReturnType<typeof createSignedInUser>>;
beforeAll(async () => {
  admin = await createSignedInUser(db(), { email: ADMIN });
  const across = await createSignedInUser(db(), { campus: OTHER, email: 'lender@berkeley.edu' });
  for (const category of ['tools', 'books', 'tools'])
    await createItem(db(), { userId: across.user.id, campus: OTHER, category });
});

describe('Browse counts and the search copy kept by triggers', () => {
  it('follow every way an item enters or leaves the lists, through the API', async () => {
    const lender = await createSignedInUser(db());
    const made: string[] = [];
    for (const [title, category] of [
      ['Hammer', 'tools'],
      ['Saw', 'tools'],
      ['Calculus textbook', 'books'],
      ['Kettle', 'kitchen'],
    ] as const) {
      const response = await t.post('/api/items', listing(title, category), lender.cookie);
      expect(response.statusCode, response.body).toBe(201);
      made.push(response.json().item.id);
    }
    await expectCountsTrue();
    expect(await counted(CAMPUS, 'tools')).toBe(2);

    // Searched by its new words after an edit, no longer by its old ones.
    const searched = async (q: string) =>
      (await t.get(`/api/items?campus=${CAMPUS}&searchQuery=${q}`))
        .json()
        .items.map((i: { id: string }) => i.id);
    expect(await searched('kettle')).toEqual([made[3]]);
    const renamed = await t.put(`/api/items/${made[3]}`, listing('Teapot', 'kitchen'), lender.cookie);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await searched('teapot')).toEqual([made[3]]);
    expect(await searched('kettle')).toEqual([]);
    await expectCountsTrue();

    // An edit that moves it to another category.
    const moved = await t.put(`/api/items/${made[0]}`, listing('Hammer', 'books'), lender.cookie);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await counted(CAMPUS, 'tools')).toBe(1);
    expect(await counted(CAMPUS, 'books')).toBe(2);
    await expectCountsTrue();

    // Deleted by its owner, hidden and unhidden by a moderator.
    expect((await t.del(`/api/items/${made[1]}`, lender.cookie)).statusCode).toBe(200);
    expect(
      (await t.post(`/api/admin/items/${made[2]}/hide`, { notes: 'Counted' }, admin.cookie)).statusCode,
    ).toBe(200);
    await expectCountsTrue();
    expect(await counted(CAMPUS, 'tools')).toBe(0);
    expect((await t.post(`/api/admin/items/${made[2]}/unhide`, {}, admin.cookie)).statusCode).toBe(200);
    await expectCountsTrue();

    // The owner suspended: their items leave every count, and come back with them.
    const before = await counted(CAMPUS, undefined);
    expect((await t.post(`/api/admin/users/${lender.user.id}/suspend`, {}, admin.cookie)).statusCode).toBe(
      200,
    );
    expect(await counted(CAMPUS, undefined)).toBe(before - 3);
    await expectCountsTrue();
    expect((await t.post(`/api/admin/users/${lender.user.id}/unsuspend`, {}, admin.cookie)).statusCode).toBe(
      200,
    );
    expect(await counted(CAMPUS, undefined)).toBe(before);
    await expectCountsTrue();
  });

  it('follow rows written in bulk and removed with their owner', async () => {
    const owner = await createSignedInUser(db(), { email: 'bulk@stanford.edu' });
    await db().execute(sql`
      insert into items (user_id, title, description, category, condition, pickup_method, available_from, campus)
      select ${owner.user.id}, 'Bulk item ' || n, 'Many at once.',
        case when n % 3 = 0 then 'books' when n % 3 = 1 then 'tools' else 'kitchen' end,
        'good', 'meetup', '2026-01-01', ${CAMPUS}
      from generate_series(1, 60) as n`);
    await expectCountsTrue();
    await db().execute(
      sql`update items set hidden_at = now() where user_id = ${owner.user.id} and category = 'books'`,
    );
    await expectCountsTrue();
    // An account removed outright takes its items with it (the foreign key cascades).
    await db().delete(users).where(eq(users.id, owner.user.id));
    await expectCountsTrue();
  });

  it('stay exact under many concurrent listings, edits, deletions, hides and a suspension', async () => {
    const lenders = await Promise.all(
      [1, 2, 3].map((n) => createSignedInUser(db(), { email: `concurrent${n}@stanford.edu` })),
    );
    const existing = await Promise.all(
      lenders.flatMap((lender, n) =>
        ['tools', 'books', 'kitchen'].map((category) =>
          createItem(db(), { userId: lender.user.id, category, title: `Old ${n}` }),
        ),
      ),
    );
    for (let round = 0; round < 3; round++) {
      const suspended = lenders[round % 3]!;
      const writes: Promise<{ statusCode: number; body: string }>[] = [];
      // The suspended lender's own requests may find their session ended (401) or be refused (403).
      const theirs: Promise<{ statusCode: number; body: string }>[] = [];
      for (const [n, lender] of lenders.entries()) {
        for (const category of ['tools', 'books', 'kitchen', 'tools']) {
          const made = t.post(
            '/api/items',
            listing(`Round ${round} ${n} ${category}`, category),
            lender.cookie,
          );
          (lender === suspended ? theirs : writes).push(made);
        }
      }
      for (const [n, item] of existing.entries()) {
        const owner = lenders.find((lender) => lender.user.id === item.userId)!;
        const next = ['tools', 'books', 'kitchen'][(n + round + 1) % 3]!;
        if (n % 3 === 0) {
          const edited = t.put(`/api/items/${item.id}`, listing(item.title, next), owner.cookie);
          (owner === suspended ? theirs : writes).push(edited);
        }
        if (n % 3 === 1) {
          const path = round % 2 === 0 ? 'hide' : 'unhide';
          writes.push(
            t.post(
              `/api/admin/items/${item.id}/${path}`,
              path === 'hide' ? { notes: 'Race' } : {},
              admin.cookie,
            ),
          );
        }
      }
      writes.push(t.post(`/api/admin/users/${suspended.user.id}/suspend`, {}, admin.cookie));
      const deleter = lenders[(round + 1) % 3]!;
      const doomed = await createItem(db(), {
        userId: deleter.user.id,
        category: 'books',
        title: `Doomed ${round}`,
      });
      writes.push(t.del(`/api/items/${doomed.id}`, deleter.cookie));
      const [answers, theirAnswers] = await Promise.all([Promise.all(writes), Promise.all(theirs)]);
      for (const answer of answers)
        expect([200, 201], `round ${round}: ${answer.body}`).toContain(answer.statusCode);
      for (const answer of theirAnswers)
        expect([200, 201, 401, 403], answer.body).toContain(answer.statusCode);
      await expectCountsTrue();
      expect(
        (await t.post(`/api/admin/users/${suspended.user.id}/unsuspend`, {}, admin.cookie)).statusCode,
      ).toBe(200);
      suspended.cookie = `cl_session=${(await startSession(db(), suspended.user.id, 30)).token}`;
      await expectCountsTrue();
    }
    // The counters never go below zero, and every one is the exact number of live, unhidden items.
    const kept = await db().select().from(itemCounts);
    for (const row of kept) {
      const [live] = await db()
        .select({ n: count() })
        .from(items)
        .where(
          and(
            eq(items.campus, row.campus),
            eq(items.category, row.category),
            isNull(items.deletedAt),
            isNull(items.hiddenAt),
          ),
        );
      expect(row).toEqual({ ...row, live: live!.n });
    }
  });
  it('follow borrowings going out and coming back, many at once, and "available now" with them', async () => {
    const lender = await createSignedInUser(db(), { email: 'out.lender@stanford.edu' });
    const borrowers = await Promise.all(
      [1, 2, 3, 4].map((n) => createSignedInUser(db(), { email: `out.borrower${n}@stanford.edu` })),
    );
    const lent = await Promise.all(
      borrowers.map((_, n) =>
        createItem(db(), { userId: lender.user.id, category: 'tools', title: `Out ${n}` }),
      ),
    );
    const availableNow = async () => {
      return (
        await countItems(db(), {
          campus: CAMPUS,
          category: 'tools',
          availableNow: true,
          limit: 12,
          offset: 0,
          today: campusToday('America/Los_Angeles'),
          now: new Date(),
        })
      ).total;
    };
    const before = await availableNow();
    // Each borrower asks for one item; the lender approves them all at once.
    const requested = await Promise.all(
      borrowers.map((b, n) =>
        t.post('/api/reservations', { itemId: lent[n]!.id, startDate: day(1), endDate: day(3) }, b.cookie),
      ),
    );
    for (const r of requested) expect(r.statusCode, r.body).toBe(201);
    const ids = requested.map((r) => r.json().reservation.id as string);
    const approved = await Promise.all(
      ids.map((id) => t.post(`/api/reservations/${id}/approve`, {}, lender.cookie)),
    );
    for (const r of approved) expect(r.statusCode, r.body).toBe(200);
    await expectCountsTrue();
    expect(await availableNow()).toBe(before);
    // Handed over at once: each goes out, and leaves "available now".
    const codes = await Promise.all(
      borrowers.map(async (b, n) => {
        const mine = (await t.get('/api/reservations', b.cookie)).json().reservations as {
          id: string;
          pickupCode: string;
        }[];
        return mine.find((m) => m.id === ids[n])!.pickupCode;
      }),
    );
    const pickedUp = await Promise.all(
      ids.map((id, n) =>
        t.put(`/api/reservations/${id}`, { status: 'active', pickupCode: codes[n] }, lender.cookie),
      ),
    );
    for (const r of pickedUp) expect(r.statusCode, r.body).toBe(200);
    await expectCountsTrue();
    const outNow = await db()
      .select({ id: reservations.itemId })
      .from(reservations)
      .where(eq(reservations.status, 'active'));
    expect(outNow.map((r) => r.id).sort()).toEqual(lent.map((i) => i.id).sort());
    expect(await availableNow()).toBe(before - lent.length);
    // Back at once: available again.
    const returned = await Promise.all(
      ids.map((id, n) => t.put(`/api/reservations/${id}`, { status: 'returned' }, borrowers[n]!.cookie)),
    );
    for (const r of returned) expect(r.statusCode, r.body).toBe(200);
    await expectCountsTrue();
    expect(await availableNow()).toBe(before);
    // Written in bulk and removed outright, as the demo and an account's removal do.
    await db().execute(
      sql`update reservations set status = 'active' where id in ${sql`(${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`}`,
    );
    await expectCountsTrue();
    await db().delete(reservations).where(eq(reservations.itemId, lent[0]!.id));
    await expectCountsTrue();
    expect(await availableNow()).toBe(before - lent.length + 1);
  });
  it('stay true when a handover fails half-way: a wrong code, or a crash after the status changed', async () => {
    const lender = await createSignedInUser(db(), { email: 'half.lender@stanford.edu' });
    const borrower = await createSignedInUser(db(), { email: 'half.borrower@stanford.edu' });
    const kayak = await createItem(db(), { userId: lender.user.id, category: 'tools', title: 'Half kayak' });
    const asked = await t.post(
      '/api/reservations',
      { itemId: kayak.id, startDate: day(1), endDate: day(3) },
      borrower.cookie,
    );
    expect(asked.statusCode, asked.body).toBe(201);
    const id = asked.json().reservation.id as string;
    expect((await t.post(`/api/reservations/${id}/approve`, {}, lender.cookie)).statusCode).toBe(200);
    // A wrong pickup code, several at once: refused, and the item stays in.
    const wrong = await Promise.all(
      [1, 2, 3].map(() =>
        t.put(`/api/reservations/${id}`, { status: 'active', pickupCode: '000000' }, lender.cookie),
      ),
    );
    for (const r of wrong) expect(r.statusCode, r.body).toBeGreaterThanOrEqual(400);
    await expectCountsTrue();
    // The status changed, then the transaction failed before committing: the count goes back with it.
    await expect(
      db().transaction(async (tx) => {
        await tx.update(reservations).set({ status: 'active' }).where(eq(reservations.id, id));
        throw new Error('crash between two steps');
      }),
    ).rejects.toThrow('crash between two steps');
    const [row] = await db().select({ out: items.outCount }).from(items).where(eq(items.id, kayak.id));
    expect(row!.out).toBe(0);
    await expectCountsTrue();
  });
});
