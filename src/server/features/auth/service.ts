import type { LoginInput, PublicUser, RegisterInput, SessionUser } from '#shared/schemas/auth.ts';
import type { ReadCache } from '../../cache/read-cache.ts';
import { catalogueTags } from '../../cache/tags.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError, badRequest, conflict } from '../../errors.ts';
import { emailVerificationService } from '../email-verification/service.ts';
import { notificationService } from '../notifications/service.ts';
import { universityService } from '../universities/service.ts';
import { decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import * as queries from './queries.ts';
import { hashSessionToken, newSessionToken } from './session-token.ts';

// Accounts and sessions: the rules of spec §4 Authentication and §5 Registration/Login.

const DAY_MS = 24 * 60 * 60 * 1000;

export const INVALID_CREDENTIALS = 'Invalid email or password.';
export const ACCOUNT_SUSPENDED = 'This account is suspended. Contact support.';

export function toPublicUser(row: queries.UserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    fullName: row.fullName,
    campus: row.campus,
    campusName: universityService.campusName(row.campus),
    profileImage: row.profileImage,
    isVerified: row.isVerified,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Moderators are the accounts whose e-mail is in ADMIN_EMAILS (decision 009); the check is by e-mail, any case. */
export function isAdminEmail(config: Pick<Config, 'adminEmails'>, email: string): boolean {
  return config.adminEmails.includes(email.toLowerCase());
}

/** The signed-in person as the session call answers them: with their role. */
export function toSessionUser(user: PublicUser, config: Pick<Config, 'adminEmails'>): SessionUser {
  return { ...user, isAdmin: isAdminEmail(config, user.email) };
}

/** Postgres unique-violation on one of the users' unique indexes, raised when two sign-ups race. */
function uniqueViolation(error: unknown): string | undefined {
  const e =
    (error as { cause?: { code?: string; constraint?: string } }).cause ??
    (error as { code?: string; constraint?: string });
  return e && e.code === '23505' ? (e.constraint ?? 'unique') : undefined;
}

export const EMAIL_TAKEN = 'An account with this email already exists. Try signing in instead.';
export const USERNAME_TAKEN = 'That username is already taken. Please choose another.';

/**
 * A new account, its welcome notice and its first e-mail verification link, committed together;
 * answers the link's token for the caller to mail after the commit.
 */
export async function register(
  db: Db,
  input: RegisterInput & { email: string },
  verificationLinkHours: number,
): Promise<{ user: PublicUser; verificationToken: string }> {
  const campus = input.campus.toLowerCase();
  const allowed = universityService.campusAllowedFor(input.email, campus);
  if (allowed === 'unknown') {
    throw badRequest('Please choose your university from the list.', [
      { path: 'campus', message: 'Please choose your university from the list.' },
    ]);
  }
  if (allowed === 'mismatch') {
    throw badRequest('Your university email does not belong to the university you chose.', [
      { path: 'campus', message: 'Your university email does not belong to the university you chose.' },
    ]);
  }
  if (await queries.emailTaken(db, input.email)) throw conflict(EMAIL_TAKEN, 'EMAIL_TAKEN');
  if (await queries.usernameTaken(db, input.username)) throw conflict(USERNAME_TAKEN, 'USERNAME_TAKEN');

  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const user = toPublicUser(
        await queries.insertUser(tx, {
          email: input.email.toLowerCase(),
          username: input.username,
          passwordHash,
          fullName: input.fullName,
          campus,
        }),
      );
      await notificationService.notify(tx, {
        userId: user.id,
        type: 'system',
        title: 'Welcome to CampusLoop!',
        message: `Your ${user.campusName} account is ready. Read How It Works to see how borrowing and lending work, and keep your stuff in the loop.`,
      });
      const verificationToken = await emailVerificationService.issueLink(tx, user.id, verificationLinkHours);
      return { user, verificationToken };
    });
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint?.includes('email')) throw conflict(EMAIL_TAKEN, 'EMAIL_TAKEN');
    if (constraint?.includes('username')) throw conflict(USERNAME_TAKEN, 'USERNAME_TAKEN');
    throw error;
  }
}

/** One generic 401 for an unknown e-mail and a wrong password alike. */
export async function authenticate(db: Db, input: LoginInput & { email: string }): Promise<PublicUser> {
  const row = await queries.findCredentialsByEmail(db, input.email);
  if (!row) {
    await verifyPassword(await decoyHash(), input.password);
    throw new AppError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
  }
  const { passwordHash, suspendedAt, ...user } = row;
  if (!(await verifyPassword(passwordHash, input.password))) {
    throw new AppError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
  }
  // Told only to someone who knows the password, so it does not reveal who is suspended.
  if (suspendedAt) throw new AppError(403, 'ACCOUNT_SUSPENDED', ACCOUNT_SUSPENDED);
  return toPublicUser(user);
}

export async function startSession(db: Db, userId: string, days: number, now = new Date()) {
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + days * DAY_MS);
  await queries.insertSession(db, { tokenHash: hashSessionToken(token), userId, expiresAt });
  return { token, expiresAt };
}

/** A live session: its person, as the app sees them, and when it ends. */
export interface LiveSession {
  user: SessionUser;
  expiresAt: Date;
}

/**
 * The user behind a session cookie, or null. A session in the second half of its life is extended,
 * so people who use the app keep their sign-in and idle ones lapse. `cache` remembers sessions by
 * token (issue 7): a tab polling every few seconds need not ask the database who it is each time.
 */
export async function resumeSession(
  db: Db,
  token: string,
  config: Pick<Config, 'sessionDays' | 'adminEmails'>,
  now = new Date(),
  cache?: ReadCache<LiveSession | undefined>,
) {
  const find = async (): Promise<LiveSession | undefined> => {
    const found = await queries.findSessionUser(db, hashSessionToken(token), now);
    // Frozen: one remembered object serves many requests, so none of them may change it.
    return (
      found && {
        user: Object.freeze(toSessionUser(toPublicUser(found.user), config)),
        expiresAt: found.expiresAt,
      }
    );
  };
  // Tagged with its person: a change to them or to any of their sessions drops it (migration 0011).
  const session = cache
    ? await cache.get(token, find, (found) => (found ? [catalogueTags.user(found.user.id)] : []))
    : await find();
  // A remembered session still ends on time.
  if (!session || session.expiresAt.getTime() <= now.getTime()) return null;
  const lifetime = config.sessionDays * DAY_MS;
  let expiresAt = session.expiresAt;
  if (expiresAt.getTime() - now.getTime() < lifetime / 2) {
    expiresAt = new Date(now.getTime() + lifetime);
    await queries.extendSession(db, hashSessionToken(token), expiresAt);
    cache?.delete(token);
  }
  return { user: session.user, expiresAt, renewed: expiresAt !== session.expiresAt };
}

/**
 * How the database names a session (its token's SHA-256): the live channel's `sessionEnded` event
 * names the session that ended, and a socket compares it with its own.
 */
export const sessionId = (token: string) => hashSessionToken(token);

export async function endSession(db: Db, token: string) {
  await queries.deleteSession(db, hashSessionToken(token));
}

/** Ends every session of a person (a moderator suspended them); pass the moderator's transaction. */
export async function endAllSessions(db: Db, userId: string) {
  await queries.deleteUserSessions(db, userId);
}

/**
 * A new password, and every session of the person ends with the old one (their live sockets close when
 * the transaction commits, migration 0010); pass the caller's transaction.
 */
export async function changePassword(db: Db, userId: string, password: string) {
  await queries.updatePasswordHash(db, userId, await hashPassword(password));
  await queries.deleteUserSessions(db, userId);
}

export async function pruneSessions(db: Db, now = new Date()) {
  await queries.deleteExpiredSessions(db, now);
}
