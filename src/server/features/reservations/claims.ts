import { msg } from '@lingui/core/macro';
import { CLAIM_WINDOW_HOURS, claimTimeProblem, confirmBy } from '#shared/booking/deposit-claims.ts';
import { toCents } from '#shared/booking/pricing.ts';
import type { DisputeChat } from '#shared/schemas/handovers.ts';
import type { OwnCases } from '#shared/schemas/moderation.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { AppError, badRequest, conflict, notFound } from '../../errors.ts';
import { conversationService } from '../conversations/service.ts';
import { moderationService } from '../moderation/service.ts';
import { notificationService } from '../notifications/service.ts';
import {
  claimTextForBorrower,
  claimTextForLender,
  disputeTextForBorrower,
  disputeTextForLender,
} from './deposit-notices.ts';
import { nowOf, type ReservationDeps, requireOwnPhotos } from './deps.ts';
import { changeStatus } from './locking.ts';
import { dollars } from './notices.ts';
import * as queries from './queries.ts';
import { settleDeposit } from './settle-deposit.ts';
import { attachedTo, loadForViewer, toReservation } from './views.ts';

// A deposit claim: the lender reports a problem (within the window after the return, or once the borrow
// is overdue), the borrower accepts or disputes it, a moderator decides a disputed one; unanswered
// returns give the deposit back when the window closes.

/**
 * "Report a problem": within the window after the borrower's return, or once the borrow has been
 * overdue 24 hours. At most the deposit; the borrower then accepts or disputes.
 */
export async function claim(
  deps: ReservationDeps,
  userId: string,
  id: string,
  input: { description: string; amount: string; photos?: string[] },
): Promise<Reservation> {
  const photos = input.photos ?? [];
  requireOwnPhotos(deps, photos);
  await changeStatus(deps, userId, id, 'claim', async (tx, row, view) => {
    if (!row.stripePaymentIntentId || row.depositCents <= 0) {
      throw badRequest(msg`This borrow has no deposit to claim from.`);
    }
    const cents = toCents(input.amount) ?? 0;
    if (cents <= 0 || cents > row.depositCents) {
      const deposit = dollars(row.depositCents);
      const message = msg`The amount claimed must be between $0.01 and the ${deposit} deposit.`;
      throw badRequest(message, [{ path: 'amount', message }]);
    }
    const late = claimTimeProblem(row, deps.timeZone, nowOf(deps));
    if (late) throw conflict(late, 'CLAIM_WINDOW');
    await queries.setStatus(tx, id, 'claimed', {
      claimCents: cents,
      claimDescription: input.description,
      claimPhotos: photos,
      claimedAt: nowOf(deps),
    });
    await notificationService.actedOn(tx, userId, id, ['return_confirm', 'overdue']);
    const lender = view.provider.fullName;
    const borrower = view.borrower.fullName;
    const item = view.item.title;
    const problem = input.description;
    await notificationService.notify(tx, {
      userId: row.borrowerId,
      type: 'deposit_claim',
      text: () => claimTextForBorrower({ lender, item }, problem, cents, row.depositCents),
      relatedReservationId: id,
      relatedItemId: row.itemId,
    });
    await notificationService.notify(tx, {
      userId: row.providerId,
      type: 'deposit_claim',
      text: () => claimTextForLender({ borrower, item }, cents),
      relatedReservationId: id,
      relatedItemId: row.itemId,
    });
  });
  return loadForViewer(deps, id, userId);
}

/** The borrower accepts the claim: the lender keeps it, the rest of the deposit comes back. */
export async function acceptClaim(deps: ReservationDeps, userId: string, id: string): Promise<Reservation> {
  await changeStatus(deps, userId, id, 'acceptClaim', async (tx, row, view) => {
    await notificationService.actedOn(tx, userId, id, ['deposit_claim']);
    await settleDeposit(tx, deps, row, view, { keptCents: row.claimCents ?? 0, how: 'accepted' });
  });
  return loadForViewer(deps, id, userId);
}

/** The borrower disputes the claim: it goes to the moderators' queue with both sides. */
export async function dispute(
  deps: ReservationDeps,
  userId: string,
  id: string,
  input: { note: string; photos?: string[] },
): Promise<Reservation> {
  const { note } = input;
  const photos = input.photos ?? [];
  requireOwnPhotos(deps, photos);
  await changeStatus(deps, userId, id, 'dispute', async (tx, row, view) => {
    await queries.setStatus(tx, id, 'disputed', {
      disputeNote: note,
      disputePhotos: photos,
      disputedAt: nowOf(deps),
    });
    await notificationService.actedOn(tx, userId, id, ['deposit_claim']);
    const borrower = view.borrower.fullName;
    const item = view.item.title;
    await notificationService.notify(tx, {
      userId: row.providerId,
      type: 'deposit_claim',
      text: () => disputeTextForLender({ borrower, item }, note, row.claimCents ?? 0),
      relatedReservationId: id,
      relatedItemId: row.itemId,
    });
    await notificationService.notify(tx, {
      userId: row.borrowerId,
      type: 'deposit_claim',
      text: () => disputeTextForBorrower(item, row.claimCents ?? 0),
      relatedReservationId: id,
      relatedItemId: row.itemId,
    });
  });
  return loadForViewer(deps, id, userId);
}

/**
 * Disputed claims with both sides, oldest first (the moderators' queue), but for those the moderator
 * lent or borrowed in: the other moderators decide those.
 */
export async function disputedClaims(
  deps: ReservationDeps,
  moderatorId: string,
): Promise<{ claims: Reservation[]; ownCases: OwnCases }> {
  const disputed = await queries.listDisputed(deps.db);
  const isParty = (row: queries.ReservationRow) =>
    row.borrowerId === moderatorId || row.providerId === moderatorId;
  const rows = disputed.filter((row) => !isParty(row));
  const attached = await attachedTo(deps, rows);
  const withheld = disputed.length - rows.length;
  return {
    claims: rows.map((row) => toReservation(row, moderatorId, deps, attached)),
    ownCases: await moderationService.ownCases(deps.db, deps.adminEmails ?? [], moderatorId, withheld),
  };
}

/**
 * The chat of a disputed reservation's two people, read-only, for the moderator deciding it (decision
 * 033). Only while disputed: a moderator reads no one's chat otherwise (404, as for a missing one).
 */
export async function disputeChat(
  deps: ReservationDeps,
  moderatorId: string,
  id: string,
): Promise<DisputeChat> {
  const row = await queries.findReservation(deps.db, id);
  if (row?.status !== 'disputed') throw notFound(msg`Disputed claim not found.`);
  moderationService.refuseOwnCase(moderatorId, [row.borrowerId, row.providerId]);
  const { messages, hasMore } = await conversationService.messagesBetween(deps.db, {
    itemId: row.itemId,
    buyerId: row.borrowerId,
    sellerId: row.providerId,
  });
  return {
    messages: messages.map((m) => ({
      id: m.id,
      author: m.senderId === row.borrowerId ? ('borrower' as const) : ('provider' as const),
      content: m.content,
      createdAt: m.createdAt,
    })),
    hasMore,
  };
}

/** A moderator's decision: the lender keeps `amountAwarded` (0 to the claim), the rest comes back. */
export async function resolveClaim(
  deps: ReservationDeps,
  moderatorId: string,
  id: string,
  input: { amountAwarded: string; note?: string },
): Promise<Reservation> {
  await changeStatus(
    deps,
    moderatorId,
    id,
    'resolve',
    async (tx, row, view) => {
      // A moderator who lent or borrowed it is a party: no one decides their own case.
      moderationService.refuseOwnCase(moderatorId, [row.borrowerId, row.providerId]);
      const cents = toCents(input.amountAwarded) ?? 0;
      const claimed = row.claimCents ?? 0;
      if (cents < 0 || cents > claimed) {
        const amount = dollars(claimed);
        const message = msg`The amount awarded must be between $0.00 and the ${amount} claimed.`;
        throw badRequest(message, [{ path: 'amountAwarded', message }]);
      }
      await settleDeposit(tx, deps, row, view, {
        keptCents: cents,
        how: 'decided',
        moderatorId,
        note: input.note?.trim() || null,
      });
    },
    'moderator',
  );
  return loadForViewer(deps, id, moderatorId);
}

/**
 * The window closed unanswered: each returned reservation whose lender did not answer within 48 hours
 * is completed and its deposit refunded, exactly as a confirm would. Under the same locks as a confirm,
 * so a confirm in the same instant wins or loses whole: one refund.
 */
export async function releaseUnansweredReturns(deps: ReservationDeps): Promise<number> {
  const now = nowOf(deps);
  const due = await queries.findUnansweredReturns(
    deps.db,
    new Date(now.getTime() - CLAIM_WINDOW_HOURS * 3600_000 + 1),
  );
  let count = 0;
  for (const { id } of due) {
    try {
      await changeStatus(deps, null, id, 'releaseDeposit', async (tx, row, view) => {
        if (!row.returnedAt || confirmBy(row.returnedAt).getTime() > now.getTime()) {
          return conflict(msg`The window is still open.`, 'CLAIM_WINDOW');
        }
        await settleDeposit(tx, deps, row, view, { keptCents: 0, how: 'window' });
      });
      count++;
    } catch (error) {
      // Confirmed or claimed meanwhile (409): nothing left to release.
      if (!(error instanceof AppError)) throw error;
    }
  }
  return count;
}
