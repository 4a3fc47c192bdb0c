import { msg } from '@lingui/core/macro';
import { BANK_PAYOUT_STATUSES, type BankPayoutStatus } from '#shared/constants.ts';
import { StripePaymentProvider } from '../../adapters/payments/stripe-provider.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import * as queries from './queries.ts';
import { type PayoutDeps, payoutService } from './service.ts';

// What happens on lenders' connected accounts (decision 061): Stripe's Connect webhook (its own
// endpoint and signing secret), and the test provider's announcements of the same events. An event only
// names an object: the account or payout is read again from the provider before anything is done, so a
// replayed, late or out-of-order event ends in the provider's state. Each event is recorded once, as
// the platform's are (payment_events), after its work; every effect below is safe to apply twice, so
// two deliveries of one event at once change nothing twice.

/** A Connect event: its id, type, the connected account it happened on and the object it names. */
export interface ConnectEvent {
  id: string;
  type: string;
  account: string | null;
  objectId: string | null;
}

export const CONNECT_EVENTS = new Set([
  'account.updated',
  'capability.updated',
  'account.application.deauthorized',
  'payout.created',
  'payout.updated',
  'payout.paid',
  'payout.failed',
  'payout.canceled',
]);

const isStatus = (s: string): s is BankPayoutStatus =>
  (BANK_PAYOUT_STATUSES as readonly string[]).includes(s);

/** The account's row is read from the provider again; a payout is recorded as the provider holds it. */
async function applyEvent(deps: PayoutDeps, event: ConnectEvent): Promise<string> {
  const accountId = event.account ?? (event.type.startsWith('account.') ? event.objectId : null);
  if (!accountId) return 'no connected account';
  const row = await queries.findAccountById(deps.db, accountId);
  if (!row) return 'an account that is not ours';
  if (event.type === 'account.updated' || event.type === 'capability.updated') {
    const view = await payoutService.syncAccount(deps, accountId);
    return view ? `account ${view.status}` : 'account unchanged';
  }
  if (event.type === 'account.application.deauthorized') {
    // Once disconnected, the account can no longer be read by the platform: the signed event is the proof.
    return (await payoutService.deauthorised(deps, accountId))
      ? 'account disconnected'
      : 'already disconnected';
  }
  if (event.type.startsWith('payout.') && event.objectId) {
    const payout = await deps.payments.retrievePayout(accountId, event.objectId);
    if (!isStatus(payout.status)) return 'payout of an unknown status';
    await queries.upsertBankPayout(deps.db, {
      id: payout.id,
      accountId,
      lenderId: row.userId,
      amountCents: payout.amountCents,
      status: payout.status,
      arrivalAt: payout.arrivalAt,
      failureMessage: payout.failureMessage,
    });
    return `payout ${payout.status}`;
  }
  return 'acknowledged';
}

/** A provider's refusal of a read: an object that is gone is acknowledged, anything else retried. */
async function orGone(run: () => Promise<string>): Promise<string> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) return 'the provider no longer has it';
    throw error;
  }
}

export const connectEventService = {
  /** One event, applied once (the test provider's announcements come here too). */
  async apply(deps: PayoutDeps, event: ConnectEvent): Promise<{ outcome: string }> {
    if (await queries.eventSeen(deps.db, event.id)) return { outcome: 'already handled' };
    const outcome = CONNECT_EVENTS.has(event.type)
      ? await orGone(() => applyEvent(deps, event))
      : 'acknowledged';
    // Recorded after the work: a failure above answers 500 and Stripe delivers the event again.
    await queries.recordEvent(deps.db, event.id, event.type);
    return { outcome };
  },

  /**
   * A delivery of Stripe's Connect webhook: the signature is checked on the raw body against
   * STRIPE_CONNECT_WEBHOOK_SECRET (a Connect endpoint has its own secret), then the event applied once.
   */
  async handleWebhook(
    deps: PayoutDeps,
    secret: string | null,
    rawBody: Buffer | undefined,
    signature: string | string[] | undefined,
  ): Promise<{ eventId: string; type: string; outcome: string }> {
    if (!secret) throw notFound(msg`Stripe Connect webhooks are not configured.`);
    if (typeof signature !== 'string' || !signature) {
      throw badRequest(msg`The Stripe-Signature header is missing.`);
    }
    if (!rawBody?.length) throw badRequest(msg`The webhook body is empty.`);
    let event: Awaited<ReturnType<typeof StripePaymentProvider.constructEvent>>;
    try {
      event = await StripePaymentProvider.constructEvent(rawBody, signature, secret);
    } catch {
      throw new AppError(
        400,
        'BAD_SIGNATURE',
        msg`The webhook signature does not match. Check STRIPE_CONNECT_WEBHOOK_SECRET.`,
      );
    }
    const object = event.data.object as { id?: unknown };
    const { outcome } = await connectEventService.apply(deps, {
      id: event.id,
      type: event.type,
      account: event.account ?? null,
      objectId: typeof object.id === 'string' ? object.id : null,
    });
    return { eventId: event.id, type: event.type, outcome };
  },
};
