import { createHash, randomBytes } from 'node:crypto';
import { msg } from '@lingui/core/macro';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#shared/i18n.ts';
import { withReturnTo } from '#shared/return-path.ts';
import {
  EMAIL_NOT_VERIFIED,
  emailNotVerified,
  invalidVerificationLink,
} from '#shared/schemas/email-verification.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { endTokensOfOldPassword } from '../../db/token-lifetimes.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, conflict } from '../../errors.ts';
import { awardBadges } from '../badges/service.ts';
import * as queries from './queries.ts';
import { registrationAttemptEmail, verificationEmail } from './verification-email.ts';

// Verified e-mail: a link sent at registration (and on Resend) proves the student owns
// their university address. A link is 32 random bytes of which only the SHA-256 is stored; it works
// once and expires. Mail goes out after the database commit, so a mail failure never loses an account.

export interface EmailVerificationDeps {
  db: Db;
  mailer: Mailer;
  /** The app's public address; links are `${appUrl}/verify-email?token=…`. */
  appUrl: string;
  linkHours: number;
  log: { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
}

/** The deps from the app's configuration. */
export function emailVerificationDeps(
  db: Db,
  config: Config,
  mailer: Mailer,
  log: EmailVerificationDeps['log'],
): EmailVerificationDeps {
  return { db, mailer, appUrl: config.appUrl, linkHours: config.emailVerificationHours, log };
}

/** Links (the registration's included) one person may be sent in an hour. */
export const LINKS_PER_HOUR = 5;

const HOUR_MS = 60 * 60 * 1000;

export const ALREADY_VERIFIED = msg`Your e-mail address is already verified.`;

/** A stored language, or English. */
const localeOf = (value: string | undefined) => (isLocale(value) ? value : DEFAULT_LOCALE);

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Everything that happens when a student's e-mail is confirmed, inside the verifying transaction. */
async function onEmailVerified(tx: Db, userId: string) {
  await queries.setUserVerified(tx, userId);
  // 'Verified Student' is earned in the same transaction (badges with their event).
  await awardBadges(tx, userId);
}

/**
 * A new link for the user, inside the caller's transaction; answers the token to mail after the commit.
 * With `pending`, the link carries a registration that takes the (unverified) account over once opened.
 */
async function issueLink(
  tx: Db,
  userId: string,
  hours: number,
  now = new Date(),
  pending?: queries.PendingRegistration,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await queries.insertLink(tx, {
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(now.getTime() + hours * HOUR_MS),
    ...pending,
  });
  return token;
}

/** Whether the person was sent LINKS_PER_HOUR links in the last hour already (hold their row first). */
async function tooManyLinks(tx: Db, userId: string, now: Date) {
  return (await queries.countLinksSince(tx, userId, new Date(now.getTime() - HOUR_MS))) >= LINKS_PER_HOUR;
}

/**
 * Mails the link; a failure is logged, not thrown (the account stands, and Resend exists). With
 * `returnTo` (a page of the app) the link brings the student back there once verified.
 * Written in `user.locale`: the account's, or the sign-up request's.
 */
async function sendLink(
  deps: EmailVerificationDeps,
  user: { id: string; email: string; fullName: string; locale: Locale },
  token: string,
  returnTo?: string,
): Promise<boolean> {
  const link = withReturnTo(`${deps.appUrl}/verify-email?token=${token}`, returnTo);
  try {
    const sent = await deps.mailer.send(
      verificationEmail({
        to: user.email,
        locale: user.locale,
        fullName: user.fullName,
        link,
        hours: deps.linkHours,
      }),
    );
    deps.log.info(
      { userId: user.id, messageId: sent.messageId, ...(sent.file ? { file: sent.file } : {}) },
      `verification e-mail ${deps.mailer.kind === 'outbox' ? 'written to the outbox' : 'sent'}`,
    );
    return true;
  } catch (error) {
    deps.log.error({ err: error, userId: user.id }, 'verification e-mail could not be sent');
    return false;
  }
}

/**
 * Tells a verified account's holder that someone registered with their address, in the account's
 * language; failures are logged.
 */
async function sendRegistrationAttempt(
  deps: EmailVerificationDeps,
  user: { id: string; email: string; fullName: string; locale: string },
) {
  try {
    const sent = await deps.mailer.send(
      registrationAttemptEmail({
        to: user.email,
        locale: localeOf(user.locale),
        fullName: user.fullName,
        signInLink: `${deps.appUrl}/login`,
        resetLink: `${deps.appUrl}/forgot-password`,
      }),
    );
    deps.log.info(
      { userId: user.id, messageId: sent.messageId, ...(sent.file ? { file: sent.file } : {}) },
      `registration attempt e-mail ${deps.mailer.kind === 'outbox' ? 'written to the outbox' : 'sent'}`,
    );
  } catch (error) {
    deps.log.error({ err: error, userId: user.id }, 'registration attempt e-mail could not be sent');
  }
}

export const emailVerificationService = {
  sendRegistrationAttempt,
  /** The verified-e-mail rule: unverified students cannot request, approve or list. */
  requireVerified(user: { isVerified: boolean; email: string }) {
    if (!user.isVerified) throw new AppError(403, EMAIL_NOT_VERIFIED, emailNotVerified(user.email));
  },

  issueLink,
  sendLink,
  /** The address is proven another way (an e-mail change link): verified, with its badge. */
  markVerified: onEmailVerified,

  /** Resend: a fresh link replaces the older ones, at most LINKS_PER_HOUR an hour (in the account's language). */
  async resend(
    deps: EmailVerificationDeps,
    user: { id: string; email: string; fullName: string; isVerified: boolean; locale: Locale },
    now = new Date(),
    returnTo?: string,
  ): Promise<{ email: string }> {
    if (user.isVerified) throw conflict(ALREADY_VERIFIED, 'EMAIL_ALREADY_VERIFIED');
    const token = await transaction(deps.db, async (tx) => {
      await queries.lockUser(tx, user.id);
      if (await tooManyLinks(tx, user.id, now)) {
        throw new AppError(
          429,
          'RATE_LIMITED',
          msg`We have sent you several links in the last hour. Please look for the newest one in your inbox (and spam folder), or try again later.`,
        );
      }
      await queries.expireOpenLinks(tx, user.id, now);
      return issueLink(tx, user.id, deps.linkHours, now);
    });
    if (!(await sendLink(deps, user, token, returnTo))) {
      throw new AppError(
        503,
        'MAIL_UNAVAILABLE',
        msg`We could not send the e-mail right now. Please try again in a few minutes.`,
      );
    }
    return { email: user.email };
  },

  /**
   * A registration for the address of an account nobody verified (decision 023): a fresh link that
   * carries it replaces the open ones; nothing is sent past LINKS_PER_HOUR (the answer stays the same).
   * Answers the token to mail after the commit, or null.
   */
  async claimLink(
    deps: Pick<EmailVerificationDeps, 'db' | 'linkHours'>,
    userId: string,
    pending: queries.PendingRegistration,
    now = new Date(),
  ): Promise<string | null> {
    return transaction(deps.db, async (tx) => {
      await queries.lockUser(tx, userId);
      if (await tooManyLinks(tx, userId, now)) return null;
      await queries.expireOpenLinks(tx, userId, now);
      return issueLink(tx, userId, deps.linkHours, now, pending);
    });
  },

  /**
   * Resend from the "Check your inbox" screen, signed out: a new link when the address has an account
   * nobody verified (keeping the registration the newest link carried); the same answer otherwise.
   */
  async resendTo(deps: EmailVerificationDeps, email: string, now = new Date(), returnTo?: string) {
    const account = await queries.findByEmail(deps.db, email);
    if (!account || account.isVerified || account.deletedAt) return { email };
    const sent = await transaction(deps.db, async (tx) => {
      await queries.lockUser(tx, account.id);
      if (await tooManyLinks(tx, account.id, now)) return null;
      const newest = await queries.newestOpenLink(tx, account.id, now);
      const pending =
        newest?.pendingFullName && newest.pendingUsername && newest.pendingPasswordHash
          ? {
              pendingFullName: newest.pendingFullName,
              pendingUsername: newest.pendingUsername,
              pendingPasswordHash: newest.pendingPasswordHash,
            }
          : undefined;
      await queries.expireOpenLinks(tx, account.id, now);
      const token = await issueLink(tx, account.id, deps.linkHours, now, pending);
      return { token, fullName: pending?.pendingFullName ?? account.fullName };
    });
    // Not awaited: the answer takes as long whether or not a link went out.
    if (sent) {
      const to = { ...account, fullName: sent.fullName, locale: localeOf(account.locale) };
      void sendLink(deps, to, sent.token, returnTo);
    }
    return { email };
  },

  /**
   * The link from the e-mail: verifies its user once, unless it expired or was replaced, and answers who
   * to sign in. A link that carries a registration hands the account to it (decision 023).
   */
  async verify(deps: Pick<EmailVerificationDeps, 'db'>, token: string, clock?: Date) {
    return transaction(deps.db, async (tx) => {
      // The account first, then the link: the order of every event that ends tokens (decision 036).
      const owner = await queries.findLinkOwner(tx, hashToken(token));
      if (owner) await queries.lockUser(tx, owner);
      const link = await queries.lockLink(tx, hashToken(token));
      // Read once the account is ours: a link ended while we waited expired before this moment.
      const now = clock ?? new Date();
      if (!link) throw new AppError(400, 'VERIFICATION_LINK_INVALID', invalidVerificationLink);
      if (link.usedAt) {
        throw conflict(
          msg`This verification link has already been used. Your e-mail address is verified.`,
          'VERIFICATION_LINK_USED',
        );
      }
      // An older link still in the inbox after a newer one did the job.
      if (link.isVerified) throw conflict(ALREADY_VERIFIED, 'EMAIL_ALREADY_VERIFIED');
      if (link.expiresAt <= now) {
        throw new AppError(
          410,
          'VERIFICATION_LINK_EXPIRED',
          msg`This verification link has expired or was replaced by a newer one. Please request a new link.`,
        );
      }
      await queries.markLinkUsed(tx, hashToken(token), now);
      if (link.pendingFullName && link.pendingUsername && link.pendingPasswordHash) {
        const usernameFree = !(await queries.usernameTakenByOther(tx, link.pendingUsername, link.userId));
        await queries.applyRegistration(tx, link.userId, {
          fullName: link.pendingFullName,
          ...(usernameFree ? { username: link.pendingUsername } : {}),
          passwordHash: link.pendingPasswordHash,
        });
        // A new password: what was asked for under the old one ends (decision 036).
        await endTokensOfOldPassword(tx, link.userId, now);
      }
      await onEmailVerified(tx, link.userId);
      return { email: link.email, userId: link.userId };
    });
  },
};
