import type { FastifyInstance } from 'fastify';
import type { Mailer } from '../adapters/mail/mailer.ts';
import type { PaymentProvider } from '../adapters/payments/provider.ts';
import { TestPaymentProvider } from '../adapters/payments/test-provider.ts';
import type { Storage } from '../adapters/storage/storage.ts';
import type { ReadCaches } from '../cache/read-caches.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { RealtimeHub } from '../db/realtime-hub.ts';
import { accountRoutes } from '../features/account/routes.ts';
import { askRoutes } from '../features/asks/routes.ts';
import { authRoutes } from '../features/auth/routes.ts';
import { resumeSession } from '../features/auth/service.ts';
import { conversationRoutes } from '../features/conversations/routes.ts';
import type { ChatSendLimit } from '../features/conversations/send-limit.ts';
import type { PushSender } from '../features/deliveries/push-sender.ts';
import { deliveryRoutes } from '../features/deliveries/routes.ts';
import { disputeRoutes, testDisputeRoutes } from '../features/disputes/routes.ts';
import { disputeService } from '../features/disputes/service.ts';
import { emailVerificationRoutes } from '../features/email-verification/routes.ts';
import { handoverRoutes } from '../features/handovers/routes.ts';
import { healthRoutes } from '../features/health/routes.ts';
import { impactRoutes } from '../features/impact/routes.ts';
import { itemRoutes } from '../features/items/routes.ts';
import { ledgerRoutes } from '../features/ledger/routes.ts';
import { moderationRoutes } from '../features/moderation/routes.ts';
import { notificationRoutes } from '../features/notifications/routes.ts';
import { passwordResetRoutes } from '../features/password-reset/routes.ts';
import { paymentStepRoutes } from '../features/payment-steps/routes.ts';
import { paymentRoutes } from '../features/payments/routes.ts';
import { connectEventService } from '../features/payouts/connect-events.ts';
import { connectWebhookRoutes, payoutProblemRoutes, payoutRoutes } from '../features/payouts/routes.ts';
import { transferService } from '../features/payouts/transfers.ts';
import { reportRoutes } from '../features/reports/routes.ts';
import { extensionRoutes } from '../features/reservations/extensions/routes.ts';
import { reservationRoutes } from '../features/reservations/routes.ts';
import { reviewRoutes } from '../features/reviews/routes.ts';
import { savedSearchRoutes } from '../features/saved-searches/routes.ts';
import { testPaymentRoutes } from '../features/test-payments/routes.ts';
import { universityRoutes } from '../features/universities/routes.ts';
import type { ImageQueue } from '../features/uploads/image-queue.ts';
import { uploadRoutes } from '../features/uploads/routes.ts';
import { userRoutes } from '../features/users/routes.ts';
import { waitlistRoutes } from '../features/waitlist/routes.ts';
import session from '../http/session.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Metrics } from '../metrics/metrics.ts';

// Every feature's /api routes, each given what it needs and nothing more. Who may call each route is
// said by the feature, in the scope its routes are declared in (http/route-scopes.ts).

export interface ApiDeps {
  database: Database;
  config: Config;
  storage: Storage;
  payments: PaymentProvider;
  mailer: Mailer;
  jobs: JobQueue;
  imageQueue: ImageQueue;
  clock: Clock;
  push: PushSender | null;
  caches: ReadCaches;
  hub: RealtimeHub;
  sendLimit: ChatSendLimit;
  metrics: Metrics | undefined;
}

/** Registered with the /api prefix: the session is read first, then every feature's routes. */
export async function apiRoutes(api: FastifyInstance, deps: ApiDeps) {
  const { database, config, storage, payments, mailer, jobs, imageQueue, clock, push } = deps;
  const { caches, hub, sendLimit, metrics } = deps;
  const db = database.db;
  await api.register(session, {
    resume: (token) => resumeSession(db, token, config, new Date(), caches.sessions),
    config,
    caches,
    hub,
  });
  await api.register(healthRoutes, { database, hub, jobs });
  await api.register(authRoutes, { db, config, mailer });
  await api.register(emailVerificationRoutes, { db, config, mailer });
  await api.register(passwordResetRoutes, { db, config, mailer });
  await api.register(accountRoutes, { db, config, mailer, storage, imageQueue, jobs });
  await api.register(universityRoutes);
  await api.register(notificationRoutes, { db, caches });
  await api.register(conversationRoutes, { db, caches, sendLimit });
  await api.register(uploadRoutes, { storage, imageQueue });
  await api.register(itemRoutes, { db, config, caches, storage, jobs });
  await api.register(userRoutes, { db, config, caches });
  await api.register(reservationRoutes, { db, config, payments, jobs, clock, storage });
  await api.register(extensionRoutes, { db, config, payments, jobs });
  await api.register(handoverRoutes, { db, storage, clock });
  await api.register(waitlistRoutes, { db, config, clock });
  await api.register(savedSearchRoutes, { db });
  await api.register(askRoutes, { db, config, clock, jobs });
  await api.register(deliveryRoutes, { db, push });
  await api.register(reviewRoutes, { db, config });
  await api.register(paymentRoutes, { db, config, payments, jobs });
  const payoutDeps = {
    db,
    payments,
    appUrl: config.appUrl,
    // Transfers that waited for the lender's account go once it is active.
    onActive: (lenderId: string) => transferService.accountActive({ db, jobs }, lenderId),
  };
  await api.register(payoutRoutes, { deps: payoutDeps });
  await api.register(connectWebhookRoutes, {
    deps: payoutDeps,
    secret: config.stripe?.connectWebhookSecret ?? null,
  });
  await api.register(payoutProblemRoutes, { db, jobs });
  await api.register(reportRoutes, { db });
  await api.register(moderationRoutes, { db, config });
  await api.register(paymentStepRoutes, {
    deps: {
      db,
      payments,
      jobs,
      payment: config.payments,
      log: api.log,
      metrics,
      adminEmails: config.adminEmails,
    },
  });
  const disputeDeps = {
    db,
    payments,
    adminEmails: config.adminEmails,
    appUrl: config.appUrl,
    // A lender found at fault: their transfers of the booking are reversed for it (decision 061).
    onLenderAtFault: (tx: Db, booking: { reservationId: string; lenderId: string }) =>
      transferService.reconcileLater(tx, jobs, booking),
  };
  await api.register(disputeRoutes, { deps: disputeDeps });
  await api.register(ledgerRoutes, { db, config });
  await api.register(impactRoutes, { db, config });
  if (payments instanceof TestPaymentProvider) {
    await api.register(testPaymentRoutes, { provider: payments });
    await api.register(testDisputeRoutes, { deps: disputeDeps, provider: payments });
    // The test provider tells of its disputes through the function Stripe's webhook events reach.
    payments.onDispute = async (id) => {
      await disputeService.providerReported(disputeDeps, id);
    };
    // …and of what happens on lenders' accounts through the function Stripe's Connect webhook reaches.
    payments.onConnectEvent = async (event) => {
      await connectEventService.apply(payoutDeps, event);
    };
  }
}
