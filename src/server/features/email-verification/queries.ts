import { and, count, eq, gt, gte, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailVerifications, users } from '../../db/schema/users.ts';

// The only place that reads and writes e-mail verification links.

export async function insertLink(db: Db, values: { tokenHash: string; userId: string; expiresAt: Date }) {
  await db.insert(emailVerifications).values(values);
}

/** The link and its user, locked so that two clicks on one link cannot both use it. */
export async function lockLink(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      userId: emailVerifications.userId,
      expiresAt: emailVerifications.expiresAt,
      usedAt: emailVerifications.usedAt,
      email: users.email,
      isVerified: users.isVerified,
    })
    .from(emailVerifications)
    .innerJoin(users, eq(users.id, emailVerifications.userId))
    .where(eq(emailVerifications.tokenHash, tokenHash))
    .for('update', { of: emailVerifications })
    .limit(1);
  return row;
}

export async function markLinkUsed(db: Db, tokenHash: string, now: Date) {
  await db.update(emailVerifications).set({ usedAt: now }).where(eq(emailVerifications.tokenHash, tokenHash));
}

/** A newer link replaces the older ones: they expire now. */
export async function expireOpenLinks(db: Db, userId: string, now: Date) {
  await db
    .update(emailVerifications)
    .set({ expiresAt: now })
    .where(
      and(
        eq(emailVerifications.userId, userId),
        isNull(emailVerifications.usedAt),
        gt(emailVerifications.expiresAt, now),
      ),
    );
}

export async function countLinksSince(db: Db, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(emailVerifications)
    .where(and(eq(emailVerifications.userId, userId), gte(emailVerifications.createdAt, since)));
  return row?.n ?? 0;
}

/** Holds the user's row until the transaction ends, so one person's resends run one at a time. */
export async function lockUser(db: Db, userId: string) {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export async function setUserVerified(db: Db, userId: string) {
  await db.update(users).set({ isVerified: true }).where(eq(users.id, userId));
}
