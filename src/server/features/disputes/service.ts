import { msg } from '@lingui/core/macro';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import { CLOSED_DISPUTE_STATUSES, type DisputeFinding, type DisputeStatus } from '#shared/constants.ts';
import type { AdminDispute, AdminDisputes, DisputeEvidence } from '#shared/schemas/disputes.ts';
import type { Dispute, PaymentProvider } from '../../adapters/payments/provider.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, badRequest, conflict, notFound, providerUnavailable } from '../../errors.ts';
import { ledgerService } from '../ledger/service.ts';
import { moderationService } from '../moderation/service.ts';
import { notificationService } from '../notifications/service.ts';
import { assembleEvidence } from './evidence.ts';
import { disputeLostText, disputeOpenedText, lenderAtFaultText } from './notices.ts';
import * as queries from './queries.ts';

// Card chargebacks (decision 059). The provider is the truth about a dispute: every event, and the
// test provider's own announcements, only name one, and it is read again from the provider before
// anything is done, so a replayed, late or out-of-order event changes nothing twice. Our row keeps
// what was last read and what moderators made of it; the money that moved (withdrawn, reinstated) is
// applied as differences from the row, under the row's lock, through one function each.

export interface DisputeDeps {
  db: Db;
  payments: PaymentProvider;
  /** The moderators (ADMIN_EMAILS): told of a dispute that opens or is lost. */
  adminEmails?: readonly string[];
  /** Links in the evidence start with this. */
  appUrl?: string;
  /**
   * In the finding's transaction, a lender found at fault: what their transfers of the booking kept
   * beyond what is theirs now is reversed after the commit (the payouts feature, wired in api-routes).
   */
  onLenderAtFault?: (tx: Db, booking: { reservationId: string; lenderId: string }) => Promise<void>;
}

/** What a dispute's money did, for the double-entry journal: one movement of the platform's balance. */
export interface DisputeMoneyEffect {
  disputeId: string;
  reservationId: string | null;
  paymentIntentId: string;
  lenderId: string | null;
  /** The disputed money that left (withdrawn) or came back (reinstated) this time. */
  amountCents: number;
  /** The change in the provider's dispute fees with it (negative: a fee given back). */
  feeCents: number;
}

const isClosed = (status: string) => (CLOSED_DISPUTE_STATUSES as readonly string[]).includes(status);
const outcomeOf = (status: DisputeStatus) => (status === 'won' || status === 'lost' ? status : null);

const disputeNotFound = () => notFound(msg`Dispute not found.`);

/**
 * A read of the provider older than what we hold (two events handled at once, the older read
 * committing last): less money moved, or open again after closing. Nothing at the provider goes back.
 */
function isStale(row: queries.DisputeRow, dispute: Dispute): boolean {
  return (
    dispute.withdrawnCents < row.withdrawnCents ||
    dispute.reinstatedCents < row.reinstatedCents ||
    (isClosed(row.status) && !isClosed(dispute.status))
  );
}

/**
 * Disputed money moved: it left the platform's balance (withdrawn) or came back (reinstated, a dispute
 * won). Recorded on the dispute and journalled, once per movement, inside the dispute's transaction;
 * answered as the movement's effect.
 */
async function fundsMoved(
  tx: Db,
  row: queries.DisputeRow,
  direction: 'withdrawn' | 'reinstated',
  amountCents: number,
  feeCents: number,
): Promise<DisputeMoneyEffect> {
  const total = (direction === 'withdrawn' ? row.withdrawnCents : row.reinstatedCents) + amountCents;
  await queries.updateDispute(tx, row.id, {
    ...(direction === 'withdrawn' ? { withdrawnCents: total } : { reinstatedCents: total }),
    feeCents: Math.max(0, row.feeCents + feeCents),
  });
  const post =
    direction === 'withdrawn'
      ? ledgerService.journal.disputeFundsWithdrawn
      : ledgerService.journal.disputeFundsReinstated;
  // The journal's source names the running total, so a later movement of the same dispute is its own.
  await post(tx, {
    reservationId: row.reservationId,
    paymentIntentId: row.paymentIntentId,
    borrowerId: row.borrowerId,
    amountCents,
    source: `dispute:${row.providerDisputeId}:${direction}:${total}`,
  });
  return effectOf(row, amountCents, feeCents);
}

const fundsWithdrawn = (tx: Db, row: queries.DisputeRow, amountCents: number, feeCents: number) =>
  fundsMoved(tx, row, 'withdrawn', amountCents, feeCents);
const fundsReinstated = (tx: Db, row: queries.DisputeRow, amountCents: number, feeCents: number) =>
  fundsMoved(tx, row, 'reinstated', amountCents, feeCents);

function effectOf(row: queries.DisputeRow, amountCents: number, feeCents: number): DisputeMoneyEffect {
  return {
    disputeId: row.id,
    reservationId: row.reservationId,
    paymentIntentId: row.paymentIntentId,
    lenderId: row.lenderId,
    amountCents,
    feeCents,
  };
}

function toAdminDispute(
  row: queries.DisputeRow,
  names: { itemTitle: string | null; borrowerName: string | null; lenderName: string | null },
): AdminDispute {
  return {
    id: row.id,
    reservationId: row.reservationId,
    paymentIntentId: row.paymentIntentId,
    ...names,
    amount: centsToDecimal(row.amountCents)!,
    currency: row.currency,
    reason: row.reason,
    status: row.status as DisputeStatus,
    evidenceDueBy: row.evidenceDueBy?.toISOString() ?? null,
    withdrawn: centsToDecimal(row.withdrawnCents)!,
    reinstated: centsToDecimal(row.reinstatedCents)!,
    outcome: row.outcome as 'won' | 'lost' | null,
    finding: row.finding as DisputeFinding | null,
    reversal: centsToDecimal(row.reversalCents),
    evidenceSubmittedAt: row.evidenceSubmittedAt?.toISOString() ?? null,
    freezesTransfers: !isClosed(row.status) || (row.status === 'lost' && !row.finding),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Tells every moderator but the booking's two people (no one is told of their own case to decide). */
async function tellModerators(
  tx: Db,
  deps: DisputeDeps,
  row: queries.DisputeRow,
  text: () => ReturnType<typeof disputeOpenedText>,
) {
  for (const moderatorId of await queries.moderatorIds(tx, deps.adminEmails ?? [])) {
    if (moderatorId === row.borrowerId || moderatorId === row.lenderId) continue;
    await notificationService.notify(tx, {
      userId: moderatorId,
      type: 'system',
      text,
      relatedReservationId: row.reservationId,
    });
  }
}

/** Applies what the provider says of a dispute now to our row (inside the caller's transaction). */
async function apply(
  tx: Db,
  deps: DisputeDeps,
  dispute: Dispute,
  booking: NonNullable<Awaited<ReturnType<typeof queries.bookingOfPayment>>>,
): Promise<{ outcome: string; effects: DisputeMoneyEffect[] }> {
  const opened = await queries.insertDispute(tx, {
    providerDisputeId: dispute.id,
    reservationId: booking.reservationId,
    paymentIntentId: dispute.paymentIntentId!,
    lenderId: booking.lenderId,
    borrowerId: booking.borrowerId,
    amountCents: dispute.amountCents,
    currency: dispute.currency,
    reason: dispute.reason,
    status: dispute.status,
    evidenceDueBy: dispute.evidenceDueBy,
  });
  let row = (await queries.lockByProviderId(tx, dispute.id))!;
  if (isStale(row, dispute)) return { outcome: 'an older read of the dispute; nothing to do', effects: [] };
  const wasLost = row.status === 'lost';
  const effects: DisputeMoneyEffect[] = [];
  const withdrawn = dispute.withdrawnCents - row.withdrawnCents;
  const reinstated = dispute.reinstatedCents - row.reinstatedCents;
  const feeChange = dispute.feeCents - row.feeCents;
  // The fees' change goes with the withdrawal when there is one (a read that shows both at once,
  // after a missed event, carries their net change there), else with the reinstatement.
  if (withdrawn > 0) {
    effects.push(await fundsWithdrawn(tx, row, withdrawn, feeChange));
    row = (await queries.lockByProviderId(tx, dispute.id))!;
  }
  if (reinstated > 0) {
    effects.push(await fundsReinstated(tx, row, reinstated, withdrawn > 0 ? 0 : feeChange));
    row = (await queries.lockByProviderId(tx, dispute.id))!;
  }
  row = await queries.updateDispute(tx, row.id, {
    status: dispute.status,
    reason: dispute.reason,
    amountCents: dispute.amountCents,
    evidenceDueBy: dispute.evidenceDueBy,
    outcome: outcomeOf(dispute.status),
    // A fee change with no money moving (rare): the provider's figure.
    feeCents: dispute.feeCents,
  });
  const item = booking.itemTitle;
  if (opened) {
    const dueBy = dispute.evidenceDueBy?.toISOString().slice(0, 10) ?? null;
    const amount = dispute.amountCents;
    const reason = dispute.reason;
    await tellModerators(tx, deps, row, () => disputeOpenedText({ item }, amount, reason, dueBy));
  }
  if (row.status === 'lost' && !wasLost) {
    const amount = row.amountCents;
    await tellModerators(tx, deps, row, () => disputeLostText({ item }, amount));
  }
  return { outcome: `dispute ${opened ? 'opened' : 'updated'}: ${row.status}`, effects };
}

/**
 * A provider call a moderator waits for: the provider's refusals stay as they are (a 409 for a dispute
 * closed meanwhile), an outage is a 503 to try again, never a 500.
 */
async function orProviderUnavailable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw providerUnavailable();
  }
}

/** A dispute, the booking it is of, and the moderator's right to act on it. */
async function disputeForModerator(db: Db, moderatorId: string, id: string) {
  const row = await queries.findDispute(db, id);
  if (!row) throw disputeNotFound();
  moderationService.refuseOwnCase(moderatorId, [row.borrowerId, row.lenderId]);
  return row;
}

async function viewOf(db: Db, id: string): Promise<AdminDispute> {
  const row = (await queries.findDispute(db, id))!;
  const booking = row.reservationId ? await queries.bookingForEvidence(db, row.reservationId) : undefined;
  return toAdminDispute(row, {
    itemTitle: booking?.item.title ?? null,
    borrowerName: booking?.borrower.fullName ?? null,
    lenderName: booking?.lender.fullName ?? null,
  });
}

export const disputeService = {
  /**
   * The provider told of a dispute (a webhook event, or the test provider's announcement): it is read
   * again from the provider and applied. A dispute of a payment that is not a booking's of ours is
   * acknowledged and left alone. Answers what was done, for the log, and the money that moved, for
   * the journal.
   */
  async providerReported(
    deps: DisputeDeps,
    providerDisputeId: string,
  ): Promise<{ outcome: string; effects: DisputeMoneyEffect[] }> {
    let dispute: Dispute;
    try {
      // An outage is a 503: Stripe delivers the event again, and it is applied then.
      dispute = await orProviderUnavailable(() => deps.payments.retrieveDispute(providerDisputeId));
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) {
        return { outcome: 'unknown dispute', effects: [] };
      }
      throw error;
    }
    if (!dispute.paymentIntentId) return { outcome: 'a dispute of no payment', effects: [] };
    const booking = await queries.bookingOfPayment(deps.db, dispute.paymentIntentId);
    if (!booking) return { outcome: 'a dispute of a payment of no booking of ours', effects: [] };
    return transaction(deps.db, (tx) => apply(tx, deps, dispute, booking));
  },

  fundsWithdrawn,
  fundsReinstated,

  /**
   * Whether the lender's unsent transfers of this booking must wait: a dispute of it is open, or
   * lost with no finding yet. Call it before sending one.
   */
  async freezesTransfers(db: Db, reservationId: string): Promise<boolean> {
    return (await queries.holdingDisputes(db, reservationId)) > 0;
  },

  /** The provider's id of a dispute the moderator may act on (404 if none, 403 for a party). */
  async providerIdFor(db: Db, moderatorId: string, id: string): Promise<string> {
    return (await disputeForModerator(db, moderatorId, id)).providerDisputeId;
  },

  /** One dispute as the moderators' list shows it. */
  async view(db: Db, moderatorId: string, id: string): Promise<AdminDispute> {
    await disputeForModerator(db, moderatorId, id);
    return viewOf(db, id);
  },

  /** The moderators' list, newest first, but for the disputes of bookings the moderator is party to. */
  async list(deps: Pick<DisputeDeps, 'db' | 'adminEmails'>, moderatorId: string): Promise<AdminDisputes> {
    const all = await queries.listDisputes(deps.db);
    const shown = all.filter(
      ({ dispute }) => dispute.borrowerId !== moderatorId && dispute.lenderId !== moderatorId,
    );
    return {
      disputes: shown.map(({ dispute, itemTitle, borrowerName, lenderName }) =>
        toAdminDispute(dispute, { itemTitle, borrowerName, lenderName }),
      ),
      ownCases: await moderationService.ownCases(
        deps.db,
        deps.adminEmails ?? [],
        moderatorId,
        all.length - shown.length,
      ),
    };
  },

  /** The evidence as it would be sent now, for the moderator to read first. */
  async evidencePreview(deps: DisputeDeps, moderatorId: string, id: string): Promise<DisputeEvidence> {
    const row = await disputeForModerator(deps.db, moderatorId, id);
    return assembleEvidence(deps.db, row, deps.appUrl ?? '');
  },

  /**
   * A moderator sends the evidence to the bank. The provider's call carries a key made of the
   * dispute and how many times evidence went before, so two moderators at once submit it once.
   */
  async submitEvidence(
    deps: DisputeDeps,
    moderatorId: string,
    id: string,
    note?: string,
  ): Promise<AdminDispute> {
    const row = await disputeForModerator(deps.db, moderatorId, id);
    if (!['needs_response', 'warning_needs_response'].includes(row.status)) {
      throw conflict(msg`This dispute is not waiting for evidence.`, 'DISPUTE_NOT_AWAITING_EVIDENCE');
    }
    const evidence = await assembleEvidence(deps.db, row, deps.appUrl ?? '', note || undefined);
    const submitted = await orProviderUnavailable(async () => {
      const current = await deps.payments.retrieveDispute(row.providerDisputeId);
      return deps.payments.submitDisputeEvidence(
        row.providerDisputeId,
        evidence,
        `dispute-evidence-${row.providerDisputeId}-${current.submissionCount}`,
      );
    });
    const booking = await queries.bookingOfPayment(deps.db, row.paymentIntentId);
    await transaction(deps.db, async (tx) => {
      if (booking) await apply(tx, deps, submitted, booking);
      await queries.updateDispute(tx, row.id, {
        evidence: evidence as Record<string, string>,
        evidenceSubmittedAt: new Date(),
        evidenceSubmittedBy: moderatorId,
      });
    });
    return viewOf(deps.db, row.id);
  },

  /**
   * A moderator decides who bears a lost dispute: the platform, or the lender (then the lender's
   * transfer of the booking gives back their earning of it, at most what was lost). Once per dispute.
   */
  async recordFinding(
    deps: DisputeDeps,
    moderatorId: string,
    id: string,
    input: { finding: DisputeFinding; note?: string },
  ): Promise<{ dispute: AdminDispute; reverseCents: number }> {
    await disputeForModerator(deps.db, moderatorId, id);
    const reverseCents = await transaction(deps.db, async (tx) => {
      const row = (await queries.lockDispute(tx, id))!;
      if (row.status !== 'lost') {
        throw conflict(msg`Only a lost dispute needs a finding.`, 'DISPUTE_NOT_LOST');
      }
      if (row.finding) throw conflict(msg`This dispute has a finding already.`, 'DISPUTE_DECIDED');
      let reversal = 0;
      if (input.finding === 'lender_at_fault') {
        const earned = row.reservationId
          ? (await ledgerService.earningsOfBooking(tx, row.reservationId)).entriesCents
          : 0;
        const lost = row.withdrawnCents - row.reinstatedCents;
        reversal = Math.max(0, Math.min(earned, lost));
      }
      await queries.updateDispute(tx, id, {
        finding: input.finding,
        findingNote: input.note || null,
        foundBy: moderatorId,
        foundAt: new Date(),
        reversalCents: input.finding === 'lender_at_fault' ? reversal : null,
      });
      if (input.finding === 'lender_at_fault' && row.lenderId && row.reservationId && reversal > 0) {
        // The loss is the lender's now, not the borrower's debt (decision 061).
        await ledgerService.journal.lenderCharged(tx, {
          reservationId: row.reservationId,
          paymentIntentId: row.paymentIntentId,
          lenderId: row.lenderId,
          borrowerId: row.borrowerId,
          amountCents: reversal,
          source: `dispute-fault:${row.id}`,
        });
        await deps.onLenderAtFault?.(tx, { reservationId: row.reservationId, lenderId: row.lenderId });
        const booking = await queries.bookingOfPayment(tx, row.paymentIntentId);
        const item = booking?.itemTitle ?? '';
        await notificationService.notify(tx, {
          userId: row.lenderId,
          type: 'system',
          text: () => lenderAtFaultText({ item }, reversal),
          relatedReservationId: row.reservationId,
        });
      }
      return reversal;
    });
    return { dispute: await viewOf(deps.db, id), reverseCents };
  },

  /**
   * "Lender at fault": records the finding and answers the amount to reverse from the lender's
   * transfer (their earning of the booking, at most what the dispute lost).
   */
  async lenderAtFault(deps: DisputeDeps, moderatorId: string, id: string, note?: string): Promise<number> {
    return (await disputeService.recordFinding(deps, moderatorId, id, { finding: 'lender_at_fault', note }))
      .reverseCents;
  },

  /**
   * What a reversal could not take back from the lender's balance becomes a receivable, netted from
   * their later transfers. Never more, over a dispute, than the reversal decided.
   */
  async reversalShortfall(tx: Db, disputeId: string, uncoveredCents: number): Promise<void> {
    if (!Number.isInteger(uncoveredCents) || uncoveredCents <= 0) {
      throw badRequest(msg`The amount must be a positive number of cents.`);
    }
    const row = await queries.lockDispute(tx, disputeId);
    if (!row) throw disputeNotFound();
    if (row.finding !== 'lender_at_fault' || !row.lenderId) {
      throw conflict(msg`Only a lender found at fault owes a reversal.`, 'NO_REVERSAL');
    }
    const owedSoFar = await queries.owedForDispute(tx, disputeId);
    if (owedSoFar + uncoveredCents > (row.reversalCents ?? 0)) {
      throw conflict(msg`That is more than the reversal decided.`, 'REVERSAL_EXCEEDED');
    }
    await queries.lockLender(tx, row.lenderId);
    await queries.insertReceivable(tx, {
      lenderId: row.lenderId,
      disputeId,
      amountCents: uncoveredCents,
      reason: 'dispute_reversal',
    });
  },

  /** The lost dispute of a booking its lender was found at fault for (the latest), if any. */
  async faultOf(db: Db, reservationId: string, lenderId: string): Promise<{ id: string } | null> {
    return (await queries.faultOf(db, reservationId, lenderId)) ?? null;
  },

  /** What a lender owes the platform now, in cents. */
  receivableOf: (db: Db, lenderId: string): Promise<number> => queries.receivableCents(db, lenderId),

  /**
   * Before a transfer of `cents` to a lender: what they owe is taken from it first. Answers what was
   * netted and what is left to send. Inside the transfer's transaction; the lender's row lock makes
   * two transfers at once net the debt once.
   */
  async netAgainstReceivable(
    tx: Db,
    lenderId: string,
    cents: number,
  ): Promise<{ nettedCents: number; payableCents: number }> {
    if (!Number.isInteger(cents) || cents < 0)
      throw badRequest(msg`The amount must be a positive number of cents.`);
    if (!(await queries.lockLender(tx, lenderId))) return { nettedCents: 0, payableCents: cents };
    const owed = await queries.receivableCents(tx, lenderId);
    const nettedCents = Math.min(owed, cents);
    if (nettedCents > 0) {
      await queries.insertReceivable(tx, {
        lenderId,
        amountCents: -nettedCents,
        reason: 'netted_from_transfer',
      });
    }
    return { nettedCents, payableCents: cents - nettedCents };
  },
};
