import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { items } from '../../db/schema/items.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// Public profiles: the person and their borrowings (reviews and badges come from their features).

export async function findProfile(db: Db, id: string) {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      fullName: users.fullName,
      campus: users.campus,
      profileImage: users.profileImage,
      isVerified: users.isVerified,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

/** The user's own borrowings, newest first; a deleted item still shows its title (decision 005). */
export function listBorrowings(db: Db, borrowerId: string) {
  const provider = alias(users, 'provider');
  return db
    .select({
      id: reservations.id,
      status: reservations.status,
      startDate: reservations.startDate,
      endDate: reservations.endDate,
      item: { id: items.id, title: items.title, images: items.images },
      provider: { id: provider.id, fullName: provider.fullName, username: provider.username },
    })
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .innerJoin(provider, eq(provider.id, reservations.providerId))
    .where(and(eq(reservations.borrowerId, borrowerId)))
    .orderBy(desc(reservations.createdAt))
    .limit(100);
}

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
