import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { centsToDecimal } from '#shared/booking/pricing.ts';
import type { PayoutAccountStatus, PayoutPurpose, PayoutTransferStatus } from '#shared/constants.ts';
import type { PayoutAccountView, PayoutsResponse } from '#shared/schemas/payouts.ts';
import { connectStatus, type PaymentProvider } from '../../adapters/payments/provider.ts';
import type { TestAccountState, TestPaymentProvider } from '../../adapters/payments/test-provider.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { AppError, conflict, notFound } from '../../errors.ts';
import { wording } from '../../wordings.ts';
import { notificationService } from '../notifications/service.ts';
import * as queries from './queries.ts';
import { transferService } from './transfers.ts';

// Lenders' connected accounts (decision 056). A lender starts onboarding from Settings ("Get paid"):
// one Express account per person, made once however many calls race, and a fresh onboarding link each
// time. What the provider says about the account is never taken from a browser's return or an event's
// body: the account is read from the provider, and its status stored here, where the approval rule and
// the Earnings page read it.

export interface PayoutDeps {
  db: Db;
  payments: PaymentProvider;
  /** Links in onboarding come back here (no trailing slash). */
  appUrl: string;
  /** Told when an account may receive transfers now (the transfers waiting for it go). */
  onActive?: (lenderId: string) => Promise<void>;
}

const disconnectedText = wording(
  'payouts.disconnectedText',
  (): { title: MessageDescriptor; message: MessageDescriptor } => ({
    title: msg`Stripe account disconnected`,
    message: msg`Your Stripe account was disconnected from CampusLoop. Your payouts wait until you set up payouts again in Settings, under "Get paid".`,
  }),
);

/** The country every CampusLoop lender's account is in (US campuses). */
const ACCOUNT_COUNTRY = 'US';

const accountView = (row: queries.AccountRow | undefined): PayoutAccountView =>
  row
    ? { status: row.status as PayoutAccountStatus, requirementsDue: row.requirementsDue }
    : { status: 'not_set_up', requirementsDue: [] };

/**
 * The account, made at the provider the first time. The provider's call is keyed by the person, so
 * calls at once (two tabs, a double click) all get the one account it made, and the first row written
 * stands. It runs outside any transaction (decision 006: no provider call holds a connection).
 */
async function ensureAccount(deps: PayoutDeps, user: { id: string }): Promise<queries.AccountRow> {
  const existing = await queries.findAccount(deps.db, user.id);
  if (existing && !existing.deauthorisedAt) return existing;
  const person = await queries.findUser(deps.db, user.id);
  if (!person) throw notFound(msg`Account not found.`);
  // A disconnected account cannot be used again: a new one replaces it (the old one kept for history),
  // keyed by the one it replaces so racing calls make one.
  const account = await deps.payments.createConnectedAccount({
    userId: user.id,
    email: person.email,
    country: ACCOUNT_COUNTRY,
    idempotencyKey: existing
      ? `connected-account-${user.id}-after-${existing.accountId}`
      : `connected-account-${user.id}`,
  });
  const values = {
    accountId: account.id,
    status: connectStatus(account),
    requirementsDue: account.requirementsDue,
  };
  if (existing) await queries.replaceAccount(deps.db, user.id, existing.accountId, values);
  else await queries.insertAccount(deps.db, { userId: user.id, ...values });
  return (await queries.findAccount(deps.db, user.id))!;
}

export const payoutService = {
  /** A booking's transfers to its lender, scheduled in the caller's transaction (decision 056, "Transfers"). */
  scheduleTransfers: transferService.schedule,

  /** 'not_set_up' when the person never started onboarding. */
  async status(db: Db, userId: string): Promise<PayoutAccountStatus> {
    return accountView(await queries.findAccount(db, userId)).status;
  },

  /**
   * Approving a paid request (or paid days more) needs a lender whose account can receive the money:
   * otherwise a 409 the lender's page turns into a way to set payouts up.
   */
  async requireActive(db: Db, lenderId: string): Promise<void> {
    if ((await payoutService.status(db, lenderId)) === 'active') return;
    throw conflict(
      msg`Set up payouts to accept paid requests: in Settings, under "Get paid", tell Stripe where to send your earnings.`,
      'PAYOUTS_NOT_ACTIVE',
    );
  },

  /** A fresh onboarding link for the person's account (made first if need be). */
  async startOnboarding(deps: PayoutDeps, user: { id: string }): Promise<{ url: string }> {
    const account = await ensureAccount(deps, user);
    const link = await deps.payments.createAccountLink({
      accountId: account.accountId,
      // An expired or already used link comes back here, which makes a new one.
      refreshUrl: `${deps.appUrl}/api/payouts/onboarding/refresh`,
      returnUrl: `${deps.appUrl}/settings?payouts=return#get-paid`,
    });
    return { url: link.url };
  },

  /** A single-use link into the lender's Express dashboard. */
  async dashboardLink(deps: PayoutDeps, userId: string): Promise<{ url: string }> {
    const account = await queries.findAccount(deps.db, userId);
    if (!account) {
      throw conflict(
        msg`Set up payouts first: your Stripe dashboard opens once you have.`,
        'PAYOUTS_NOT_SET_UP',
      );
    }
    return deps.payments.createLoginLink(account.accountId);
  },

  /**
   * Reads the account from the provider and stores what it says (the return from onboarding, and every
   * Connect event about it). Answers the stored view; an account becoming active lets waiting transfers go.
   */
  async syncAccount(deps: PayoutDeps, accountId: string): Promise<PayoutAccountView | null> {
    const row = await queries.findAccountById(deps.db, accountId);
    if (!row) return null;
    const account = await deps.payments.retrieveConnectedAccount(accountId);
    const changed = await queries.setAccountStatus(deps.db, accountId, {
      status: connectStatus(account, Boolean(row.deauthorisedAt)),
      requirementsDue: account.requirementsDue,
    });
    if (!changed) return null;
    if (changed.after.status === 'active' && changed.before !== 'active') await deps.onActive?.(row.userId);
    return accountView(changed.after);
  },

  /** The person's own account, read again from the provider (the page they return to from onboarding). */
  async refreshOwn(deps: PayoutDeps, userId: string): Promise<PayoutAccountView> {
    const row = await queries.findAccount(deps.db, userId);
    if (!row) return accountView(undefined);
    return (await payoutService.syncAccount(deps, row.accountId)) ?? accountView(row);
  },

  /**
   * The lender disconnected the platform: nothing more goes to the account, whatever it says later;
   * their unsent transfers wait, and they are told, once however many deliveries race. Answers whether
   * this call did it.
   */
  async deauthorised(deps: Pick<PayoutDeps, 'db'>, accountId: string): Promise<boolean> {
    return transaction(deps.db, async (tx) => {
      const row = await queries.markDeauthorised(tx, accountId);
      if (!row) return false;
      await queries.holdScheduled(tx, row.userId);
      await notificationService.notify(tx, {
        userId: row.userId,
        type: 'system',
        text: () => disconnectedText(),
      });
      return true;
    });
  },

  /** The test provider's onboarding page: the lender's answer for their own account, then read back. */
  async answerTestOnboarding(
    deps: PayoutDeps & { payments: TestPaymentProvider },
    userId: string,
    accountId: string,
    outcome: TestAccountState,
  ): Promise<PayoutAccountView> {
    const row = await queries.findAccountById(deps.db, accountId);
    if (!row || row.userId !== userId) throw notFound(msg`No such payout account.`);
    await deps.payments.setConnectedAccountState(accountId, outcome);
    return (await payoutService.syncAccount(deps, accountId)) ?? accountView(row);
  },

  /**
   * Payouts set up with the built-in test provider, onboarding completed (the demo campus's lenders, and
   * the lenders tests make): the account made as onboarding makes it, then read back as active.
   */
  async setUpWithTestProvider(payments: TestPaymentProvider, db: Db, userId: string): Promise<void> {
    const deps = { db, payments, appUrl: '' };
    const row = await ensureAccount(deps, { id: userId });
    await payments.setConnectedAccountState(row.accountId, 'complete');
    await payoutService.syncAccount(deps, row.accountId);
  },

  /**
   * The platform's transfer events (transfer.created, .reversed, .updated): the transfer is read again
   * and compared with our row. One we have no row for, or taken back beyond what our row says (a
   * reversal made outside CampusLoop, in Stripe's dashboard), is a finding for the logs and moderators;
   * our books are never changed from an event's body. Answers what was found.
   */
  async transferReported(deps: { db: Db; payments: PaymentProvider }, transferId: string): Promise<string> {
    let transfer: Awaited<ReturnType<PaymentProvider['retrieveTransfer']>>;
    try {
      transfer = await deps.payments.retrieveTransfer(transferId);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 404) return 'unknown transfer';
      throw error;
    }
    const row = await queries.findTransferByProviderId(deps.db, transferId);
    if (!row) {
      // The job's answer may have been lost: the row its metadata names finds it by its group.
      const named = transfer.metadata.payoutTransferId
        ? await queries.findTransfer(deps.db, transfer.metadata.payoutTransferId)
        : undefined;
      return named ? 'a transfer still being recorded' : 'finding: a transfer we have no row for';
    }
    if (transfer.amountCents !== row.amountCents) return 'finding: the transfer’s amount differs from ours';
    if (transfer.amountReversedCents !== row.reversedCents) {
      // A reversal of ours between its call and its commit is not a finding: it is recorded shortly.
      const open = (await queries.reversalsOf(deps.db, [row.id])).some((v) => v.status === 'scheduled');
      return open ? 'a reversal being recorded' : 'finding: taken back other than by CampusLoop';
    }
    return 'matches';
  },

  /** What the lender sees on the Earnings page: their account, totals and transfers (their own only). */
  async overview(db: Db, userId: string): Promise<PayoutsResponse> {
    const account = accountView(await queries.findAccount(db, userId));
    const totals = await queries.lenderTotals(db, userId);
    const rows = await queries.transfersOf(db, userId);
    const paidOut = await queries.paidOutAtOf(db, userId);
    const upcoming = Math.max(0, totals.earned - totals.sent);
    return {
      account,
      totals: {
        earned: centsToDecimal(totals.earned)!,
        sent: centsToDecimal(totals.sent)!,
        upcoming: centsToDecimal(upcoming)!,
      },
      transfers: rows.map(({ transfer, itemTitle }) => ({
        id: transfer.id,
        reservationId: transfer.reservationId,
        itemTitle,
        amount: centsToDecimal((transfer.amountCents ?? 0) - transfer.reversedCents)!,
        purpose: transfer.purpose as PayoutPurpose,
        status: transfer.status as PayoutTransferStatus,
        releaseAt: transfer.releaseAt.toISOString(),
        sentAt: transfer.sentAt?.toISOString() ?? null,
        paidOutAt: paidOut.get(transfer.id)?.toISOString() ?? null,
      })),
    };
  },
};
