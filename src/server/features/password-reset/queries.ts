import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResets, users } from '../../db/schema/users.ts';
import { expireOpenTokens } from '../../db/token-lifetimes.ts';

// The only place that reads and writes password reset links.

/** The account an e-mail address (any case) belongs to, if any. */
export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, fullName: users.fullName, locale: users.locale })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return row;
}

/** Holds the user's row until the transaction ends, so one person's requests run one at a time. */
export async function lockUser(db: Db, userId: string) {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export async function insertLink(db: Db, values: { tokenHash: string; userId: string; expiresAt: Date }) {
  await db.insert(passwordResets).values(values);
}

/** A newer link replaces the older ones (and a used one ends the rest): they expire now. */
export async function expireOpenLinks(db: Db, userId: string, now: Date) {
  await expireOpenTokens(db, passwordResets, userId, now);
}

/** Whose link this is, read without a lock: the account's row is locked first (decision 036). */
export async function findLinkOwner(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ userId: passwordResets.userId })
    .from(passwordResets)
    .where(eq(passwordResets.tokenHash, tokenHash))
    .limit(1);
  return row?.userId;
}

/** The link and its user, locked so that two submissions of one link cannot both use it. */
export async function lockLink(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      userId: passwordResets.userId,
      expiresAt: passwordResets.expiresAt,
      usedAt: passwordResets.usedAt,
      email: users.email,
      suspendedAt: users.suspendedAt,
    })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(eq(passwordResets.tokenHash, tokenHash))
    .for('update', { of: passwordResets })
    .limit(1);
  return row;
}

export async function markLinkUsed(db: Db, tokenHash: string, now: Date) {
  await db.update(passwordResets).set({ usedAt: now }).where(eq(passwordResets.tokenHash, tokenHash));
}
