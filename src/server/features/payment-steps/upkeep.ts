import { msg } from '@lingui/core/macro';
import type { PaymentProvider } from '../../adapters/payments/provider.ts';
import { writtenFor } from '../../booking-words.ts';
import type { Db } from '../../db/client.ts';
import { transaction } from '../../db/transaction.ts';
import { type JobQueue, QUEUES } from '../../jobs/queue.ts';
import { ledgerService } from '../ledger/service.ts';
import * as queries from './queries.ts';

// The payment outbox's upkeep (decision 012), run by the background jobs: authorisations that never
// became a request are released, steps whose job was lost are sent again, our billing rows are
// compared with the provider's intents, and the provider's webhooks are taken in.

/**
 * What the upkeep uses; the service's PaymentStepDeps has it all. Declared here, not imported from the
 * service, which imports this file: the two would import each other.
 */
interface UpkeepDeps {
  db: Db;
  payments: PaymentProvider;
  jobs: JobQueue;
  log?: { warn?: (obj: object, msg: string) => void };
}

/**
 * Card authorisations no request used within `olderThanMs` (the tab was closed after paying, the
 * request failed and was never sent again): released, so the student's money is not held for days.
 */
export async function releaseAbandoned(
  deps: UpkeepDeps,
  olderThanMs: number,
  now = new Date(),
): Promise<number> {
  return transaction(deps.db, async (tx) => {
    // Skips an intent a request holds right now; the request wins or fails, and the next round looks again.
    const abandoned = await queries.lockOpenIntentsBefore(tx, new Date(now.getTime() - olderThanMs), 100);
    for (const intent of abandoned) {
      await queries.markIntentAbandoned(tx, intent.id);
      await ledgerService.releaseAbandoned(tx, deps.jobs, intent);
    }
    return abandoned.length;
  });
}

/** Steps waiting longer than `staleMs` without a runner (their job was lost or gave up): sent again. */
export async function resendStuck(deps: UpkeepDeps, staleMs: number, now = new Date()): Promise<number> {
  const intents = await queries.intentsWithRunnableSteps(deps.db, 200, new Date(now.getTime() - staleMs));
  for (const paymentIntentId of intents) await deps.jobs.sendNow(QUEUES.paymentSteps, { paymentIntentId });
  return intents.length;
}

/** Charged minus refunded, as the provider says. */
async function providerNet(deps: UpkeepDeps, intentId: string): Promise<number> {
  const intent = await deps.payments.retrievePaymentIntent(intentId);
  return intent.amountReceivedCents - intent.amountRefundedCents;
}

/**
 * Compares our billing rows with the provider for the intents least recently compared, whose steps are
 * all done: charged minus refunded must be equal. A difference is kept for moderators (one open finding
 * per intent); an intent that matches again closes its finding.
 */
export async function reconcile(
  deps: UpkeepDeps,
  limit = 100,
  now = new Date(),
): Promise<{ checked: number; mismatched: number }> {
  let checked = 0;
  let mismatched = 0;
  // What the provider said of each booking's payments, for the journal's own reconciliation after.
  const compared: { reservationId: string; paymentIntentId: string; providerNetCents: number }[] = [];
  for (const intent of await queries.intentsToReconcile(deps.db, limit)) {
    // Steps still under way (or waiting for a moderator) explain any difference already.
    if (await queries.firstUnfinishedStep(deps.db, intent.id)) continue;
    let provider: number;
    try {
      provider = await providerNet(deps, intent.id);
    } catch (error) {
      deps.log?.warn?.({ err: error, intentId: intent.id }, 'reconciliation could not read the intent');
      continue;
    }
    const billing = await ledgerService.netCents(deps.db, intent.id);
    // Counted after the commit: an attempt run again must not count twice.
    await transaction(deps.db, async (tx) => {
      if (billing !== provider) {
        await queries.recordMismatch(tx, {
          paymentIntentId: intent.id,
          reservationId: intent.reservationId,
          billingNetCents: billing,
          providerNetCents: provider,
        });
      } else {
        await queries.resolveMismatchesOfIntent(tx, intent.id, 'Matched the provider on a later check.');
      }
      await queries.setReconciled(tx, intent.id, now);
    });
    if (billing !== provider) mismatched++;
    checked++;
    const reservationId = intent.reservationId ?? intent.extensionOf;
    if (reservationId)
      compared.push({ reservationId, paymentIntentId: intent.id, providerNetCents: provider });
  }
  // The journal's books of the same bookings (decision 058): findings for moderators beside these.
  await ledgerService.reconcileJournal(deps.db, compared);
  return { checked, mismatched };
}

/**
 * What the provider told us about an intent (a webhook): its status is recorded, and its steps are run
 * now, each of which asks the provider again before acting, so a replayed or out-of-order event changes
 * nothing twice. A refund made outside CampusLoop (the provider's dashboard) gets its billing row, so
 * our rows keep saying what the card saw.
 */
export async function providerReported(
  deps: UpkeepDeps,
  report: { paymentIntentId: string; status?: string; lastError?: string | null; refundedCents?: number },
): Promise<string> {
  const intent = await queries.findIntent(deps.db, report.paymentIntentId);
  if (!intent) return 'not a CampusLoop payment';
  await queries.setProviderStatus(deps.db, intent.id, {
    ...(report.status ? { providerStatus: report.status } : {}),
    ...(report.lastError !== undefined ? { lastError: report.lastError } : {}),
  });
  // An extension's payment (decision 031) belongs to the booking it extends.
  const reservationId = intent.reservationId ?? intent.extensionOf;
  if (report.refundedCents !== undefined && reservationId) {
    const outside = await transaction(deps.db, async (tx) => {
      // Refunds made, and refunds asked for and still on their way: neither is from outside.
      const ours = await queries.refundCents(tx, intent.id, ['succeeded', 'pending', 'running', 'failed']);
      const extra = report.refundedCents! - ours;
      if (extra <= 0 || !intent.borrowerId) return 0;
      const description = await writtenFor(tx, intent.borrowerId, () => msg`Refund from CampusLoop support`);
      // Idempotent: the next report finds this row counted among ours.
      await ledgerService.recordOutsideRefund(tx, {
        paymentIntentId: intent.id,
        reservationId,
        borrowerId: intent.borrowerId,
        amountCents: extra,
        description,
        key: `refund-outside-${intent.id}-${report.refundedCents}`,
      });
      return extra;
    });
    if (outside) return `recorded a refund of ${outside} cents made outside CampusLoop`;
  }
  await deps.jobs.sendNow(QUEUES.paymentSteps, { paymentIntentId: intent.id });
  deps.jobs.kick(QUEUES.paymentSteps);
  return 'recorded';
}
