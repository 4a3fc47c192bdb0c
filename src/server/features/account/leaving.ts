import { msg } from '@lingui/core/macro';
import { SUPPORT_EMAIL_ADDRESS } from '#shared/constants.ts';
import { formatMoney } from '#shared/format.ts';
import { DEFAULT_LOCALE, isLocale } from '#shared/i18n.ts';
import {
  ACCOUNT_IN_USE_ACTIVE,
  ACCOUNT_IN_USE_MONEY,
  ACCOUNT_MONEY_ON_ITS_WAY,
  accountOwedToYou,
  accountYouOwe,
  type DataExport,
  type DeleteAccountInput,
} from '#shared/schemas/leaving.ts';
import type { Db } from '../../db/client.ts';
import { afterCommit, transaction } from '../../db/transaction.ts';
import { AppError, conflict } from '../../errors.ts';
import { type JobQueue, QUEUES } from '../../jobs/queue.ts';
import { addressKey, CHAT_SEND_PREFIX, PASSWORD_RESET_ACCOUNT_PREFIX } from '../../rate-limited.ts';
import * as auth from '../auth/service.ts';
import { ledgerService } from '../ledger/service.ts';
import { notificationService } from '../notifications/service.ts';
import { deleteAvatar, deletePhotos } from '../uploads/service.ts';
import { accountDeletedNotice } from './account-emails.ts';
import * as queries from './leaving-queries.ts';
import { type AccountDeps, sendAccountEmail, WRONG_PASSWORD } from './service.ts';

// Leaving CampusLoop (decision 023): "Download my data" and "Delete my account".

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
/** A row as JSON would carry it, times as ISO strings. */
const plain = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [key, iso(value)]));

/**
 * Money owed to or by the person, as the journal says (decision 058): a charge or refund of theirs
 * still on its way or their money still held, earnings not yet paid out to them, or money they owe.
 */
async function refuseWhileMoneyIsOwed(tx: Db, userId: string): Promise<void> {
  const money = await ledgerService.moneyOfPerson(tx, userId);
  const owed = Math.min(money.heldCents, 0) + Math.min(money.payableCents, 0);
  if (owed < 0) throw conflict(accountYouOwe(formatMoney(-owed)), 'ACCOUNT_IN_USE');
  if (money.moving || money.heldCents > 0) throw conflict(ACCOUNT_MONEY_ON_ITS_WAY, 'ACCOUNT_IN_USE');
  if (money.payableCents > 0)
    throw conflict(accountOwedToYou(formatMoney(money.payableCents)), 'ACCOUNT_IN_USE');
}

export const leavingService = {
  /**
   * Everything CampusLoop keeps about the person: profile, items, reservations, messages, reviews written,
   * billing, and their handover photos and notes.
   */
  async exportData(db: Db, userId: string, now = new Date()): Promise<DataExport> {
    const profile = await queries.findProfile(db, userId);
    if (!profile) throw new AppError(401, 'UNAUTHORIZED', msg`Please sign in to continue.`);
    const [items, reservations, messages, reviewsWritten, billing, handovers] = await Promise.all([
      queries.listItems(db, userId),
      queries.listReservations(db, userId),
      queries.listMessages(db, userId),
      queries.listReviewsWritten(db, userId),
      queries.listBilling(db, userId),
      queries.listHandovers(db, userId),
    ]);
    const { deletedAt: _deletedAt, ...person } = profile;
    return {
      exportedAt: now.toISOString(),
      profile: { ...person, createdAt: person.createdAt.toISOString() },
      items: items.map(plain),
      reservations: reservations.map(plain),
      messages: messages.map(plain),
      reviewsWritten: reviewsWritten.map(plain),
      billing: billing.map(plain),
      handovers: handovers.map(plain),
    };
  },

  /**
   * Deletes the account, unless a reservation is approved or in progress, money is held, or money is
   * owed to or by them (409, with the reason). Requests nothing stands behind are cancelled, listings removed, the person's name, address,
   * username, photo and password erased; messages and reviews stay under "Former student", billing rows
   * stay without the name. Every session ends (their sockets close on commit); a last e-mail confirms it.
   */
  async deleteAccount(
    deps: AccountDeps & { jobs: JobQueue },
    userId: string,
    input: DeleteAccountInput,
    now = new Date(),
  ) {
    if (!(await auth.checkPassword(deps.db, userId, input.currentPassword))) {
      throw new AppError(400, 'WRONG_PASSWORD', WRONG_PASSWORD, [
        { path: 'currentPassword', message: WRONG_PASSWORD },
      ]);
    }
    const gone = await transaction(deps.db, async (tx) => {
      const person = await queries.lockUser(tx, userId);
      if (!person || person.deletedAt)
        throw new AppError(401, 'UNAUTHORIZED', msg`Please sign in to continue.`);
      if (await queries.hasActiveReservation(tx, userId))
        throw conflict(ACCOUNT_IN_USE_ACTIVE, 'ACCOUNT_IN_USE');
      if (await queries.hasMoneyHeld(tx, userId)) throw conflict(ACCOUNT_IN_USE_MONEY, 'ACCOUNT_IN_USE');
      await refuseWhileMoneyIsOwed(tx, userId);
      const profile = await queries.findProfile(tx, userId);
      for (const cancelled of await queries.cancelPendingReservations(tx, userId)) {
        const borrowerLeft = cancelled.borrowerId === userId;
        await notificationService.notify(tx, {
          userId: borrowerLeft ? cancelled.providerId : cancelled.borrowerId,
          type: 'reservation_cancelled',
          text: () => ({
            title: msg`Reservation cancelled`,
            message: borrowerLeft
              ? msg`A request for your item was cancelled: the borrower left CampusLoop.`
              : msg`Your request was cancelled: the lender left CampusLoop.`,
          }),
          relatedReservationId: cancelled.id,
          relatedItemId: cancelled.itemId,
        });
      }
      await queries.removeItems(tx, userId, now);
      await queries.forgetName(tx, userId, person.fullName);
      await queries.deletePrivateRows(tx, userId);
      await queries.forgetRateLimits(tx, [
        `${PASSWORD_RESET_ACCOUNT_PREFIX}:${addressKey(person.email)}`,
        `${CHAT_SEND_PREFIX}:${userId}`,
      ]);
      const handoverPhotos = await queries.deleteHandovers(tx, userId);
      await queries.eraseUser(tx, userId, now);
      // Their cards and customer at the payment provider, after the commit and retried until the provider
      // answers (decision 037): the account is gone at once even while the provider is down.
      if (person.customerId) {
        await deps.jobs.send(tx, QUEUES.forgetCustomers, { customerId: person.customerId });
        afterCommit(tx, () => deps.jobs.kick(QUEUES.forgetCustomers));
      }
      return {
        email: person.email,
        locale: isLocale(person.locale) ? person.locale : DEFAULT_LOCALE,
        fullName: person.fullName,
        photo: profile?.profileImage ?? null,
        handoverPhotos,
        customerId: person.customerId,
      };
    });
    // After the commit: the account is gone even if a photo or the e-mail fails (both are logged).
    if (gone.photo) await deleteAvatar(deps.storage, gone.photo);
    await deletePhotos(deps.storage, gone.handoverPhotos);
    await sendAccountEmail(
      deps,
      accountDeletedNotice({
        to: gone.email,
        locale: gone.locale,
        fullName: gone.fullName,
        supportEmail: SUPPORT_EMAIL_ADDRESS,
      }),
      'account deleted',
      userId,
    );
  },
};
