import { createHash, randomBytes } from 'node:crypto';
import { msg } from '@lingui/core/macro';
import { SUPPORT_EMAIL_ADDRESS } from '#shared/constants.ts';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#shared/i18n.ts';
import {
  type AccountResponse,
  type ChangeEmailInput,
  type ChangePasswordInput,
  EMAIL_CHANGE_LINK_HOURS,
  type EmailKind,
  invalidEmailChangeLink,
  type PreferenceInput,
  type ProfileInput,
} from '#shared/schemas/account.ts';
import type { SessionUser } from '#shared/schemas/auth.ts';
import type { Mailer, MailMessage } from '../../adapters/mail/mailer.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { endTokensOfOldAddress } from '../../db/token-lifetimes.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, badRequest, conflict } from '../../errors.ts';
import * as auth from '../auth/service.ts';
import { emailVerificationService } from '../email-verification/service.ts';
import { preferenceService } from '../notification-preferences/service.ts';
import { universityService } from '../universities/service.ts';
import {
  deleteAvatar,
  type ImageQueue,
  pixelsOf,
  prepareAvatar,
  type ReceivedImage,
  storeAvatar,
} from '../uploads/service.ts';
import {
  emailAlreadyUsedEmail,
  emailChangedNotice,
  emailChangeLinkEmail,
  passwordChangedNotice,
} from './account-emails.ts';
import * as queries from './queries.ts';

// Account settings: name, username, photo, password, e-mail address, e-mail choices. Every
// change is the signed-in person's own; the sensitive ones (password, e-mail) ask for the current password.
// Sessions are auth's: the routes call it directly.

export interface AccountDeps {
  db: Db;
  config: Pick<Config, 'adminEmails' | 'appUrl'>;
  mailer: Mailer;
  storage: Storage;
  imageQueue: ImageQueue;
  log: { info: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void };
}

const HOUR_MS = 60 * 60 * 1000;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const WRONG_PASSWORD = msg`Your current password is not correct.`;
export const USERNAME_TAKEN = msg`That username is already taken. Please choose another.`;
export const SAME_EMAIL = msg`That is already your e-mail address.`;
export const EMAIL_CHANGE_USED = msg`This e-mail change link has already been used. Your account uses the new address.`;
export const EMAIL_CHANGE_EXPIRED = msg`This e-mail change link has expired or was replaced by a newer one. Please ask for a new one in Account settings.`;
export const EMAIL_NOW_TAKEN = msg`Another account started using this address after you asked, so your address has not changed.`;

function wrongPassword() {
  return new AppError(400, 'WRONG_PASSWORD', WRONG_PASSWORD, [
    { path: 'currentPassword', message: WRONG_PASSWORD },
  ]);
}

/** Postgres unique violation (two requests racing past the check), with the index it hit. */
function uniqueViolation(error: unknown): string | undefined {
  const e =
    (error as { cause?: { code?: string; constraint?: string } }).cause ??
    (error as { code?: string; constraint?: string });
  return e && e.code === '23505' ? (e.constraint ?? 'unique') : undefined;
}

async function sessionUserOf(deps: Pick<AccountDeps, 'db' | 'config'>, userId: string): Promise<SessionUser> {
  const row = await queries.findUser(deps.db, userId);
  if (!row) throw new AppError(401, 'UNAUTHORIZED', msg`Please sign in to continue.`);
  return auth.toSessionUser({ ...auth.toPublicUser(row), locale: row.locale }, deps.config);
}

/**
 * An address of the person's university: its domain is the campus's or one under it (cs.stanford.edu),
 * the directory places it there, or it is the domain of the address they have now (decision 022).
 */
function isAddressOfCampus(email: string, campus: string, currentEmail: string): boolean {
  const domain = email.split('@')[1] ?? '';
  if (domain === campus || domain.endsWith(`.${campus}`)) return true;
  if (domain === currentEmail.split('@')[1]) return true;
  return universityService.detect(email).candidates.some((c) => c.domain === campus);
}

/** Sends one account e-mail; answers whether it went (a failure is logged with what it was). */
export async function sendAccountEmail(
  deps: Pick<AccountDeps, 'mailer' | 'log'>,
  message: MailMessage,
  what: string,
  userId: string,
) {
  try {
    const sent = await deps.mailer.send(message);
    deps.log.info(
      { userId, messageId: sent.messageId, ...(sent.file ? { file: sent.file } : {}) },
      `${what} e-mail ${deps.mailer.kind === 'outbox' ? 'written to the outbox' : 'sent'}`,
    );
    return true;
  } catch (error) {
    deps.log.error({ err: error, userId }, `${what} e-mail could not be sent`);
    return false;
  }
}

const mailUnavailable = () =>
  new AppError(
    503,
    'MAIL_UNAVAILABLE',
    msg`We could not send the e-mail right now. Please try again in a few minutes.`,
  );

export const accountService = {
  /** What the settings page shows about the person. */
  async overview(
    deps: Pick<AccountDeps, 'db' | 'config'>,
    userId: string,
    /** The language the answer's words (the e-mail kinds) are written in: the request's. */
    locale: Locale,
    now = new Date(),
  ): Promise<AccountResponse> {
    const [user, pendingEmail, preferences] = await Promise.all([
      sessionUserOf(deps, userId),
      queries.pendingEmail(deps.db, userId, now),
      preferenceService.list(deps.db, userId, locale),
    ]);
    return { user, pendingEmail, preferences };
  },

  /**
   * The language the person reads CampusLoop in, for their e-mails and notifications and
   * their next device. Answers the session user as it now is.
   */
  async setLanguage(deps: Pick<AccountDeps, 'db' | 'config'>, userId: string, locale: Locale) {
    await queries.setLocale(deps.db, userId, locale);
    return sessionUserOf(deps, userId);
  },

  /** Full name and username; a username another account uses (any case) is a 409. */
  async updateProfile(deps: Pick<AccountDeps, 'db' | 'config'>, userId: string, input: ProfileInput) {
    const values = { fullName: input.fullName, username: input.username };
    if (await queries.usernameTakenByOther(deps.db, values.username, userId)) {
      throw conflict(USERNAME_TAKEN, 'USERNAME_TAKEN');
    }
    try {
      await queries.updateProfile(deps.db, userId, values);
    } catch (error) {
      if (uniqueViolation(error)?.includes('username')) throw conflict(USERNAME_TAKEN, 'USERNAME_TAKEN');
      throw error;
    }
    return sessionUserOf(deps, userId);
  },

  /**
   * A new profile photo through the upload pipeline (checked, oriented, stripped, cropped square, with a
   * thumbnail); the one it replaces is deleted after the commit.
   */
  async setPhoto(deps: AccountDeps, userId: string, image: ReceivedImage) {
    const photo = await deps.imageQueue.run(() => prepareAvatar(image), await pixelsOf([image]));
    let url: string;
    try {
      url = await storeAvatar(deps.storage, photo);
    } catch (error) {
      deps.log.error({ err: error, storage: deps.storage.kind }, 'storing a profile photo failed');
      throw new AppError(
        503,
        'STORAGE_UNAVAILABLE',
        msg`Photo storage is not available right now. Please try again later.`,
      );
    }
    let replaced: Awaited<ReturnType<typeof queries.replaceProfileImage>>;
    try {
      replaced = await transaction(deps.db, (tx) => queries.replaceProfileImage(tx, userId, url));
    } catch (error) {
      await deleteAvatar(deps.storage, url);
      throw error;
    }
    if (replaced?.previous) await deleteAvatar(deps.storage, replaced.previous);
    return sessionUserOf(deps, userId);
  },

  /** Back to the initial on a coloured disc. */
  async removePhoto(deps: AccountDeps, userId: string) {
    const replaced = await transaction(deps.db, (tx) => queries.replaceProfileImage(tx, userId, null));
    if (replaced?.previous) await deleteAvatar(deps.storage, replaced.previous);
    return sessionUserOf(deps, userId);
  },

  /**
   * The current password, then the new one: every other session of the person ends (and its sockets
   * close), this browser's stays. A note goes to their address unless they turned it off.
   */
  async changePassword(
    deps: AccountDeps,
    user: { id: string; email: string; fullName: string; locale: Locale },
    sessionToken: string,
    input: ChangePasswordInput,
    device: string,
  ) {
    if (!(await auth.checkPassword(deps.db, user.id, input.currentPassword))) throw wrongPassword();
    if (input.currentPassword === input.newPassword) {
      const message = msg`Choose a password different from your current one.`;
      throw badRequest(message, [{ path: 'newPassword', message }]);
    }
    await transaction(deps.db, (tx) => auth.changePassword(tx, user.id, input.newPassword, sessionToken));
    if (await accountService.wantsEmail(deps.db, user.id, 'account_activity')) {
      await sendAccountEmail(
        deps,
        passwordChangedNotice({
          to: user.email,
          locale: user.locale,
          fullName: user.fullName,
          device,
          resetLink: `${deps.config.appUrl}/forgot-password`,
        }),
        'password changed',
        user.id,
      );
    }
  },

  /**
   * A link to the new address, which replaces the old one only once the link is opened. The answer is
   * the same whether or not another account uses the address; that account's holder is told instead
   * (decision 022), and no link exists for them to open.
   */
  async requestEmailChange(
    deps: AccountDeps,
    user: {
      id: string;
      email: string;
      fullName: string;
      campus: string;
      campusName: string;
      locale: Locale;
    },
    input: ChangeEmailInput & { newEmail: string },
    now = new Date(),
  ) {
    if (!(await auth.checkPassword(deps.db, user.id, input.currentPassword))) throw wrongPassword();
    const newEmail = input.newEmail.toLowerCase();
    if (newEmail === user.email.toLowerCase()) {
      throw badRequest(SAME_EMAIL, [{ path: 'newEmail', message: SAME_EMAIL }]);
    }
    if (!isAddressOfCampus(newEmail, user.campus, user.email)) {
      const campusName = user.campusName;
      const message = msg`Use an address of ${campusName}: your account belongs to it.`;
      throw new AppError(400, 'EMAIL_OUTSIDE_UNIVERSITY', message, [{ path: 'newEmail', message }]);
    }
    const taken = await queries.emailTaken(deps.db, newEmail);
    const token = randomBytes(32).toString('base64url');
    await transaction(deps.db, async (tx) => {
      await queries.lockUser(tx, user.id);
      await queries.expireOpenEmailChanges(tx, user.id, now);
      await queries.insertEmailChange(tx, {
        tokenHash: hashToken(token),
        userId: user.id,
        newEmail,
        expiresAt: new Date(now.getTime() + EMAIL_CHANGE_LINK_HOURS * HOUR_MS),
      });
    });
    const message = taken
      ? emailAlreadyUsedEmail({ to: newEmail, locale: user.locale })
      : emailChangeLinkEmail({
          to: newEmail,
          locale: user.locale,
          fullName: user.fullName,
          link: `${deps.config.appUrl}/confirm-email?token=${token}`,
          hours: EMAIL_CHANGE_LINK_HOURS,
        });
    if (!(await sendAccountEmail(deps, message, 'e-mail change', user.id))) throw mailUnavailable();
    // The answer's message (emailChangeSent) is the route's, in the request's language.
    return { success: true as const, pendingEmail: newEmail };
  },

  /** Forgets an open change: its link stops working. */
  async cancelEmailChange(db: Db, userId: string, now = new Date()) {
    await queries.expireOpenEmailChanges(db, userId, now);
  },

  /**
   * The link from the new address: used once, in time, while no other account has taken the address.
   * The address replaces the old one and counts as verified; the old address is told (always). Reset and
   * verification links mailed to the old address stop working.
   */
  async confirmEmailChange(deps: AccountDeps, token: string, clock?: Date) {
    const tokenHash = hashToken(token);
    let changed: { userId: string; oldEmail: string; newEmail: string; fullName: string; locale: Locale };
    try {
      changed = await transaction(deps.db, async (tx) => {
        // The account first, then the link: the order of every event that ends tokens (decision 036).
        const owner = await queries.findEmailChangeOwner(tx, tokenHash);
        if (owner) await queries.lockUser(tx, owner);
        const link = await queries.lockEmailChange(tx, tokenHash);
        // Read once the account is ours: a link ended while we waited expired before this moment.
        const now = clock ?? new Date();
        if (!link) throw new AppError(400, 'EMAIL_CHANGE_LINK_INVALID', invalidEmailChangeLink);
        if (link.usedAt) throw conflict(EMAIL_CHANGE_USED, 'EMAIL_CHANGE_LINK_USED');
        if (link.expiresAt <= now) throw new AppError(410, 'EMAIL_CHANGE_LINK_EXPIRED', EMAIL_CHANGE_EXPIRED);
        if (await queries.emailTaken(tx, link.newEmail)) throw conflict(EMAIL_NOW_TAKEN, 'EMAIL_TAKEN');
        await queries.markEmailChangeUsed(tx, tokenHash, now);
        await queries.updateEmail(tx, link.userId, link.newEmail);
        // Links mailed to the old address die with it (decision 036), and so do other pending changes.
        await endTokensOfOldAddress(tx, link.userId, now);
        await emailVerificationService.markVerified(tx, link.userId);
        return {
          userId: link.userId,
          oldEmail: link.oldEmail,
          newEmail: link.newEmail,
          fullName: link.fullName,
          locale: isLocale(link.locale) ? link.locale : DEFAULT_LOCALE,
        };
      });
    } catch (error) {
      if (uniqueViolation(error)?.includes('email')) throw conflict(EMAIL_NOW_TAKEN, 'EMAIL_TAKEN');
      throw error;
    }
    // After the commit: the change stands even if this mail fails (it is logged).
    await sendAccountEmail(
      deps,
      emailChangedNotice({
        to: changed.oldEmail,
        locale: changed.locale,
        fullName: changed.fullName,
        newEmail: changed.newEmail,
        supportEmail: SUPPORT_EMAIL_ADDRESS,
      }),
      'e-mail changed notice',
      changed.userId,
    );
    return { success: true as const, email: changed.newEmail };
  },

  /** Changes one choice; answers them all, in `locale` (the request's). */
  async setPreference(db: Db, userId: string, input: PreferenceInput & { kind: EmailKind }, locale: Locale) {
    await preferenceService.set(db, userId, input);
    return preferenceService.list(db, userId, locale);
  },

  /** Whether the person wants e-mails of this kind: ask before sending one (required kinds always go). */
  wantsEmail: (db: Db, userId: string, kind: EmailKind) => preferenceService.wantsEmail(db, userId, kind),
};
