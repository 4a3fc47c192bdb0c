import { and, desc, eq, isNotNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { jsonList, jsonRow, subqueries } from '../../db/json-rows.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { revealCutoff } from '../../db/review-visibility.ts';
import { items } from '../../db/schema/items.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// Public profiles: the person and their borrowings (reviews and badges come from their features).

const profileFields = {
  id: users.id,
  username: users.username,
  fullName: users.fullName,
  campus: users.campus,
  profileImage: users.profileImage,
  isVerified: users.isVerified,
  createdAt: users.createdAt,
};

export async function findProfile(db: Db, id: string) {
  const [row] = await db.select(profileFields).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The user's own borrowings, newest first; a deleted item still shows its title (decision 005). */
export function listBorrowings(db: Db, borrowerId: string) {
  return db
    .select(borrowingFields)
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .innerJoin(provider, eq(provider.id, reservations.providerId))
    .where(and(eq(reservations.borrowerId, borrowerId)))
    .orderBy(desc(reservations.createdAt))
    .limit(BORROWINGS_LIMIT);
}

const provider = alias(users, 'provider');
const BORROWINGS_LIMIT = 100;
const borrowingFields = {
  id: reservations.id,
  status: reservations.status,
  startDate: reservations.startDate,
  endDate: reservations.endDate,
  item: { id: items.id, title: items.title, images: items.images },
  provider: { id: provider.id, fullName: provider.fullName, username: provider.username },
};

/** The bookings a lender approved, and how many of those they cancelled themselves. */
export async function lenderCancellations(db: Db, providerId: string) {
  const [row] = await db
    .select({
      approved: sql<number>`count(*)::int`,
      cancelled: sql<number>`(count(*) filter (where ${reservations.cancelledBy} = 'provider'))::int`,
    })
    .from(reservations)
    .where(and(eq(reservations.providerId, providerId), isNotNull(reservations.approvedAt)));
  return { approved: row?.approved ?? 0, cancelled: row?.cancelled ?? 0 };
}

/**
 * Which profile: everyone's (listed items only), a moderator's (hidden items too), or the person's own
 * (hidden items and their borrowings).
 */
export type ProfileView = 'public' | 'moderator' | 'own';

/**
 * The other features' parts of the profile's statement (from their services), each given the person's
 * id as SQL: their items (all of them, hidden ones too, when `everything`), those available now, the
 * revealed reviews and rating as at `cutoff`, the badges.
 */
export interface ProfileParts {
  items(userId: SQLWrapper, everything: boolean): SQL;
  availableNow(userId: SQLWrapper): SQL;
  reviews(userId: SQLWrapper, cutoff: SQL): SQL;
  rating(userId: SQLWrapper, cutoff: SQL): SQL;
  badges(userId: SQLWrapper): SQL;
}

const borrowingJson = jsonRow(borrowingFields);
const p = sql.placeholder;

/**
 * The whole profile in one statement, prepared by name on PostgreSQL: the person with their items,
 * revealed reviews, rating, badges, items available now, cancellations (and borrowings on their own)
 * as JSON beside them. Placeholders: `id`, `revealCutoff` (an ISO timestamp), `today`, `weekday`.
 * Seven statements before, whose planning cost PostgreSQL three times their running.
 */
function buildProfile(db: Db, view: ProfileView, parts: ProfileParts) {
  const id = p('id');
  const cutoff = sql`${p('revealCutoff')}`;
  const cancellations = subqueries
    .select({
      row: sql`json_build_array(count(*)::int, (count(*) filter (where ${reservations.cancelledBy} = 'provider'))::int)`.as(
        'row',
      ),
    })
    .from(reservations)
    .where(and(eq(reservations.providerId, id), isNotNull(reservations.approvedAt)));
  const borrowings =
    view === 'own'
      ? jsonList(
          subqueries
            .select({ row: borrowingJson.row })
            .from(reservations)
            .innerJoin(items, eq(items.id, reservations.itemId))
            .innerJoin(provider, eq(provider.id, reservations.providerId))
            .where(eq(reservations.borrowerId, id))
            .orderBy(desc(reservations.createdAt))
            .limit(BORROWINGS_LIMIT),
        )
      : sql`null`;
  return db
    .select({
      ...profileFields,
      items: parts.items(id, view !== 'public'),
      reviews: parts.reviews(id, cutoff),
      rating: parts.rating(id, cutoff),
      badges: parts.badges(id),
      availableNow: parts.availableNow(id),
      cancellations: sql`(${cancellations})`,
      borrowings,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1)
    .prepare(`profile_${view}`);
}
/**
 * Everything a profile shows, in one statement; undefined for an unknown person. The parts' values
 * are as their features read them (JSON), for their services to decode.
 */
export async function findProfilePage(
  db: Db,
  id: string,
  view: ProfileView,
  now: Date,
  today: { date: string; weekday: number },
  parts: ProfileParts,
) {
  const prepared = preparedOnce(db, `profile_${view}`, () => buildProfile(db, view, parts));
  const [row] = await prepared.execute({
    id,
    revealCutoff: revealCutoff(now).toISOString(),
    today: today.date,
    weekday: today.weekday,
  });
  if (!row) return undefined;
  const { items: ownItems, reviews, rating, badges, availableNow, cancellations, borrowings, ...user } = row;
  const [approved, cancelled] = (
    typeof cancellations === 'string' ? JSON.parse(cancellations) : cancellations
  ) as [number, number];
  return {
    user,
    items: ownItems,
    reviews,
    rating,
    badges,
    availableNow: Number(availableNow),
    cancellations: { approved: Number(approved), cancelled: Number(cancelled) },
    borrowings: view === 'own' ? borrowingJson.decodeList(borrowings) : undefined,
  };
}
