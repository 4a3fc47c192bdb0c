import { and, count, desc, eq, gt, gte, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailVerifications, sessions, users } from '../../db/schema/users.ts';
import { expireOpenTokens } from '../../db/token-lifetimes.ts';

// The only place that reads and writes e-mail verification links.

/** A registration waiting to take over an account nobody verified (decision 023). */
export interface PendingRegistration {
  pendingFullName: string;
  pendingUsername: string;
  pendingPasswordHash: string;
}

export async function insertLink(
  db: Db,
  values: { tokenHash: string; userId: string; expiresAt: Date } & Partial<PendingRegistration>,
) {
  await db.insert(emailVerifications).values(values);
}

/** Whose link this is, read without a lock: the account's row is locked first (decision 036). */
export async function findLinkOwner(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ userId: emailVerifications.userId })
    .from(emailVerifications)
    .where(eq(emailVerifications.tokenHash, tokenHash))
    .limit(1);
  return row?.userId;
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
      pendingFullName: emailVerifications.pendingFullName,
      pendingUsername: emailVerifications.pendingUsername,
      pendingPasswordHash: emailVerifications.pendingPasswordHash,
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
  await expireOpenTokens(db, emailVerifications, userId, now);
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

/** The newest link still open, with any registration it carries (a signed-out Resend keeps it). */
export async function newestOpenLink(db: Db, userId: string, now: Date) {
  const [row] = await db
    .select({
      pendingFullName: emailVerifications.pendingFullName,
      pendingUsername: emailVerifications.pendingUsername,
      pendingPasswordHash: emailVerifications.pendingPasswordHash,
    })
    .from(emailVerifications)
    .where(
      and(
        eq(emailVerifications.userId, userId),
        isNull(emailVerifications.usedAt),
        gt(emailVerifications.expiresAt, now),
      ),
    )
    .orderBy(desc(emailVerifications.createdAt))
    .limit(1);
  return row;
}

/** An account by address, for a signed-out Resend. */
export async function findByEmail(db: Db, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      isVerified: users.isVerified,
      deletedAt: users.deletedAt,
      locale: users.locale,
    })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return row;
}

/** Whether another account uses this username (any case). */
export async function usernameTakenByOther(db: Db, username: string, userId: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(sql`lower(${users.username})`, username.toLowerCase()), ne(users.id, userId)))
    .limit(1);
  return Boolean(row);
}

/**
 * The registration that proved the mailbox takes the account over: its name, username (when still free)
 * and password. Whoever held the account before is signed out.
 */
export async function applyRegistration(
  db: Db,
  userId: string,
  values: { fullName: string; username?: string; passwordHash: string },
) {
  await db.update(users).set(values).where(eq(users.id, userId));
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
