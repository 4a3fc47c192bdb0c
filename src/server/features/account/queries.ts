import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Locale } from '#shared/i18n.ts';
import type { Db } from '../../db/client.ts';
import { emailChanges, users } from '../../db/schema/users.ts';
import { expireOpenTokens } from '../../db/token-lifetimes.ts';

// The only place that reads and writes what Account settings changes: the person's name, username and
// photo, their e-mail change links and their e-mail choices. (Passwords and sessions are auth's.)

const accountColumns = {
  id: users.id,
  email: users.email,
  username: users.username,
  fullName: users.fullName,
  campus: users.campus,
  profileImage: users.profileImage,
  isVerified: users.isVerified,
  createdAt: users.createdAt,
  locale: users.locale,
};

export async function findUser(db: Db, userId: string) {
  const [row] = await db.select(accountColumns).from(users).where(eq(users.id, userId)).limit(1);
  return row;
}

/** The language the person reads CampusLoop in. */
export async function setLocale(db: Db, userId: string, locale: Locale) {
  await db.update(users).set({ locale }).where(eq(users.id, userId));
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

/** Whether any account uses this address (any case). */
export async function emailTaken(db: Db, email: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return Boolean(row);
}

export async function updateProfile(db: Db, userId: string, values: { fullName: string; username: string }) {
  const [row] = await db.update(users).set(values).where(eq(users.id, userId)).returning(accountColumns);
  return row;
}

/** Sets the photo (or none); answers the one it replaced, read under the same row lock. */
export async function replaceProfileImage(db: Db, userId: string, profileImage: string | null) {
  const [before] = await db
    .select({ profileImage: users.profileImage })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!before) return undefined;
  const [row] = await db
    .update(users)
    .set({ profileImage })
    .where(eq(users.id, userId))
    .returning(accountColumns);
  return { user: row!, previous: before.profileImage };
}

/** Holds the user's row until the transaction ends, so one person's requests run one at a time. */
export async function lockUser(db: Db, userId: string) {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export async function insertEmailChange(
  db: Db,
  values: { tokenHash: string; userId: string; newEmail: string; expiresAt: Date },
) {
  await db.insert(emailChanges).values(values);
}

/** A newer request (or a used link, or a cancel) expires the open ones now. */
export async function expireOpenEmailChanges(db: Db, userId: string, now: Date) {
  await expireOpenTokens(db, emailChanges, userId, now);
}

/** The address of the person's open change, if any. */
export async function pendingEmail(db: Db, userId: string, now: Date) {
  const [row] = await db
    .select({ newEmail: emailChanges.newEmail })
    .from(emailChanges)
    .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, now)))
    .orderBy(desc(emailChanges.createdAt))
    .limit(1);
  return row?.newEmail ?? null;
}

/** Whose change this is, read without a lock: the account's row is locked first (decision 036). */
export async function findEmailChangeOwner(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ userId: emailChanges.userId })
    .from(emailChanges)
    .where(eq(emailChanges.tokenHash, tokenHash))
    .limit(1);
  return row?.userId;
}

/** The link and its person, locked so that two openings of one link cannot both use it. */
export async function lockEmailChange(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      userId: emailChanges.userId,
      newEmail: emailChanges.newEmail,
      expiresAt: emailChanges.expiresAt,
      usedAt: emailChanges.usedAt,
      oldEmail: users.email,
      fullName: users.fullName,
      locale: users.locale,
    })
    .from(emailChanges)
    .innerJoin(users, eq(users.id, emailChanges.userId))
    .where(eq(emailChanges.tokenHash, tokenHash))
    .for('update')
    .limit(1);
  return row;
}

export async function markEmailChangeUsed(db: Db, tokenHash: string, now: Date) {
  await db.update(emailChanges).set({ usedAt: now }).where(eq(emailChanges.tokenHash, tokenHash));
}

export async function updateEmail(db: Db, userId: string, email: string) {
  await db.update(users).set({ email }).where(eq(users.id, userId));
}
