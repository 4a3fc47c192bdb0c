import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/users.ts';

// The only place that reads and writes users' credentials and sessions.

/** Columns any response may carry about a user; never the password hash. */
export const userColumns = {
  id: users.id,
  email: users.email,
  username: users.username,
  fullName: users.fullName,
  campus: users.campus,
  profileImage: users.profileImage,
  isVerified: users.isVerified,
  createdAt: users.createdAt,
};
export type UserRow = {
  id: string;
  email: string;
  username: string;
  fullName: string;
  campus: string;
  profileImage: string | null;
  isVerified: boolean;
  createdAt: Date;
};

export async function findCredentialsByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ ...userColumns, passwordHash: users.passwordHash, suspendedAt: users.suspendedAt })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return row;
}

export async function emailTaken(db: Db, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return Boolean(row);
}

export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1);
  return Boolean(row);
}

export async function insertUser(
  db: Db,
  values: { email: string; username: string; passwordHash: string; fullName: string; campus: string },
): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning(userColumns);
  return row!;
}

export async function insertSession(db: Db, values: { tokenHash: string; userId: string; expiresAt: Date }) {
  await db.insert(sessions).values(values);
}

/** The signed-in user of a session that has not expired, unless a moderator has suspended them since. */
export async function findSessionUser(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ user: userColumns, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now), isNull(users.suspendedAt)))
    .limit(1);
  return row;
}

export async function extendSession(db: Db, tokenHash: string, expiresAt: Date) {
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteSession(db: Db, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function updatePasswordHash(db: Db, userId: string, passwordHash: string) {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

/** Signs a person out everywhere. */
export async function deleteUserSessions(db: Db, userId: string) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function deleteExpiredSessions(db: Db, now: Date) {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}
