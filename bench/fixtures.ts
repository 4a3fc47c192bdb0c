import { sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client.ts';
import { hashSessionToken, newSessionToken } from '../src/server/features/auth/session-token.ts';
import { SESSION_COOKIE } from '../src/server/http/session.ts';

// What the scenarios act with, read from the seeded database before the server starts (an embedded
// database has one owner at a time): signed-in sessions, ids to look at, conversations for the chat
// sockets, free items for the booking flow, and for the campus day every item, person and
// conversation, items to book and photos to list with.

export interface Person {
  userId: string;
  cookie: string;
}

export interface Fixtures {
  campuses: string[];
  /** Signed-in students (the unread polls rotate over them). */
  people: Person[];
  itemIds: string[];
  profileIds: string[];
  loginEmails: string[];
  /** Conversations whose two people appear in no other pair: one socket each. */
  chatPairs: { conversationId: string; buyer: Person; seller: Person }[];
  /** Free items bookable any day from today on, with their owners signed in. */
  flowItems: { itemId: string; owner: Person }[];
  /** Signed-in students who own none of the flow items. */
  borrowers: Person[];
  /** Every student, signed in, with the e-mail they sign in with and their campus. */
  everyone: (Person & { email: string; campus: string })[];
  /** Every listed item (the campus day opens any of them). */
  everyItemId: string[];
  /** Every conversation with its two people. */
  conversations: { id: string; buyer: Person; seller: Person }[];
  /** Items bookable from about two months ahead (past every seeded booking), paid and free. */
  bookable: BookableItem[];
  /** Photos the catalogue shows, by category: new listings reuse them as a lender's own uploads. */
  photosByCategory: Record<string, string[]>;
}

export interface BookableItem {
  itemId: string;
  ownerId: string;
  priceCents: number | null;
  period: 'day' | 'week' | 'month' | null;
  depositCents: number | null;
  availableFrom: string;
  availableUntil: string | null;
  days: number[];
}

export interface FixtureSizes {
  samples: number;
  chatSockets: number;
  flowItems: number;
}

type Rows<T> = { rows: T[] };

export async function prepareFixtures(db: Db, sizes: FixtureSizes): Promise<Fixtures> {
  // A live session for every student: the sockets alone need a thousand different people.
  const users = (
    (await db.execute(sql`select id, email, campus from users order by id`)) as Rows<{
      id: string;
      email: string;
      campus: string;
    }>
  ).rows;
  const tokens = users.map(() => newSessionToken());
  const cookies = new Map(users.map((u, i) => [u.id, `${SESSION_COOKIE}=${tokens[i]}`]));
  await db.execute(sql`
    insert into sessions (token_hash, user_id, expires_at)
    select h, u, now() + interval '30 days'
    from unnest(${`{${tokens.map(hashSessionToken).join(',')}}`}::text[], ${`{${users.map((u) => u.id).join(',')}}`}::uuid[]) as t(h, u)`);
  const person = (userId: string): Person => ({ userId, cookie: cookies.get(userId)! });

  // Stable but scattered samples: ordered by a hash of the id, not by creation.
  const itemIds = (
    (await db.execute(sql`
    select id from items where deleted_at is null and hidden_at is null
    order by md5(id::text) limit ${sizes.samples}`)) as Rows<{ id: string }>
  ).rows.map((r) => r.id);
  const profileIds = (
    (await db.execute(sql`
    select id from users where exists (select 1 from items where items.user_id = users.id)
    order by md5(id::text) limit ${sizes.samples}`)) as Rows<{ id: string }>
  ).rows.map((r) => r.id);

  const conversations = (
    (await db.execute(sql`
    select id, buyer_id, seller_id from conversations order by md5(id::text)`)) as Rows<{
      id: string;
      buyer_id: string;
      seller_id: string;
    }>
  ).rows;
  const taken = new Set<string>();
  const chatPairs: Fixtures['chatPairs'] = [];
  for (const c of conversations) {
    if (chatPairs.length * 2 >= sizes.chatSockets) break;
    if (taken.has(c.buyer_id) || taken.has(c.seller_id)) continue;
    taken.add(c.buyer_id);
    taken.add(c.seller_id);
    chatPairs.push({ conversationId: c.id, buyer: person(c.buyer_id), seller: person(c.seller_id) });
  }

  const flow = (
    (await db.execute(sql`
    select id, user_id from items
    where deleted_at is null and hidden_at is null and is_available
      and rental_price_cents is null and deposit_cents is null
      and available_until is null and available_from <= current_date - 1
      and cardinality(available_days) = 7
    order by md5(id::text) limit ${sizes.flowItems}`)) as Rows<{ id: string; user_id: string }>
  ).rows;
  const owners = new Set(flow.map((f) => f.user_id));

  const everyItemId = (
    (await db.execute(sql`
    select id from items where deleted_at is null and hidden_at is null order by md5(id::text)`)) as Rows<{
      id: string;
    }>
  ).rows.map((r) => r.id);

  // Bookable past every seeded approval (they end within 55 days): a campus-day request may overlap
  // another pending one, as real ones do, but never an approved booking.
  const bookable = (
    (await db.execute(sql`
    select id, user_id, rental_price_cents, rental_period, deposit_cents,
           available_from::text, available_until::text, available_days
    from items
    where deleted_at is null and hidden_at is null and is_available
      and (available_until is null or available_until >= current_date + 75)
    order by md5(id::text || 'book') limit ${sizes.samples * 4}`)) as Rows<{
      id: string;
      user_id: string;
      rental_price_cents: number | null;
      rental_period: BookableItem['period'];
      deposit_cents: number | null;
      available_from: string;
      available_until: string | null;
      available_days: number[];
    }>
  ).rows
    // The booking flow's items are raced for by its own workers; the campus day leaves them alone.
    .filter((r) => !flow.some((f) => f.id === r.id))
    .map(
      (r): BookableItem => ({
        itemId: r.id,
        ownerId: r.user_id,
        priceCents: r.rental_price_cents,
        period: r.rental_period,
        depositCents: r.deposit_cents,
        availableFrom: r.available_from,
        availableUntil: r.available_until,
        days: r.available_days.map(Number),
      }),
    );

  const photosByCategory: Record<string, string[]> = {};
  const photoRows = (
    (await db.execute(sql`
    select category, array_agg(distinct image) as images
    from (select category, unnest(images) as image from items where id in
            (select id from items order by md5(id::text) limit 2000)) x
    group by category`)) as Rows<{ category: string; images: string[] }>
  ).rows;
  for (const row of photoRows) photosByCategory[row.category] = row.images;

  const shuffled = [...users].sort((a, b) => hashSessionToken(a.id).localeCompare(hashSessionToken(b.id)));
  return {
    campuses: [...new Set(users.map((u) => u.campus))].sort(),
    people: shuffled.slice(0, sizes.samples).map((u) => person(u.id)),
    itemIds,
    profileIds,
    loginEmails: shuffled.slice(0, sizes.samples).map((u) => u.email),
    chatPairs,
    flowItems: flow.map((f) => ({ itemId: f.id, owner: person(f.user_id) })),
    borrowers: shuffled
      .filter((u) => !owners.has(u.id))
      .slice(0, sizes.samples)
      .map((u) => person(u.id)),
    everyone: shuffled.map((u) => ({ ...person(u.id), email: u.email, campus: u.campus })),
    everyItemId,
    conversations: conversations.map((c) => ({
      id: c.id,
      buyer: person(c.buyer_id),
      seller: person(c.seller_id),
    })),
    bookable,
    photosByCategory,
  };
}
