import { and, avg, count, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { reviews, userBadges } from '../../db/schema/community.ts';
import { items } from '../../db/schema/items.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// Public profiles: the person, the reviews they received, their badges, their borrowings.

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

export function listReceivedReviews(db: Db, userId: string) {
  const reviewer = alias(users, 'reviewer');
  return db
    .select({
      id: reviews.id,
      rating: reviews.rating,
      comment: reviews.comment,
      createdAt: reviews.createdAt,
      reviewer: { id: reviewer.id, fullName: reviewer.fullName, username: reviewer.username },
    })
    .from(reviews)
    .innerJoin(reviewer, eq(reviewer.id, reviews.reviewerId))
    .where(eq(reviews.revieweeId, userId))
    .orderBy(desc(reviews.createdAt))
    .limit(100);
}

export async function ratingSummary(db: Db, userId: string) {
  const [row] = await db
    .select({ n: count(), average: avg(reviews.rating) })
    .from(reviews)
    .where(eq(reviews.revieweeId, userId));
  return {
    count: Number(row?.n ?? 0),
    average: row?.average === null || row?.average === undefined ? null : Number(row.average),
  };
}

export function listBadges(db: Db, userId: string) {
  return db
    .select({ id: userBadges.id, badgeType: userBadges.badgeType, earnedAt: userBadges.earnedAt })
    .from(userBadges)
    .where(eq(userBadges.userId, userId))
    .orderBy(userBadges.earnedAt);
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
