import { createHash, randomBytes } from 'node:crypto';
import { msg } from '@lingui/core/macro';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#shared/i18n.ts';
import {
  invalidResetLink,
  PASSWORD_RESET_LINK_MINUTES,
  type PasswordResetRequestResponse,
  passwordResetSent,
} from '#shared/schemas/password-reset.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, conflict } from '../../errors.ts';
import { translate } from '../../i18n.ts';
import { changePassword } from '../auth/service.ts';
import * as queries from './queries.ts';
import { passwordResetEmail } from './reset-email.ts';
import type { PasswordResetLimits } from './reset-limits.ts';

// Password reset by e-mail link. A link is 32 random bytes of which only the SHA-256 is
// stored (as the verification link's); it works once, expires after an hour, and a newer request
// expires the older open ones. The request answers the same words and status whether or not an account
// uses the address, before the address is even looked up (the lookup, the link and the mail follow the
// answer), so neither answer nor timing tells.
// Setting the password ends every session of the account (their sockets close on commit).

export interface PasswordResetDeps {
  db: Db;
  mailer: Mailer;
  /** The app's public address; links are `${appUrl}/reset-password?token=…`. */
  appUrl: string;
  limits: PasswordResetLimits;
  log: { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
}

export function passwordResetDeps(
  db: Db,
  config: Config,
  mailer: Mailer,
  limits: PasswordResetLimits,
  log: PasswordResetDeps['log'],
): PasswordResetDeps {
  return { db, mailer, appUrl: config.appUrl, limits, log };
}

const MINUTE_MS = 60 * 1000;

export const RESET_LINK_USED = msg`This password reset link has already been used. If you need to change your password again, request a new link.`;
export const RESET_LINK_EXPIRED = msg`This password reset link has expired or was replaced by a newer one. Please request a new link.`;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Mails the link, in the account's language; a failure is logged, not thrown (the answer went out
 * already, and told nothing).
 */
async function sendLink(
  deps: PasswordResetDeps,
  user: { id: string; email: string; fullName: string; locale: string },
  token: string,
): Promise<void> {
  const link = `${deps.appUrl}/reset-password?token=${token}`;
  try {
    const sent = await deps.mailer.send(
      passwordResetEmail({
        to: user.email,
        locale: isLocale(user.locale) ? user.locale : DEFAULT_LOCALE,
        fullName: user.fullName,
        link,
        minutes: PASSWORD_RESET_LINK_MINUTES,
      }),
    );
    deps.log.info(
      { userId: user.id, messageId: sent.messageId, ...(sent.file ? { file: sent.file } : {}) },
      `password reset e-mail ${deps.mailer.kind === 'outbox' ? 'written to the outbox' : 'sent'}`,
    );
  } catch (error) {
    deps.log.error({ err: error, userId: user.id }, 'password reset e-mail could not be sent');
  }
}

/** The account's new link, replacing its open ones, and its e-mail; nothing for an unknown address. */
async function issueAndSend(deps: PasswordResetDeps, email: string, now = new Date()) {
  const user = await queries.findUserByEmail(deps.db, email);
  if (!user) return;
  const token = randomBytes(32).toString('base64url');
  await transaction(deps.db, async (tx) => {
    await queries.lockUser(tx, user.id);
    await queries.expireOpenLinks(tx, user.id, now);
    await queries.insertLink(tx, {
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_LINK_MINUTES * MINUTE_MS),
    });
  });
  await sendLink(deps, user, token);
}

export const passwordResetService = {
  /**
   * Counts the request against the limits and answers it (in `locale`, the request's): the same words
   * whether or not an account uses `email`. Nothing about the address is looked up before the answer:
   * `followUp` (for the caller to run once the answer is sent; it never rejects) finds the account, if
   * any, issues its link and mails it in the account's language. So neither the answer nor the time it
   * takes depends on whether the account exists.
   */
  async request(
    deps: PasswordResetDeps,
    email: string,
    ip: string,
    locale: Locale = DEFAULT_LOCALE,
  ): Promise<{ answer: PasswordResetRequestResponse; followUp: () => Promise<void> }> {
    await deps.limits.take(email, ip);
    const answer = { success: true as const, email, message: translate(locale, passwordResetSent(email)) };
    const followUp = async () => {
      try {
        await issueAndSend(deps, email);
      } catch (error) {
        deps.log.error({ err: error }, 'password reset link could not be issued');
      }
    };
    return { answer, followUp };
  },

  /**
   * The link from the e-mail and a new password: in one transaction the link is used, the person's other
   * open links expire, the password changes and every session of theirs ends. Answers whether the person
   * is suspended (then the caller must not sign them in).
   */
  async confirm(
    deps: Pick<PasswordResetDeps, 'db'>,
    input: { token: string; password: string },
    clock?: Date,
  ): Promise<{ userId: string; email: string; suspended: boolean }> {
    const tokenHash = hashToken(input.token);
    return transaction(deps.db, async (tx) => {
      // The account first, then its link: every event that ends tokens takes them in this order
      // (decision 036), so a reset and an e-mail change confirmed at once wait for each other, never deadlock.
      const owner = await queries.findLinkOwner(tx, tokenHash);
      if (owner) await queries.lockUser(tx, owner);
      const link = await queries.lockLink(tx, tokenHash);
      // The clock is read once the account is ours: a link that an event ended while we waited for it
      // expired before this moment, not after.
      const now = clock ?? new Date();
      if (!link) throw new AppError(400, 'PASSWORD_RESET_LINK_INVALID', invalidResetLink);
      if (link.usedAt) throw conflict(RESET_LINK_USED, 'PASSWORD_RESET_LINK_USED');
      if (link.expiresAt <= now) throw new AppError(410, 'PASSWORD_RESET_LINK_EXPIRED', RESET_LINK_EXPIRED);
      await queries.markLinkUsed(tx, tokenHash, now);
      // The other open links, and any pending e-mail change, end with the old password (decision 036).
      await changePassword(tx, link.userId, input.password);
      return { userId: link.userId, email: link.email, suspended: link.suspendedAt !== null };
    });
  },
};
