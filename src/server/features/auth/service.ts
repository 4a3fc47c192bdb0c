import { msg } from '@lingui/core/macro';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#shared/i18n.ts';
import type { LoginInput, PublicUser, RegisterInput, SessionUser } from '#shared/schemas/auth.ts';
import { EMAIL_NOT_VERIFIED, signInNeedsVerification } from '#shared/schemas/email-verification.ts';
import type { LiveSession } from '../../cache/live-session.ts';
import type { ReadCache } from '../../cache/read-cache.ts';
import { catalogueTags } from '../../cache/tags.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { endTokensOfOldPassword } from '../../db/token-lifetimes.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, badRequest, conflict, notFound } from '../../errors.ts';
import { wording } from '../../wordings.ts';
import { emailVerificationService } from '../email-verification/service.ts';
import { type NoticeText, notificationService } from '../notifications/service.ts';
import { universityService } from '../universities/service.ts';
import { summariseDevice, UNKNOWN_DEVICE } from './device.ts';
import { decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import * as queries from './queries.ts';
import { hashSessionToken, newSessionToken } from './session-token.ts';

// Accounts and sessions: the rules of spec §4 Authentication and §5 Registration/Login.

export { summariseDevice } from './device.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export const INVALID_CREDENTIALS = msg`Invalid email or password.`;
export const ACCOUNT_SUSPENDED = msg`This account is suspended. Contact support.`;

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
export function toSessionUser(
  user: PublicUser & { locale?: string },
  config: Pick<Config, 'adminEmails'>,
): SessionUser {
  const { locale, ...rest } = user;
  return {
    ...rest,
    isAdmin: isAdminEmail(config, user.email),
    locale: isLocale(locale) ? locale : DEFAULT_LOCALE,
  };
}

/** Postgres unique-violation on one of the users' unique indexes, raised when two sign-ups race. */
function uniqueViolation(error: unknown): string | undefined {
  const e =
    (error as { cause?: { code?: string; constraint?: string } }).cause ??
    (error as { code?: string; constraint?: string });
  return e && e.code === '23505' ? (e.constraint ?? 'unique') : undefined;
}

export const USERNAME_TAKEN = msg`That username is already taken. Please choose another.`;

/** A new account's first notification. */
const welcomeText = wording(
  'auth.welcome',
  (campusName: string): NoticeText => ({
    title: msg`Welcome to CampusLoop!`,
    message: msg`Your ${campusName} account is ready. Read How It Works to see how borrowing and lending work, and keep your stuff in the loop.`,
  }),
);

/** Who a registration's e-mail goes to, and which e-mail (decision 023); the answer is the same for all. */
export type Registration =
  /** A new account, not usable until its link is opened. */
  | { kind: 'created'; user: PublicUser; verificationToken: string }
  /** An account nobody verified: the link hands it to this registration (null past the hourly limit). */
  | {
      kind: 'claimed';
      user: { id: string; email: string; fullName: string };
      verificationToken: string | null;
    }
  /** A verified account (or one created by a racing registration): its holder is told, if anyone. */
  | { kind: 'taken'; user: { id: string; email: string; fullName: string; locale: string } | null };

/**
 * A registration (spec §5, decision 023). Whatever the address, the same work is done (the password is
 * hashed first, always) and the caller answers the same "check your inbox"; only the e-mail differs. A
 * new address gets an unverified account and its link; an account nobody verified gets a link that hands
 * it to whoever opens it; a verified account's holder is told someone tried. A username another account
 * uses is a 409 in every case (usernames are public on profiles, so that tells nothing about addresses).
 */
export async function register(
  db: Db,
  input: RegisterInput & { email: string },
  verificationLinkHours: number,
  /** The language the sign-up page was read in: the new account's. */
  locale: Locale = DEFAULT_LOCALE,
): Promise<Registration> {
  const campus = input.campus.toLowerCase();
  const allowed = universityService.campusAllowedFor(input.email, campus);
  if (allowed === 'unknown') {
    const message = msg`Please choose your university from the list.`;
    throw badRequest(message, [{ path: 'campus', message }]);
  }
  if (allowed === 'mismatch') {
    const message = msg`Your university email does not belong to the university you chose.`;
    throw badRequest(message, [{ path: 'campus', message }]);
  }
  const passwordHash = await hashPassword(input.password);
  const existing = await queries.findAccountByEmail(db, input.email);
  const usernameOwner = await queries.findUsernameOwner(db, input.username);
  if (usernameOwner && usernameOwner.id !== existing?.id) throw conflict(USERNAME_TAKEN, 'USERNAME_TAKEN');

  if (existing && (existing.isVerified || existing.deletedAt)) return { kind: 'taken', user: existing };
  if (existing) {
    const verificationToken = await emailVerificationService.claimLink(
      { db, linkHours: verificationLinkHours },
      existing.id,
      { pendingFullName: input.fullName, pendingUsername: input.username, pendingPasswordHash: passwordHash },
    );
    return { kind: 'claimed', user: existing, verificationToken };
  }
  try {
    return await transaction(db, async (tx) => {
      const user = toPublicUser(
        await queries.insertUser(tx, {
          email: input.email.toLowerCase(),
          username: input.username,
          passwordHash,
          fullName: input.fullName,
          campus,
          locale,
        }),
      );
      const campusName = user.campusName;
      await notificationService.notify(tx, {
        userId: user.id,
        type: 'system',
        text: () => welcomeText(campusName),
      });
      const verificationToken = await emailVerificationService.issueLink(tx, user.id, verificationLinkHours);
      return { kind: 'created' as const, user, verificationToken };
    });
  } catch (error) {
    const constraint = uniqueViolation(error);
    // Two registrations raced for one address: the other one's e-mail says what to do.
    if (constraint?.includes('email')) return { kind: 'taken', user: null };
    if (constraint?.includes('username')) throw conflict(USERNAME_TAKEN, 'USERNAME_TAKEN');
    throw error;
  }
}

/** One generic 401 for an unknown e-mail and a wrong password alike. */
export async function authenticate(
  db: Db,
  input: LoginInput & { email: string },
): Promise<PublicUser & { locale: string }> {
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
  // Until the mailbox is proven, the password alone opens nothing (decision 023): whoever registered
  // someone else's address gains no session; the e-mail's link signs the owner in.
  if (!user.isVerified) {
    throw new AppError(403, EMAIL_NOT_VERIFIED, signInNeedsVerification(user.email));
  }
  return { ...toPublicUser(user), locale: user.locale };
}

/** A session's last use is written at most this often (decision 022): not a write on every request. */
export const LAST_USED_PRECISION_MS = 5 * 60 * 1000;

/** A new session; `userAgent` is the browser's, summarised for Account settings ('Chrome on Android'). */
export async function startSession(
  db: Db,
  userId: string,
  days: number,
  { userAgent, now = new Date() }: { userAgent?: string; now?: Date } = {},
) {
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + days * DAY_MS);
  await queries.insertSession(db, {
    tokenHash: hashSessionToken(token),
    userId,
    expiresAt,
    device: summariseDevice(userAgent),
    lastUsedAt: now,
  });
  return { token, expiresAt };
}

/**
 * The user behind a session cookie, or null. A session in the second half of its life is extended,
 * so people who use the app keep their sign-in and idle ones lapse. `cache` remembers sessions by
 * token: a tab polling every few seconds need not ask the database who it is each time.
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
        user: Object.freeze(
          toSessionUser({ ...toPublicUser(found.user), locale: found.user.locale }, config),
        ),
        expiresAt: found.expiresAt,
        lastUsedAt: found.lastUsedAt,
      }
    );
  };
  // Tagged with its person: a change to them or to any of their sessions drops it (migration 0011), so
  // it is kept the long time. A token that finds nobody (unknown, ended, its person suspended) names
  // nobody an announcement could reach: the short time (a suspension lifted reaches it within it).
  const session = cache
    ? await cache.get(token, find, (found) => (found ? [catalogueTags.user(found.user.id)] : []), {
        announced: (found) => found !== undefined,
      })
    : await find();
  // A remembered session still ends on time.
  if (!session || session.expiresAt.getTime() <= now.getTime()) return null;
  const lifetime = config.sessionDays * DAY_MS;
  let expiresAt = session.expiresAt;
  const renew = expiresAt.getTime() - now.getTime() < lifetime / 2;
  if (renew) expiresAt = new Date(now.getTime() + lifetime);
  // The last use, to a few minutes: one write per session every few minutes at most, whatever the traffic.
  const used = now.getTime() - session.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS;
  if (renew || used) {
    await queries.touchSession(db, hashSessionToken(token), {
      ...(renew ? { expiresAt } : {}),
      ...(used ? { lastUsedAt: now } : {}),
    });
    cache?.delete(token);
  }
  return { user: session.user, expiresAt, renewed: expiresAt !== session.expiresAt };
}

/**
 * How the database names a session (its token's SHA-256): the live channel's `sessionEnded` event
 * names the session that ended, and a socket compares it with its own.
 */
export const sessionId = (token: string) => hashSessionToken(token);

/**
 * Which of these sessions, named as sessionId names them, are still live: the live channel asks after a
 * gap in the database's announcements, when a `sessionEnded` may have been missed.
 */
export async function liveSessions(db: Db, ids: string[], now = new Date()): Promise<Set<string>> {
  const live = new Set<string>();
  // A bounded statement each, however many sockets an instance holds.
  for (let from = 0; from < ids.length; from += 500) {
    for (const id of await queries.liveSessionHashes(db, ids.slice(from, from + 500), now)) live.add(id);
  }
  return live;
}

export async function endSession(db: Db, token: string) {
  await queries.deleteSession(db, hashSessionToken(token));
}

/** Ends every session of a person (a moderator suspended them); pass the moderator's transaction. */
export async function endAllSessions(db: Db, userId: string) {
  await queries.deleteUserSessions(db, userId);
}

/**
 * A new password, and every session of the person ends with the old one (their live sockets close when
 * the transaction commits, migration 0010), but for `keepSession` (the token of the browser that changed
 * it in Account settings); so do every reset link and pending e-mail change (decision 036). Pass the
 * caller's transaction.
 */
export async function changePassword(db: Db, userId: string, password: string, keepSession?: string) {
  await queries.updatePasswordHash(db, userId, await hashPassword(password));
  if (keepSession) await queries.deleteUserSessionsExcept(db, userId, hashSessionToken(keepSession));
  else await queries.deleteUserSessions(db, userId);
  await endTokensOfOldPassword(db, userId);
}

/** Whether `password` is the person's current one (Account settings asks before a sensitive change). */
export async function checkPassword(db: Db, userId: string, password: string): Promise<boolean> {
  const passwordHash = await queries.findPasswordHash(db, userId);
  if (!passwordHash) return false;
  return verifyPassword(passwordHash, password);
}

/** One of a person's sessions, as Account settings lists it. */
export interface SessionSummary {
  id: string;
  device: string;
  createdAt: string;
  lastUsedAt: string;
  current: boolean;
}

/** A person's live sessions, this browser's marked `current` (`currentToken` is its cookie). */
export async function listSessions(
  db: Db,
  userId: string,
  currentToken: string | null,
  now = new Date(),
): Promise<SessionSummary[]> {
  const currentHash = currentToken ? hashSessionToken(currentToken) : null;
  const rows = await queries.listUserSessions(db, userId, now);
  return rows.map((row) => ({
    id: row.publicId,
    device: row.device ?? UNKNOWN_DEVICE,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    current: row.tokenHash === currentHash,
  }));
}

/**
 * Ends one of a person's sessions by its public id (its sockets close on commit); another person's or an
 * unknown one is the same 404. Answers whether it was the browser's own session.
 */
export async function endSessionById(
  db: Db,
  userId: string,
  publicId: string,
  currentToken: string | null,
): Promise<{ current: boolean }> {
  const ended = await queries.deleteUserSessionByPublicId(db, userId, publicId);
  if (!ended) throw notFound(msg`Session not found. It may have ended already.`);
  return { current: currentToken !== null && ended.tokenHash === hashSessionToken(currentToken) };
}

/** "Sign out of other sessions": every session of the person but this browser's; answers how many ended. */
export async function endOtherSessions(db: Db, userId: string, currentToken: string): Promise<number> {
  return queries.deleteUserSessionsExcept(db, userId, hashSessionToken(currentToken));
}

export async function pruneSessions(db: Db, now = new Date()) {
  await queries.deleteExpiredSessions(db, now);
}
