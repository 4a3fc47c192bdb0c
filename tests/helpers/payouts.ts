import { eq } from 'drizzle-orm';
import { beforeAll } from 'vitest';
import { TestPaymentProvider } from '../../src/server/adapters/payments/test-provider.ts';
import { connectedAccounts, payoutTransfers } from '../../src/server/db/schema/payouts.ts';
import { testTransfers } from '../../src/server/db/schema/test-payments.ts';
import { type TransferDeps, transferService } from '../../src/server/features/payouts/transfers.ts';
import { reservationService } from '../../src/server/features/reservations/service.ts';
import { createSignedInUser } from '../factories.ts';
import { flakyProvider } from './flaky-provider.ts';
import { setupTestApp, type TestContext } from './test-app.ts';

// Lender payouts in API tests: the transfer worker's dependencies, a booking's transfers run the way
// the worker runs them, and what the test provider holds for them.

export function transferDeps(t: TestContext, now = new Date()): TransferDeps {
  return {
    db: t.database.db,
    payments: t.app.payments,
    jobs: t.app.jobs,
    timeZone: t.config.campusTimeZone,
    mostAnEarlyReturnTakes: reservationService.mostAnEarlyReturnTakes,
    now: () => now,
  };
}

/** Every transfer row of a booking, whatever its purpose. */
export const transfersOf = (t: TestContext, reservationId: string) =>
  t.database.db.select().from(payoutTransfers).where(eq(payoutTransfers.reservationId, reservationId));

/** Every open transfer of the booking run once, as the worker would. */
export async function runTransfers(t: TestContext, reservationId: string, now = new Date()) {
  for (const row of await transfersOf(t, reservationId)) {
    await transferService.run(transferDeps(t, now), row.id, false);
  }
}

/** What the test provider sent for a booking (its transfers are grouped by booking). */
export const providerTransfersOf = (t: TestContext, reservationId: string) =>
  t.database.db
    .select()
    .from(testTransfers)
    .where(eq(testTransfers.transferGroup, `booking-${reservationId}`));

export const connectedAccountOf = async (t: TestContext, userId: string) =>
  (await t.database.db.select().from(connectedAccounts).where(eq(connectedAccounts.userId, userId)))[0]!;

/**
 * An app whose provider fails on command, with a signed-in moderator. The app listens on the provider
 * it was given (the flaky wrapper); the real one, which the wrapper calls, tells the same listeners, so
 * disputes and account events it raises reach the app.
 */
export function setupPayoutApp(moderatorEmail: string) {
  let flaky!: ReturnType<typeof flakyProvider>;
  let real!: TestPaymentProvider;
  let moderator!: Awaited<ReturnType<typeof createSignedInUser>>;
  const t = setupTestApp(
    { adminEmails: [moderatorEmail] },
    {
      payments: (db) => {
        real = new TestPaymentProvider(db);
        flaky = flakyProvider(real);
        return flaky.provider;
      },
    },
  );
  /** The app's provider (its announcements reach the app's listeners). */
  const tp = () => t.app.payments as TestPaymentProvider;
  beforeAll(async () => {
    real.onDispute = (id) => tp().onDispute!(id);
    real.onConnectEvent = (event) => tp().onConnectEvent!(event);
    moderator = await createSignedInUser(t.database.db, { email: moderatorEmail });
  });
  return {
    t,
    tp,
    get flaky() {
      return flaky;
    },
    get moderator() {
      return moderator;
    },
  };
}
