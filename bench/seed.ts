import { sql } from 'drizzle-orm';
import type { Category } from '#shared/constants.ts';
import type { Storage } from '../src/server/adapters/storage/storage.ts';
import type { Db } from '../src/server/db/client.ts';
import { DEMO_ITEMS } from '../src/server/demo/catalog.ts';
import { demoPhoto } from '../src/server/demo/photos.ts';
import { hashPassword } from '../src/server/features/auth/passwords.ts';
import { preparePhotos, storePhotos } from '../src/server/features/uploads/service.ts';
import { listingAt, mix } from './catalogue.ts';

// The bench's campus: thousands of users, items, reservations, conversations, messages and
// notifications, written with set-based SQL (generate_series, and multi-row inserts of the catalogue's
// listings) so a full campus seeds in seconds on PGlite and PostgreSQL alike. Ids are derived from the
// row number (md5 shaped as a version-4 UUID), so every table can point at another's rows without a
// join and the bench can find them again. Listings come from bench/catalogue.ts.

export interface CampusSize {
  users: number;
  items: number;
  reservations: number;
  conversations: number;
  messages: number;
  notifications: number;
  /** Demo listings whose generated photos are stored (one or two each); the catalogue's items show them. */
  photoTemplates: number;
}

/** A realistic campus. */
export const FULL_CAMPUS: CampusSize = {
  users: 2_000,
  items: 10_000,
  reservations: 20_000,
  conversations: 5_000,
  messages: 100_000,
  notifications: 20_000,
  photoTemplates: DEMO_ITEMS.length,
};

/** The same campus scaled down (the bench's own test runs it at a few percent). */
export function scaledCampus(scale: number): CampusSize {
  const n = (full: number, min: number) => Math.max(min, Math.round(full * scale));
  return {
    users: n(FULL_CAMPUS.users, 40),
    items: n(FULL_CAMPUS.items, 100),
    reservations: n(FULL_CAMPUS.reservations, 200),
    conversations: n(FULL_CAMPUS.conversations, 30),
    messages: n(FULL_CAMPUS.messages, 300),
    notifications: n(FULL_CAMPUS.notifications, 200),
    photoTemplates: Math.min(DEMO_ITEMS.length, n(FULL_CAMPUS.photoTemplates, 4)),
  };
}

/** Every bench account signs in with this password. */
export const BENCH_PASSWORD = 'campusloop';

/** Campuses from the directory, with the share of students on each. */
export const BENCH_CAMPUSES = [
  { campus: 'stanford.edu', share: 4 },
  { campus: 'berkeley.edu', share: 3 },
  { campus: 'ucla.edu', share: 2 },
  { campus: 'umich.edu', share: 1 },
] as const;

const FIRST_NAMES =
  'Maya Jordan Priya Diego Sam Alex Noah Emma Liam Olivia Ava Ethan Sofia Lucas Mia Mateo Zoe Aiden Chloe Kai Hana Omar Leila Ravi'.split(
    ' ',
  );
const LAST_NAMES =
  'Chen Lee Patel Ramirez Rivera Kim Nguyen Garcia Smith Johnson Brown Davis Martinez Lopez Wilson Anderson Thomas Moore Jackson Martin Khan'.split(
    ' ',
  );
const LOCATIONS: Record<string, string[]> = {
  'stanford.edu': ['Tresidder Union', 'Green Library entrance', 'Lagunita Court lobby', 'Escondido Village'],
  'berkeley.edu': ['Sather Gate', 'Doe Library steps', 'Unit 3 dining hall', 'Clark Kerr Campus'],
  'ucla.edu': ['Ackerman Union', 'Powell Library steps', 'De Neve Plaza', 'Bruin Walk'],
  'umich.edu': ['Michigan Union', 'Shapiro Library', 'North Campus Diag', 'Bursley Hall lobby'],
};
/** What students write to each other about a borrow (the seed's messages, the campus-day writers' too). */
export const CHAT_LINES = [
  'Hi! Is this still available this weekend?',
  'Yes, it is. When would you like to pick it up?',
  'Could I get it Friday afternoon?',
  'Friday works. Meet at the library entrance at 3?',
  'Perfect, see you then.',
  'Does it come with the charger?',
  'It does, and a spare battery too.',
  'Great, thanks so much!',
  'I might need it one more day, is that ok?',
  'Sure, just send a new request for the extra day.',
  'Just returned it, thanks again!',
  'Got it, everything looks good.',
];
const REVIEW_COMMENTS = [
  'Exactly as described and easy pickup.',
  'Super friendly and on time.',
  'Item was clean and worked perfectly.',
  'Returned everything in great shape.',
  'Would borrow from them again.',
  'Quick replies, smooth handover.',
];
const NOTIFICATIONS = [
  {
    type: 'reservation_request',
    title: 'New reservation request',
    message: 'A student wants to borrow your item.',
  },
  {
    type: 'reservation_approved',
    title: 'Reservation approved',
    message: 'Your request was approved. Your pickup code is in My Reservations.',
  },
  {
    type: 'reservation_declined',
    title: 'Reservation declined',
    message: 'Your request was declined: the item was booked for overlapping dates.',
  },
  {
    type: 'reservation_completed',
    title: 'Item returned',
    message: 'The item was marked as returned. Thanks for sharing!',
  },
  { type: 'review_request', title: 'How did it go?', message: 'Leave a review for your last borrow.' },
  {
    type: 'system',
    title: 'Welcome to CampusLoop!',
    message: 'Your account is ready. Read How It Works to get started.',
  },
] as const;

/** `md5(kind-i)` shaped as a version-4 UUID, so zod's uuid check accepts it. */
function idOf(kind: string, index: string): string {
  return `overlay(overlay(md5('bench-${kind}-' || (${index})) placing '4' from 13) placing '8' from 17)::uuid`;
}
export const benchUserId = (i: string) => idOf('user', i);
export const benchItemId = (i: string) => idOf('item', i);

/** A SQL text[] literal of constant strings. */
function textArray(values: readonly string[]): string {
  return `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]::text[]`;
}

/** A multiplier coprime with n: `i * m % n` then visits every row once. */
function coprime(n: number, start: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let m = start;
  while (gcd(m, n) !== 1) m++;
  return m;
}

/** The campus of user number `i` (SQL), by BENCH_CAMPUSES' shares. */
function campusOf(i: string): string {
  const total = BENCH_CAMPUSES.reduce((s, c) => s + c.share, 0);
  let at = 0;
  const cases = BENCH_CAMPUSES.map((c) => {
    at += c.share;
    return `when (${i}) % ${total} < ${at} then '${c.campus}'`;
  });
  return `(case ${cases.join(' ')} end)`;
}

/**
 * Photos for the catalogue, through the real upload pipeline (re-encoded, with thumbnails), so the pages
 * under test load real images: the demo listings' generated photos, pooled by category.
 */
async function categoryPhotos(storage: Storage, count: number): Promise<Record<Category, string[]>> {
  const pools = {} as Record<Category, string[]>;
  const all: string[] = [];
  for (const [i, item] of DEMO_ITEMS.entries()) {
    if (i >= count) break;
    const raw = await Promise.all(
      Array.from({ length: item.photos ?? 1 }, (_, variant) => demoPhoto(item.icon, item.hue, variant)),
    );
    const prepared = await preparePhotos(raw.map((data, n) => ({ filename: `${item.icon}-${n}.jpg`, data })));
    const urls = await storePhotos(storage, prepared);
    pools[item.category] = [...(pools[item.category] ?? []), ...urls];
    all.push(...urls);
  }
  // A category without a photo of its own borrows every stored one: every item has at least one.
  for (const item of DEMO_ITEMS) if (!pools[item.category]?.length) pools[item.category] = all;
  return pools;
}

/** Listings a statement: a few MB of JSON, so 500,000 items go in a hundred statements. */
const LISTINGS_PER_INSERT = 5_000;
/**
 * From this many items the search indexes (GIN: full text and trigrams) are dropped before the listings
 * go in and built again after, with their own definitions, as one does for a bulk load: building a GIN
 * index once is several times faster than growing it row by row.
 */
const REBUILD_SEARCH_INDEXES_FROM = 50_000;

export interface SeedResult {
  size: CampusSize;
  /** Rows per table after seeding. */
  counts: Record<string, number>;
  /** Seconds for the photos, the SQL, and in all. */
  seconds: { photos: number; rows: number; total: number; items?: number; searchIndexes?: number };
}

/**
 * Seeds an empty, migrated database. `today` is the campus date (YYYY-MM-DD): reservations and
 * availability windows are placed around it, so every status has believable dates.
 */
export async function seedCampus(
  db: Db,
  storage: Storage,
  options: { size: CampusSize; today: string; vacuum?: boolean },
): Promise<SeedResult> {
  const started = performance.now();
  const { size, today } = options;
  const { users: U, items: I, reservations: R, conversations: C, messages: M, notifications: N } = size;
  if (C > I) throw new Error('the bench seeds at most one conversation per item');
  if (R > 3 * I) throw new Error('the bench seeds at most three reservations per item');
  const photos = await categoryPhotos(storage, size.photoTemplates);
  const photosDone = performance.now();
  let itemsSeconds = 0;
  let indexSeconds = 0;
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const day = `'${today}'::date`;
  // In bigint: at 50 times the catalogue the item number times the multiplier passes 2^31.
  const ownerOf = (k: string) => `(1 + ((${k})::bigint * ${coprime(U, 7919)}) % ${U})::int`;
  const itemStride = coprime(I, 7);

  // One transaction (one connection from a pool) so the statements see each other's rows.
  await db.transaction(async (tx) => {
    const exec = (text: string, ...params: unknown[]) => {
      // Values go in as bound parameters ($1, $2…); the statement's structure is our own constants.
      const parts = text
        .split(/\$(\d+)/)
        .map((chunk, i) => (i % 2 === 0 ? sql.raw(chunk) : sql`${params[Number(chunk) - 1]}`));
      return tx.execute(sql.join(parts));
    };
    const locationOf = (campus: string, i: string) =>
      `(case ${campus} ${Object.entries(LOCATIONS)
        .map(([c, places]) => `when '${c}' then (${textArray(places)})[1 + (${i}) % ${places.length}]`)
        .join(' ')} end)`;

    await exec(
      `insert into users (id, email, username, password_hash, full_name, campus, is_verified, created_at)
       select ${benchUserId('i')},
              'bench.student' || i || '@' || ${campusOf('i')},
              'bench_student_' || i,
              $1,
              (${textArray(FIRST_NAMES)})[1 + i % ${FIRST_NAMES.length}] || ' ' ||
                (${textArray(LAST_NAMES)})[1 + (i / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}],
              ${campusOf('i')},
              true,
              now() - make_interval(days => 30 + i % 700)
       from generate_series(1, ${U}) i`,
      passwordHash,
    );

    // Items: the catalogue's listings over every category, spread over a year (newest last), each with
    // one to five photos of its category. One in ten starts later, one in 23 is switched off, one in 47
    // is deleted; the owner's campus decides the campus and the pickup place.
    const searchIndexes =
      I >= REBUILD_SEARCH_INDEXES_FROM
        ? (
            (await exec(
              `select indexname, indexdef from pg_indexes where tablename = 'items' and indexdef ilike '% using gin %'`,
            )) as unknown as { rows: { indexname: string; indexdef: string }[] }
          ).rows
        : [];
    const itemsStarted = performance.now();
    for (const index of searchIndexes) await exec(`drop index "${index.indexname}"`);
    for (let from = 1; from <= I; from += LISTINGS_PER_INSERT) {
      const rows = [];
      for (let i = from; i < Math.min(I + 1, from + LISTINGS_PER_INSERT); i++) {
        const l = listingAt(i);
        const pool = photos[l.category];
        const start = mix(i, 30) % pool.length;
        const count = 1 + (i % Math.min(5, pool.length));
        rows.push({
          i,
          title: l.title,
          description: l.description,
          category: l.category,
          condition: l.condition,
          price: l.priceCents,
          period: l.period,
          deposit: l.depositCents,
          pickup: l.pickup,
          days: l.days,
          photos: Array.from({ length: count }, (_, k) => pool[(start + k) % pool.length]),
        });
      }
      await exec(
        `with n as (
           select x.*, ${ownerOf('x.i')} as o
           from json_to_recordset($1::json) as x(i int, title text, description text, category text,
                condition text, price int, period text, deposit int, pickup text, days json, photos json)
         )
         insert into items (id, user_id, title, description, category, images, condition, deposit_cents,
                            rental_price_cents, rental_period, pickup_method, pickup_location, available_from,
                            available_until, available_days, is_available, campus, created_at, updated_at, deleted_at)
         select ${benchItemId('n.i')},
                ${benchUserId('n.o')},
                n.title,
                n.description,
                n.category,
                array(select p from json_array_elements_text(n.photos) p),
                n.condition,
                n.deposit,
                n.price,
                n.period,
                case when n.i % 6 = 0 then 'locker' else n.pickup end,
                ${locationOf(campusOf('n.o'), 'n.i')},
                case when n.i % 10 = 0 then ${day} + (1 + n.i % 20) else ${day} - (30 + n.i % 300) end,
                case when n.i % 10 = 0 then ${day} + (91 + n.i % 20)
                     when n.i % 4 = 0 then ${day} + (30 + n.i % 200) end,
                array(select d::smallint from json_array_elements_text(n.days) d),
                n.i % 23 <> 0,
                ${campusOf('n.o')},
                now() - make_interval(secs => (${I} - n.i) * ${31_536_000 / I}),
                now() - make_interval(secs => (${I} - n.i) * ${31_536_000 / I}),
                case when n.i % 47 = 0 then now() - interval '3 days' end
         from n`,
        JSON.stringify(rows),
      );
    }
    const indexesStarted = performance.now();
    if (searchIndexes.length) await exec(`set local maintenance_work_mem = '256MB'`);
    for (const index of searchIndexes) await exec(index.indexdef);
    indexSeconds = (performance.now() - indexesStarted) / 1000;
    itemsSeconds = (performance.now() - itemsStarted) / 1000;

    // Reservations: up to three per item (slots), every status. Each slot of an item has its own days,
    // so no two of an item's reservations overlap and the no-overlap constraint holds:
    // past ones (completed, cancelled, declined) 20 days apart before today, at most one active around
    // today (slot 0 only), pending and approved 20 days apart from a week ahead.
    await exec(
      `with r as (
         select n, (n - 1) % ${I} + 1 as k, (n - 1) / ${I} as slot from generate_series(1, ${R}) n
       ),
       s as (
         select r.*, it.id as item_id, it.user_id as provider_id, it.rental_price_cents as price,
                it.rental_period as period, coalesce(it.deposit_cents, 0) as deposit,
                (array['completed','completed','completed','completed','completed','completed','active','active',
                       'approved','approved','pending','pending','pending','cancelled','cancelled','cancelled',
                       'declined','declined','declined','declined'])[1 + (r.k * 7 + r.slot * 3) % 20] as drawn,
                ${ownerOf('r.k')} as o
         from r join items it on it.id = ${benchItemId('r.k')}
       ),
       st as (
         select s.*, case when s.drawn = 'active' and s.slot > 0 then 'completed' else s.drawn end as status
         from s
       ),
       d as (
         select st.*,
                case when st.status in ('completed','cancelled','declined') then ${day} - 20 * (st.slot + 1) - st.k % 7
                     when st.status = 'active' then ${day} - st.k % 3
                     else ${day} + 7 + 20 * st.slot + st.k % 5 end as start_date
         from st
       ),
       e as (
         select d.*,
                case when d.status = 'active' then ${day} + 1 + d.k % 4 else d.start_date + d.k % 4 end as end_date
         from d
       )
       insert into reservations (id, item_id, borrower_id, provider_id, start_date, end_date, status,
                                 deposit_cents, rental_cents, pickup_code, decline_reason, completed_at,
                                 created_at, updated_at)
       select ${idOf('reservation', 'e.n')},
              e.item_id,
              -- The borrower is another student than the owner: owner + 1 … owner + U - 1, wrapped.
              ${benchUserId(`1 + (e.o + (e.k * 31 + e.slot * 17) % ${U - 1}) % ${U}`)},
              e.provider_id,
              e.start_date,
              e.end_date,
              e.status,
              e.deposit,
              coalesce(e.price, 0) * case e.period when 'day' then greatest(1, e.end_date - e.start_date)
                                                   when 'week' then ceil(greatest(1, e.end_date - e.start_date) / 7.0)::int
                                                   when 'month' then ceil(greatest(1, e.end_date - e.start_date) / 30.0)::int
                                                   else 1 end,
              case when e.status in ('approved','active') then lpad(((e.k * 7919 + e.slot) % 1000000)::text, 6, '0') end,
              case when e.status = 'declined' and e.k % 2 = 0 then 'Sorry, I need it that week myself.' end,
              case when e.status = 'completed' then (e.end_date + 1)::timestamptz end,
              case when e.status = 'pending' then now() - make_interval(hours => e.k % 40)
                   else (e.start_date - 3)::timestamptz end,
              now()
       from e`,
    );

    // Reviews of completed borrows, both ways for some, and a payment row for each paid one.
    await exec(
      `insert into reviews (reservation_id, reviewer_id, reviewee_id, item_id, rating, comment, review_type, created_at)
       select r.id, r.borrower_id, r.provider_id, r.item_id, 3 + abs(hashtext(r.id::text)) % 3,
              (${textArray(REVIEW_COMMENTS)})[1 + abs(hashtext(r.id::text)) % ${REVIEW_COMMENTS.length}],
              'borrower_to_lender', r.completed_at + interval '1 day'
       from reservations r where r.status = 'completed' and abs(hashtext(r.id::text)) % 3 <> 0
       union all
       select r.id, r.provider_id, r.borrower_id, r.item_id, 4 + abs(hashtext(r.id::text || 'l')) % 2,
              (${textArray(REVIEW_COMMENTS)})[1 + abs(hashtext(r.id::text || 'l')) % ${REVIEW_COMMENTS.length}],
              'lender_to_borrower', r.completed_at + interval '2 days'
       from reservations r where r.status = 'completed' and abs(hashtext(r.id::text)) % 2 = 0`,
    );
    await exec(
      `insert into billing_history (user_id, reservation_id, amount_cents, status, description, payment_method_type,
                                    payment_method_last4, created_at)
       select r.borrower_id, r.id, r.rental_cents + r.deposit_cents, 'completed',
              'Payment for ' || i.title, 'card', '4242', r.start_date::timestamptz
       from reservations r join items i on i.id = r.item_id
       where r.status in ('approved','active','completed') and r.rental_cents + r.deposit_cents > 0`,
    );

    // Conversations: one per item for the first C items (in a scattered order), opened by another student.
    await exec(
      `insert into conversations (id, item_id, buyer_id, seller_id, created_at, last_message_at)
       select ${idOf('conversation', 'c')}, it.id,
              ${benchUserId(`1 + (${ownerOf(`(c * ${itemStride}) % ${I} + 1`)} + c % ${U - 1}) % ${U}`)},
              it.user_id,
              now() - make_interval(mins => (${C} - c) * ${Math.max(1, Math.round(43_200 / C))} + 200),
              now()
       from generate_series(1, ${C}) c
       join items it on it.id = ${benchItemId(`(c * ${itemStride}) % ${I} + 1`)}`,
    );
    // Messages: M / C per conversation, taking turns, a few minutes apart; the last two of every third
    // conversation are still unread.
    await exec(
      `with m as (
         select n, (n - 1) % ${C} + 1 as c, (n - 1) / ${C} as q from generate_series(1, ${M}) n
       )
       insert into messages (conversation_id, sender_id, content, is_read, created_at)
       select cv.id, case when m.q % 2 = 0 then cv.buyer_id else cv.seller_id end,
              (${textArray(CHAT_LINES)})[1 + m.q % ${CHAT_LINES.length}],
              not (m.c % 3 = 0 and m.q >= ${Math.ceil(M / C) - 2}),
              cv.created_at + make_interval(mins => m.q * 7)
       from m join conversations cv on cv.id = ${idOf('conversation', 'm.c')}`,
    );
    await exec(
      `update conversations c set last_message_at = m.latest
       from (select conversation_id, max(created_at) as latest from messages group by conversation_id) m
       where m.conversation_id = c.id`,
    );

    // Notifications: about ten a person over two months, a quarter unread.
    await exec(
      `with t as (
         select * from json_to_recordset($1::json) as x(ord int, type text, title text, message text)
       ),
       numbered as (select n from generate_series(1, ${N}) n)
       insert into notifications (user_id, type, title, message, related_item_id, is_read, created_at)
       select ${benchUserId(`1 + (numbered.n - 1) % ${U}`)}, t.type, t.title, t.message,
              case when t.type <> 'system' then ${benchItemId(`1 + (numbered.n * ${itemStride}) % ${I}`)} end,
              numbered.n % 4 <> 0,
              now() - make_interval(mins => (${N} - numbered.n) * ${Math.max(1, Math.round(86_400 / N))})
       from numbered join t on t.ord = (numbered.n - 1) % ${NOTIFICATIONS.length}`,
      JSON.stringify(NOTIFICATIONS.map((n, ord) => ({ ...n, ord }))),
    );
  });
  // Fresh statistics, as a running database would have: the planner chooses as it would in production.
  // On PostgreSQL also the visibility map autovacuum would set within a minute of such a bulk insert,
  // without which no index-only scan skips the table (migration 0049); PGlite has no autovacuum, so
  // its bench measures it without, as `npm start` runs.
  await db.execute(options.vacuum ? sql`vacuum analyze` : sql`analyze`);

  const counts: Record<string, number> = {};
  for (const table of [
    'users',
    'items',
    'reservations',
    'reviews',
    'conversations',
    'messages',
    'notifications',
  ]) {
    const result = await db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`));
    counts[table] = Number(result.rows[0]?.n ?? 0);
  }
  const done = performance.now();
  return {
    size,
    counts,
    seconds: {
      photos: (photosDone - started) / 1000,
      rows: (done - photosDone) / 1000,
      /** Of the rows: the items, and of these the search indexes built after them (large catalogues). */
      items: itemsSeconds,
      searchIndexes: indexSeconds,
      total: (done - started) / 1000,
    },
  };
}
