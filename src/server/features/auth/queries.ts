import { and, desc, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Locale } from '#shared/i18n.ts';
import type { Db } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
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
  locale: users.locale,
};
export type UserRow = {
  id: string;
  email: string;
  username: string;
  fullName: string;
  campus: string;
  profileImage: string | null;
  isVerified: boolean;
  locale: string;
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
  values: {
    email: string;
    username: string;
    passwordHash: string;
    fullName: string;
    campus: string;
    locale?: Locale;
  },
): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning(userColumns);
  return row!;
}

export async function insertSession(
  db: Db,
  values: { tokenHash: string; userId: string; expiresAt: Date; device: string; lastUsedAt: Date },
) {
  await db.insert(sessions).values(values);
}

/** The signed-in user of a session that has not expired, unless a moderator has suspended them since. */
export async function findSessionUser(db: Db, tokenHash: string, now: Date) {
  // Asked on every signed-in request the session cache cannot answer: prepared once (db/prepared.ts).
  const [row] = await preparedOnce(db, 'auth_session_user', (name) =>
    db
      .select({ user: userColumns, expiresAt: sessions.expiresAt, lastUsedAt: sessions.lastUsedAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.tokenHash, sql.placeholder('tokenHash')),
          sql`${sessions.expiresAt} > ${sql.placeholder('now')}::timestamptz`,
          isNull(users.suspendedAt),
        ),
      )
      .limit(1)
      .prepare(name),
  ).execute({ tokenHash, now: now.toISOString() });
  return row;
}

/** Which of these sessions (by token hash) are still live, their person not suspended. */
export async function liveSessionHashes(db: Db, tokenHashes: string[], now: Date): Promise<string[]> {
  if (tokenHashes.length === 0) return [];
  const rows = await db
    .select({ tokenHash: sessions.tokenHash })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(inArray(sessions.tokenHash, tokenHashes), gt(sessions.expiresAt, now), isNull(users.suspendedAt)),
    );
  return rows.map((row) => row.tokenHash);
}

/** A later end, a later last use, or both, in one write. */
export async function touchSession(
  db: Db,
  tokenHash: string,
  values: { expiresAt?: Date; lastUsedAt?: Date },
) {
  await db.update(sessions).set(values).where(eq(sessions.tokenHash, tokenHash));
}

/** A person's live sessions, the most recently used first. */
export function listUserSessions(db: Db, userId: string, now: Date) {
  return db
    .select({
      tokenHash: sessions.tokenHash,
      publicId: sessions.publicId,
      device: sessions.device,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt))
    .limit(200);
}

/** Ends one session of a person by its public id; answers the token hash of the one ended, if any. */
export async function deleteUserSessionByPublicId(db: Db, userId: string, publicId: string) {
  const [row] = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId)))
    .returning({ tokenHash: sessions.tokenHash });
  return row;
}

/** Signs a person out everywhere but the one session kept; answers how many ended. */
export async function deleteUserSessionsExcept(db: Db, userId: string, keepTokenHash: string) {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)))
    .returning({ tokenHash: sessions.tokenHash });
  return rows.length;
}

export async function findPasswordHash(db: Db, userId: string) {
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.passwordHash;
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

/** The account of an address (any case), whatever its state: registration decides what to do with it. */
export async function findAccountByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ ...userColumns, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return row;
}

/** The account using a username (any case), if any. */
export async function findUsernameOwner(db: Db, username: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1);
  return row;
}
