import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { campusToday } from '../../src/shared/calendar.ts';
import { createItem, createSignedInUser, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();
const db = () => t.database.db;

const input = (overrides: Record<string, unknown> = {}) => ({
  title: 'Cordless drill',
  description: 'An 18V cordless drill with two batteries and a bit set.',
  category: 'tools',
  condition: 'good',
  pickupMethod: 'meetup',
  pickupLocation: 'Main Quad',
  rentalPrice: '5.00',
  rentalPeriod: 'day',
  depositAmount: '20',
  availableFrom: '2026-01-01',
  availableUntil: null,
  availableDays: [0, 1, 2, 3, 4, 5, 6],
  images: ['/uploads/items/2026/11/a.jpg'],
  ...overrides,
});

async function itemCount() {
  const { rows } = await db().execute<{ n: number }>(sql`select count(*)::int as n from items`);
  return rows[0]!.n;
}

describe('POST /api/items', () => {
  it('lists an item on the owner’s campus, with amounts as decimal strings and the owner attached', async () => {
    const { user, cookie } = await createSignedInUser(db(), {
      campus: 'berkeley.edu',
      email: 'o1@berkeley.edu',
    });
    const response = await t.post('/api/items', { ...input(), campus: 'stanford.edu' }, cookie);
    expect(response.statusCode).toBe(201);
    const { item } = response.json();
    expect(item).toMatchObject({
      title: 'Cordless drill',
      campus: 'berkeley.edu',
      rentalPrice: '5.00',
      depositAmount: '20.00',
      rentalPeriod: 'day',
      isAvailable: true,
      availableDays: [0, 1, 2, 3, 4, 5, 6],
      user: {
        id: user.id,
        fullName: user.fullName,
        username: user.username,
        campusName: 'University of California-Berkeley',
      },
    });
    const fetched = await t.get(`/api/items/${item.id}`);
    expect(fetched.json()).toMatchObject({ item: { id: item.id }, reviews: [] });
  });

  it('drops a switched-off fee or deposit (spec §4), and a period without a price', async () => {
    const { cookie } = await createSignedInUser(db());
    const { rentalPrice, rentalPeriod, depositAmount, ...free } = input();
    const response = await t.post('/api/items', free, cookie);
    expect(response.json().item).toMatchObject({
      rentalPrice: null,
      rentalPeriod: null,
      depositAmount: null,
    });
    const zero = await t.post('/api/items', input({ rentalPrice: '0', depositAmount: '' }), cookie);
    expect(zero.json().item).toMatchObject({ rentalPrice: null, rentalPeriod: null, depositAmount: null });
    expect([rentalPrice, rentalPeriod, depositAmount]).toHaveLength(3);
  });

  it.each([
    ['title', { title: '  ' }, 'Title is required'],
    ['description', { description: 'too short' }, 'Description must be at least 10 characters'],
    ['availableDays', { availableDays: [] }, 'Must select at least one day'],
    ['category', { category: 'weapons' }, 'Please choose a category'],
    ['condition', { condition: 'broken' }, 'Please choose a condition'],
    ['pickupMethod', { pickupMethod: 'drone' }, 'Please choose a pickup method'],
    ['rentalPrice', { rentalPrice: '-3' }, 'Rental price must be an amount like 12.50'],
    ['depositAmount', { depositAmount: '12.345' }, 'Deposit must be an amount like 12.50'],
    ['depositAmount', { depositAmount: '20000' }, 'Deposit must be at most $10,000'],
    ['availableUntil', { availableUntil: '2025-12-01' }, 'The last day cannot be before the first day'],
    ['images', { images: ['1', '2', '3', '4', '5', '6'] }, 'You can upload a maximum of 5 images.'],
  ])('refuses a bad %s with a clear message and stores nothing', async (path, overrides, message) => {
    const { cookie } = await createSignedInUser(db());
    const before = await itemCount();
    const response = await t.post('/api/items', input(overrides), cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toContainEqual({ path, message });
    expect(await itemCount()).toBe(before);
  });

  it('needs a signed-in user', async () => {
    const response = await t.post('/api/items', input());
    expect(response.statusCode).toBe(401);
  });
});

describe('item photos', () => {
  const NOT_UPLOADED = 'This photo was not uploaded to CampusLoop. Please upload it again.';

  it.each([
    ['a data: URL', 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=='],
    ['another site (a tracker)', 'https://tracker.example/pixel.gif?u=1'],
    ['an API path', '/api/auth/me'],
    ['our uploads folder, outside item photos', '/uploads/../data/pg/PG_VERSION'],
    ['a protocol-relative URL', '//tracker.example/pixel.gif'],
    ['javascript:', 'javascript:alert(1)'],
  ])('refuses %s and stores nothing', async (_name, url) => {
    const { cookie } = await createSignedInUser(db());
    const before = await itemCount();
    const response = await t.post(
      '/api/items',
      input({ images: ['/uploads/items/2026/11/a.jpg', url] }),
      cookie,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: NOT_UPLOADED });
    expect(response.json().issues[0].message).toBe(NOT_UPLOADED);
    expect(await itemCount()).toBe(before);
  });

  it('accepts the URLs our storage gave out, and drops the empty ones (spec §2)', async () => {
    const { cookie } = await createSignedInUser(db());
    const images = ['/uploads/items/2026/11/0b6c5a8e-1f2a-4c3d-9e8f-001122334455.jpg', '', 'null'];
    const response = await t.post('/api/items', input({ images }), cookie);
    expect(response.statusCode).toBe(201);
    expect(response.json().item.images).toEqual([images[0]]);
  });

  it('keeps the photos an item already has when it is edited, but refuses new foreign ones', async () => {
    const owner = await createSignedInUser(db());
    // Listed before the rule (or under another storage): its photo is not one of today's URLs.
    const legacy = await createItem(db(), {
      userId: owner.user.id,
      images: ['https://old-cdn.example/a.jpg'],
    });
    const kept = await t.put(
      `/api/items/${legacy.id}`,
      input({ images: ['https://old-cdn.example/a.jpg', '/uploads/items/2026/11/b.jpg'] }),
      owner.cookie,
    );
    expect(kept.statusCode).toBe(200);
    const refused = await t.put(
      `/api/items/${legacy.id}`,
      input({ images: ['https://old-cdn.example/other.jpg'] }),
      owner.cookie,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(NOT_UPLOADED);
    expect((await t.get(`/api/items/${legacy.id}`)).json().item.images).toEqual([
      'https://old-cdn.example/a.jpg',
      '/uploads/items/2026/11/b.jpg',
    ]);
  });
});

describe('PUT and DELETE /api/items/:id', () => {
  it('lets the owner edit; others get 403, visitors 401, and nothing changes', async () => {
    const owner = await createSignedInUser(db());
    const other = await createSignedInUser(db());
    const { item } = (await t.post('/api/items', input(), owner.cookie)).json();

    expect((await t.put(`/api/items/${item.id}`, input({ title: 'Stolen' }), other.cookie)).statusCode).toBe(
      403,
    );
    expect((await t.put(`/api/items/${item.id}`, input({ title: 'Stolen' }))).statusCode).toBe(401);
    expect((await t.get(`/api/items/${item.id}`)).json().item.title).toBe('Cordless drill');

    const { rentalPrice, rentalPeriod, ...rest } = input({ title: 'Cordless drill (new battery)' });
    const updated = await t.put(`/api/items/${item.id}`, rest, owner.cookie);
    expect(updated.statusCode).toBe(200);
    expect(updated.json().item).toMatchObject({ title: 'Cordless drill (new battery)', rentalPrice: null });
    expect([rentalPrice, rentalPeriod]).toHaveLength(2);

    const bad = await t.put(`/api/items/${item.id}`, input({ description: 'short' }), owner.cookie);
    expect(bad.statusCode).toBe(400);
    expect((await t.put('/api/items/not-a-uuid', input(), owner.cookie)).statusCode).toBe(400);
    expect(
      (await t.put('/api/items/00000000-0000-4000-8000-000000000000', input(), owner.cookie)).statusCode,
    ).toBe(404);
  });

  it('lets only the owner delete; the item leaves every list but its past reservations stay', async () => {
    const owner = await createSignedInUser(db());
    const other = await createSignedInUser(db());
    const borrower = await createUser(db());
    const { item } = (await t.post('/api/items', input({ title: 'Waffle maker' }), owner.cookie)).json();
    await db().insert(reservations).values({
      itemId: item.id,
      borrowerId: borrower.id,
      providerId: owner.user.id,
      startDate: '2026-02-01',
      endDate: '2026-02-03',
      status: 'completed',
    });

    expect((await t.del(`/api/items/${item.id}`, other.cookie)).statusCode).toBe(403);
    expect((await t.del(`/api/items/${item.id}`)).statusCode).toBe(401);
    const deleted = await t.del(`/api/items/${item.id}`, owner.cookie);
    expect(deleted.json()).toEqual({ success: true });

    expect((await t.get(`/api/items/${item.id}`)).statusCode).toBe(404);
    expect((await t.get(`/api/items/${item.id}`)).json().message).toBe('Item not found.');
    const list = (await t.get('/api/items?campus=all&searchQuery=waffle')).json();
    expect(list.items).toEqual([]);
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from reservations where item_id = ${item.id}`,
    );
    expect(rows[0]!.n).toBe(1);
    expect((await t.del(`/api/items/${item.id}`, owner.cookie)).statusCode).toBe(404);
  });
});

describe('GET /api/items: search and filters', () => {
  const campus = 'searchtest.edu';
  const titles: Record<string, string> = {};
  beforeAll(async () => {
    const owner = await createUser(db(), { campus });
    const today = campusToday('America/Los_Angeles');
    const make = async (key: string, values: Omit<Parameters<typeof createItem>[1], 'userId'>) => {
      titles[key] = (await createItem(db(), { userId: owner.id, campus, ...values })).id;
    };
    await make('drill', {
      title: 'Cordless drill',
      description: 'DeWalt 20V drill with charger and bits.',
      category: 'tools',
      rentalPriceCents: 500,
    });
    await make('calc', {
      title: 'TI-84 graphing calculator',
      description: 'Perfect for calculus and statistics exams.',
      category: 'electronics',
      rentalPriceCents: 300,
      pickupMethod: 'locker',
    });
    await make('book', {
      title: 'Organic Chemistry textbook',
      description: 'Klein, 3rd edition; mentions a calculator appendix.',
      category: 'books',
      rentalPriceCents: null,
    });
    await make('unavailable', {
      title: 'Camping tent',
      description: 'Four person tent, waterproof.',
      category: 'other',
      isAvailable: false,
    });
    await make('future', {
      title: 'Rice cooker',
      description: 'Makes six cups, non-stick bowl.',
      category: 'kitchen',
      availableFrom: '2099-01-01',
    });
    await make('otherDay', {
      title: 'Blazer',
      description: 'Navy blazer size M for interviews.',
      category: 'professional',
      availableDays: [(today.weekday + 1) % 7],
    });
    const out = await createItem(db(), {
      userId: owner.id,
      campus,
      title: 'Projector',
      description: 'HD projector for movie nights.',
      category: 'electronics',
    });
    titles.out = out.id;
    const borrower = await createUser(db());
    await db().insert(reservations).values({
      itemId: out.id,
      borrowerId: borrower.id,
      providerId: owner.id,
      startDate: today.date,
      endDate: today.date,
      status: 'active',
    });
  });

  const search = async (query: string) => (await t.get(`/api/items?campus=${campus}&${query}`)).json();
  const ids = (body: { items: { id: string }[] }) => body.items.map((i) => i.id);

  it('finds by misspelt and partial words, ranking the best match first', async () => {
    expect(ids(await search('searchQuery=drll'))[0]).toBe(titles.drill);
    expect(ids(await search('searchQuery=calculater'))[0]).toBe(titles.calc);
    expect(ids(await search('searchQuery=calc'))[0]).toBe(titles.calc);
    // A title match outranks a description mention.
    const calculator = ids(await search('searchQuery=calculator'));
    expect(calculator[0]).toBe(titles.calc);
    expect(calculator).toContain(titles.book);
    // Category words count too.
    expect(ids(await search('searchQuery=kitchen'))).toContain(titles.future);
    expect((await search('searchQuery=zzzqqq')).total).toBe(0);
  });

  it('applies each filter', async () => {
    const all = await search('');
    expect(all.total).toBe(7);
    expect(ids(await search('category=books'))).toEqual([titles.book]);
    expect(ids(await search('pickupMethod=locker'))).toEqual([titles.calc]);
    expect(ids(await search('freeOnly=true')).sort()).not.toContain(titles.drill);
    expect(ids(await search('freeOnly=true'))).toContain(titles.book);
    const cheap = ids(await search('maxPrice=4'));
    expect(cheap).toContain(titles.calc);
    expect(cheap).not.toContain(titles.drill);
    // Available now: marked available, inside its window, on one of its days, and not out.
    const now = ids(await search('availableNow=true'));
    expect(now).toEqual(expect.arrayContaining([titles.drill, titles.calc, titles.book]));
    for (const hidden of ['unavailable', 'future', 'otherDay', 'out'])
      expect(now).not.toContain(titles[hidden]);
    // Filters combine.
    expect(ids(await search('availableNow=true&category=electronics'))).toEqual([titles.calc]);
  });

  it('orders by price either way or newest first, the same items and count whatever the order', async () => {
    const price = (item: { rentalPrice: string | null }) => Number(item.rentalPrice ?? 0);
    const all = await search('');
    const low = await search('sort=price-low');
    const high = await search('sort=price-high');
    for (const sorted of [low, high]) {
      expect(sorted.total).toBe(all.total);
      expect(ids(sorted).sort()).toEqual(ids(all).sort());
    }
    const lowPrices = low.items.map(price);
    expect(lowPrices).toEqual([...lowPrices].sort((a, b) => a - b));
    expect(low.items.at(-1).id).toBe(titles.drill);
    const highPrices = high.items.map(price);
    expect(highPrices).toEqual([...highPrices].sort((a, b) => b - a));
    expect(high.items[0].id).toBe(titles.drill);
    // Newest first is what a list without an order shows.
    expect(ids(await search('sort=newest'))).toEqual(ids(all));
    // A search keeps to its matches in the order asked: the free book before the $3 calculator, which
    // the best-match order puts first.
    expect(ids(await search('searchQuery=calculator'))[0]).toBe(titles.calc);
    expect(ids(await search('searchQuery=calculator&sort=price-low'))).toEqual([titles.book, titles.calc]);
    // Pages follow the order.
    const firstTwo = await search('sort=price-high&limit=2&page=1');
    const nextTwo = await search('sort=price-high&limit=2&page=2');
    expect([...ids(firstTwo), ...ids(nextTwo)]).toEqual(ids(high).slice(0, 4));
  });

  it('refuses an unknown order with a clear message', async () => {
    const bad = await t.get('/api/items?sort=cheapest');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Unknown sort order');
  });

  it('pages with a total count', async () => {
    const first = await search('limit=3&page=1');
    const third = await search('limit=3&page=3');
    expect(first).toMatchObject({ total: 7, page: 1, limit: 3, hasMore: true });
    expect(first.items).toHaveLength(3);
    expect(third).toMatchObject({ hasMore: false });
    expect(third.items).toHaveLength(1);
  });

  it('refuses bad filters with a clear message', async () => {
    const bad = await t.get('/api/items?maxPrice=cheap');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Max price must be a number');
    expect((await t.get('/api/items?category=weapons')).json().message).toBe('Unknown category');
    expect((await t.get('/api/items?limit=500')).statusCode).toBe(400);
  });
});

describe('GET /api/users/:id', () => {
  it('shows a public profile with items and stats; the Borrowed list only to its owner', async () => {
    const owner = await createSignedInUser(db(), { campus: 'berkeley.edu', email: 'prof@berkeley.edu' });
    await t.post('/api/items', input(), owner.cookie);
    await t.post('/api/items', input({ title: 'Hidden tent' }), owner.cookie).then(async (r) => {
      await t.put(`/api/items/${r.json().item.id}`, input({ title: 'Hidden tent' }), owner.cookie);
    });
    const visitor = await t.get(`/api/users/${owner.user.id}`);
    expect(visitor.statusCode).toBe(200);
    const body = visitor.json();
    expect(body.user).toMatchObject({ id: owner.user.id, campusName: 'University of California-Berkeley' });
    expect(body.user.email).toBeUndefined();
    expect(body.stats).toMatchObject({
      itemsListed: 2,
      availableNow: 2,
      reviewCount: 0,
      averageRating: null,
    });
    expect(body.borrowed).toBeUndefined();
    const own = (await t.get(`/api/users/${owner.user.id}`, owner.cookie)).json();
    expect(own.borrowed).toEqual([]);
    expect((await t.get('/api/users/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await t.get('/api/users/nope')).statusCode).toBe(400);
  });
});
