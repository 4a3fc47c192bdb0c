import { fillPlaceholders, sql } from 'drizzle-orm';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { unreadCountQuery } from '../../src/server/features/conversations/queries.ts';
import {
  foundItemQuery,
  listCardQuery,
  listStatementOf,
  type SearchFilters,
  searchStatementOf,
} from '../../src/server/features/items/queries.ts';
import { notificationsQuery } from '../../src/server/features/notifications/queries.ts';
import { createItem, createSignedInUser, createUser } from '../factories.ts';
import { filtersFor, keptPlanOf, literal, plansOf } from '../helpers/kept-plans.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The statements every visitor and every open tab repeat (Home's and Browse's pages, searches, the
// two unread polls) are prepared by name so PostgreSQL can keep one plan for them. It keeps it only if
// planning for each run's values looks no cheaper: a page size it could see, or a `false` it could
// not, made it plan every run again, which cost several times the work itself. These hold the kept
// plan in use from the sixth run, and as good as one made for the values (the partial indexes read).

const t = setupTestApp();
const db = () => t.database.db;
const campus = 'kept.example.edu';
let reader: { id: string; cookie: string };

beforeAll(async () => {
  const lender = await createUser(db(), { campus });
  const signedIn = await createSignedInUser(db(), { campus });
  reader = { id: signedIn.user.id, cookie: signedIn.cookie };
  let lamp: { id: string } | undefined;
  for (let i = 0; i < 24; i++) {
    lamp = await createItem(db(), {
      userId: lender.id,
      campus,
      title: `Desk lamp ${i}`,
      category: i % 2 ? 'furniture' : 'electronics',
    });
  }
  // A campus of some size, so the planner's estimates are a real campus's: on a few rows every plan
  // costs the same, and the page size the planner could see made no difference.
  await db().execute(sql`
    insert into items (user_id, title, description, category, images, condition, deposit_cents,
      rental_price_cents, rental_period, pickup_method, pickup_location, available_from,
      available_until, available_days, is_available, campus, created_at, cancellation_policy)
    select user_id, title || ' ' || n, description, category, images, condition, deposit_cents,
      rental_price_cents, rental_period, pickup_method, pickup_location, available_from,
      available_until, available_days, n % 5 > 0, campus, created_at - n * interval '1 hour', cancellation_policy
    from items cross join generate_series(1, 150) as n where campus = ${campus}`);
  await db().execute(sql`analyze items`);
  const [conversation] = (
    await db().execute<{ id: string }>(sql`
      insert into conversations (item_id, buyer_id, seller_id) values (${lamp!.id}, ${reader.id}, ${lender.id}) returning id`)
  ).rows;
  for (let i = 0; i < 5; i++) {
    await db().execute(sql`
      insert into messages (conversation_id, sender_id, content, is_read)
      values (${conversation!.id}, ${i % 2 ? reader.id : lender.id}, ${`Hello ${i}`}, ${i < 2})`);
    await db().execute(sql`
      insert into notifications (user_id, type, title, message, is_read)
      values (${reader.id}, 'reservation_approved', 'Approved', ${`Message ${i}`}, ${i < 2})`);
  }
});

const list = filtersFor;

/** How many of 8 runs of `statement` on one connection of `pool` used the kept plan, and how many were planned. */
async function plansOn(pool: pg.Pool, statement: { sql: string; params: unknown[] }) {
  const client = await pool.connect();
  try {
    await client.query(`prepare planned_on_pool as ${statement.sql}`);
    try {
      const values = statement.params.map(literal).join(', ');
      for (let i = 0; i < 8; i++) await client.query(`execute planned_on_pool(${values})`);
      const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>(
        `select generic_plans, custom_plans from pg_prepared_statements where name = 'planned_on_pool'`,
      );
      return { generic: Number(rows[0]?.generic_plans), custom: Number(rows[0]?.custom_plans) };
    } finally {
      await client.query('deallocate planned_on_pool');
    }
  } finally {
    client.release();
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('the reading connections', () => {
  it('run the statements prepared by name with their kept plan from the first run; the writing ones plan as PostgreSQL chooses', async () => {
    const { pool, writePool } = t.database;
    const page = await listStatementOf(db(), list({ campus, category: 'furniture' }), { counted: true });
    // Left to itself PostgreSQL plans the first five runs for their values, whatever it keeps after.
    expect(await plansOn(pool!, page)).toEqual({ generic: 8, custom: 0 });
    expect((await plansOn(writePool!, page)).custom).toBeGreaterThanOrEqual(5);
    const search = await searchStatementOf(db(), list({ searchQuery: 'lamp', campus }));
    expect(await plansOn(pool!, search)).toEqual({ generic: 8, custom: 0 });
  });
});

describe('plans kept for the statements everyone repeats', () => {
  it.each<[string, Partial<SearchFilters>]>([
    ["Home's page: every campus, available now", { availableNow: true, limit: 8 }],
    [
      "Browse's page 2 with the items before it: a campus and a category",
      { campus, category: 'furniture', offset: 12 },
    ],
    ['Browse, cheapest first, available now', { campus, availableNow: true, sort: 'price-low' }],
    // The list's newest time, which every newest-first page may read, is costed for one row.
    ["Browse's first page of every campus", { campus: 'all' }],
  ])('%s, and with its count', async (_, over) => {
    for (const counted of [false, true]) {
      const planned = await plansOf(db(), await listStatementOf(db(), list(over), { counted }));
      expect(planned.generic, counted ? 'with its count' : 'the page alone').toBeGreaterThanOrEqual(1);
    }
  });

  it('a search', async () => {
    const planned = await plansOf(db(), await searchStatementOf(db(), list({ searchQuery: 'lamp', campus })));
    expect(planned.generic).toBeGreaterThanOrEqual(1);
  });

  it('a new listing’s answer and its card as lists show it, through the items’ primary key', async () => {
    const [item] = (await t.get(`/api/items?campus=${campus}&limit=1`)).json().items;
    const values = { id: item.id, revealCutoff: new Date().toISOString(), today: '2026-11-30', weekday: 1 };
    for (const query of [foundItemQuery(db()), listCardQuery(db())]) {
      const { sql: text, params } = query.toSQL();
      const statement = { sql: text, params: fillPlaceholders(params, values) };
      expect((await plansOf(db(), statement)).generic).toBeGreaterThanOrEqual(1);
      expect(await keptPlanOf(db(), statement)).toContain('"Index Name":"items_pkey"');
    }
  });

  it('the unread messages poll, through the unread messages’ index', async () => {
    const { sql: text, params } = unreadCountQuery(db()).toSQL();
    const statement = { sql: text, params: fillPlaceholders(params, { userId: reader.id }) };
    expect((await plansOf(db(), statement)).generic).toBeGreaterThanOrEqual(1);
    expect(await keptPlanOf(db(), statement)).toContain('"Index Name":"messages_unread_idx"');
    const polled = await t.get('/api/conversations/unread-count', reader.cookie);
    expect(polled.json()).toEqual({ count: 2 });
  });

  it('the unread notifications poll, through the unread notifications’ index', async () => {
    const { sql: text, params } = notificationsQuery(db(), true).toSQL();
    const statement = { sql: text, params: fillPlaceholders(params, { userId: reader.id }) };
    expect((await plansOf(db(), statement)).generic).toBeGreaterThanOrEqual(1);
    expect(await keptPlanOf(db(), statement)).toContain('"Index Name":"notifications_user_unread_idx"');
    const polled = await t.get('/api/notifications/unread', reader.cookie);
    expect(polled.statusCode, polled.body).toBe(200);
    expect(JSON.stringify(polled.json())).toContain('Message 4');
    expect(JSON.stringify(polled.json())).not.toContain('Message 1');
  });

  it('names the statements of lists and searches with every filter, in every order, within 63 bytes', async () => {
    // PostgreSQL cuts longer names: two shapes cut alike would share one statement.
    const every = `campus=${campus}&category=furniture&pickupMethod=meetup&freeOnly=true&maxPrice=20&availableNow=true`;
    for (const words of ['', '&searchQuery=lamp'])
      for (const sort of ['', '&sort=newest', '&sort=price-low', '&sort=price-high']) {
        const response = await t.get(`/api/items?${every}${words}${sort}`);
        expect(response.statusCode, response.body).toBe(200);
      }
  });

  it('answers the same pages and counts through them', async () => {
    const home = await t.get('/api/items?campus=all&availableNow=true&limit=8&skipTotal=true');
    expect(home.statusCode, home.body).toBe(200);
    expect(home.json().items).toHaveLength(8);
    const second = await t.get(`/api/items?campus=${campus}&category=furniture&page=2&limit=5`);
    expect(second.json()).toMatchObject({ total: 1000, totalCapped: true, hasMore: true });
    expect(second.json().items).toHaveLength(5);
  });
});
