import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyServerOptions, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createMailer } from './adapters/mail/create-mailer.ts';
import type { Mailer } from './adapters/mail/mailer.ts';
import { createPaymentProvider } from './adapters/payments/create-provider.ts';
import type { PaymentProvider } from './adapters/payments/provider.ts';
import { TestPaymentProvider } from './adapters/payments/test-provider.ts';
import { createStorage } from './adapters/storage/create-storage.ts';
import type { Storage } from './adapters/storage/storage.ts';
import { createReadCaches, invalidateOnChanges } from './cache/read-caches.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { accountRoutes } from './features/account/routes.ts';
import { authRoutes } from './features/auth/routes.ts';
import { conversationRoutes } from './features/conversations/routes.ts';
import { createChatSendLimit } from './features/conversations/send-limit.ts';
import { chatSocket } from './features/conversations/socket.ts';
import { createPushSender, type PushSender } from './features/deliveries/push-sender.ts';
import { deliveryRoutes } from './features/deliveries/routes.ts';
import { emailVerificationRoutes } from './features/email-verification/routes.ts';
import { handoverRoutes } from './features/handovers/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { impactRoutes } from './features/impact/routes.ts';
import { itemRoutes } from './features/items/routes.ts';
import { moderationRoutes } from './features/moderation/routes.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import { passwordResetRoutes } from './features/password-reset/routes.ts';
import { paymentStepRoutes } from './features/payment-steps/routes.ts';
import { paymentRoutes } from './features/payments/routes.ts';
import { reportRoutes } from './features/reports/routes.ts';
import { extensionRoutes } from './features/reservations/extensions/routes.ts';
import { reservationRoutes } from './features/reservations/routes.ts';
import { reviewRoutes } from './features/reviews/routes.ts';
import { siteFileRoutes } from './features/site-files/routes.ts';
import { testPaymentRoutes } from './features/test-payments/routes.ts';
import { universityRoutes } from './features/universities/routes.ts';
import { createImageQueue, type ImageQueue } from './features/uploads/image-queue.ts';
import { uploadRoutes } from './features/uploads/routes.ts';
import { userRoutes } from './features/users/routes.ts';
import { waitlistRoutes } from './features/waitlist/routes.ts';
import { createJobQueue, type JobQueue } from './jobs/queue.ts';
import { logError } from './log-errors.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import compression from './plugins/compression.ts';
import emptyBodies from './plugins/empty-bodies.ts';
import errors from './plugins/errors.ts';
import idempotency from './plugins/idempotency.ts';
import inputGuard from './plugins/input-guard.ts';
import backgroundJobs from './plugins/jobs.ts';
import metricsEndpoint from './plugins/metrics.ts';
import { createEmbeddedHub, createPostgresHub } from './plugins/realtime-hub.ts';
import requestIds, { requestIdOf } from './plugins/request-ids.ts';
import routeScopes from './plugins/route-scopes.ts';
import security from './plugins/security.ts';
import session from './plugins/session.ts';
import uploadsStatic from './plugins/uploads-static.ts';
import web from './plugins/web.ts';

// The whole application as one Fastify instance; it never listens (main.ts does), so tests use inject.

declare module 'fastify' {
  interface FastifyInstance {
    /** Where photos go (local disk or an S3 bucket); the demo seed stores its photos through it too. */
    storage: Storage;
    /** The card payment provider (the built-in test provider, or Stripe). */
    payments: PaymentProvider;
    /** Where e-mail goes (the outbox folder, or an SMTP server). */
    mailer: Mailer;
    /** The durable job queue (pg-boss on our database): payment steps and their retries. */
    jobs: JobQueue;
    /** What GET /metrics shows; undefined when METRICS_TOKEN is unset (nothing is measured then). */
    metrics: Metrics | undefined;
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  /** `false` for silence; options (a test's `stream`, say) are added to the defaults below. */
  logger?: FastifyServerOptions['logger'];
  /** Defaults to the one the configuration names. */
  storage?: Storage;
  payments?: PaymentProvider;
  mailer?: Mailer;
  /** Defaults to one sized by the configuration (IMAGE_PROCESSING_*). */
  imageQueue?: ImageQueue;
  /** Sees every route as it is added, schemas included: the API fuzz test collects them this way. */
  onRoute?: (route: RouteOptions) => void;
  /** The calendar jobs' 'now' (reminders); tests pass one they move. */
  clock?: Clock;
  /** Web Push; defaults to one with the configured VAPID keys, or none (push off) without them. */
  push?: PushSender | null;
}

/** JSON bodies are small; photo uploads (multipart) set their own limits. */
const JSON_BODY_LIMIT = 100 * 1024;

export async function buildApp({
  config,
  database,
  logger,
  storage = createStorage(config),
  payments = createPaymentProvider(config, database.db),
  mailer = createMailer(config),
  imageQueue = createImageQueue(config.imageProcessing),
  onRoute,
  clock = systemClock,
  push = config.vapid ? createPushSender(config.vapid) : null,
}: AppDeps) {
  const app = Fastify({
    logger:
      logger === false
        ? false
        : {
            level: config.logLevel,
            // Never log credentials: cookies and auth headers are cut from request logs.
            redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
            ...(typeof logger === 'object' ? logger : {}),
            // Errors without the values of their queries (log-errors.ts), whoever logs them.
            serializers: {
              ...(typeof logger === 'object' ? logger.serializers : {}),
              err: logError,
              error: logError,
            },
          },
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: config.trustProxy,
    // X-Request-Id when it is a plain token, else a new UUID (plugins/request-ids.ts); Fastify's own
    // reading of the header would take any value.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Spec §2: routes match case-insensitively.
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  if (onRoute) app.addHook('onRoute', onRoute);
  // Before every route: each /api route says who may call it, or the app does not start.
  await app.register(routeScopes);
  await app.register(requestIds);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('storage', storage);
  app.decorate('payments', payments);
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => mailer.close());

  // Started before any route can send it a job; stopped (its running jobs finished) before the
  // database closes.
  const jobs = createJobQueue(database, {
    work: config.jobs.enabled,
    pollingSeconds: config.jobs.pollingSeconds,
    policies: {
      'payment-steps': {
        retryLimit: config.payments.retryLimit,
        retryDelaySeconds: config.payments.retryDelaySeconds,
        expireInSeconds: Math.ceil(config.payments.stepLeaseMs / 1000),
      },
      // The same patience with the provider as a payment's steps.
      'forget-customers': {
        retryLimit: config.payments.retryLimit,
        retryDelaySeconds: config.payments.retryDelaySeconds,
        expireInSeconds: Math.ceil(config.payments.stepLeaseMs / 1000),
      },
    },
    log: app.log,
  });
  await jobs.start();
  app.decorate('jobs', jobs);
  app.addHook('onClose', async () => jobs.stop());

  await app.register(errors);
  await app.register(emptyBodies);
  await app.register(inputGuard);
  // Before every route it keys, and before compression (it keeps the answers as the routes wrote them).
  await app.register(idempotency, { db: database.db });
  await app.register(security, { config });
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  // Before every route: JSON and text answers compressed as the browser accepts (issue 16).
  await app.register(compression);

  const db = database.db;
  // Recent answers in memory, emptied by the database's change announcements (docs/performance.md).
  const caches = createReadCaches(config.readCacheMs);
  // Live events: the database's NOTIFYs, heard by every instance (PostgreSQL) or by this one (PGlite).
  const hub = database.newClient
    ? await createPostgresHub(database.newClient, app.log, (text, values) =>
        database.pool!.query(text, values),
      )
    : await createEmbeddedHub(database.pglite as NonNullable<typeof database.pglite>);
  app.addHook('onClose', async () => hub.close());
  invalidateOnChanges(caches, hub);
  const sendLimit = createChatSendLimit(db);

  // Measured only when someone may read the figures (METRICS_TOKEN); registered before every route
  // it times.
  const metricsToken = config.metrics.token;
  const metrics = metricsToken ? createMetrics({ database, hub, caches, jobs, log: app.log }) : undefined;
  app.decorate('metrics', metrics);
  if (metrics && metricsToken) {
    app.addHook('onClose', async () => metrics.close());
    await app.register(metricsEndpoint, { metrics, token: metricsToken });
  }

  await app.register(
    async (api) => {
      await api.register(session, { db, config, caches, hub });
      await api.register(healthRoutes, { database, hub, jobs });
      await api.register(authRoutes, { db, config, mailer });
      await api.register(emailVerificationRoutes, { db, config, mailer });
      await api.register(passwordResetRoutes, { db, config, mailer });
      await api.register(accountRoutes, { db, config, mailer, storage, imageQueue, jobs });
      await api.register(universityRoutes);
      await api.register(notificationRoutes, { db, caches });
      await api.register(conversationRoutes, { db, caches, sendLimit });
      await api.register(uploadRoutes, { storage, imageQueue });
      await api.register(itemRoutes, { db, config, caches, storage });
      await api.register(userRoutes, { db, config, caches });
      await api.register(reservationRoutes, { db, config, payments, jobs, clock, storage });
      await api.register(extensionRoutes, { db, config, payments, jobs });
      await api.register(handoverRoutes, { db, storage, clock });
      await api.register(waitlistRoutes, { db, config, clock });
      await api.register(deliveryRoutes, { db, push });
      await api.register(reviewRoutes, { db, config });
      await api.register(paymentRoutes, { db, config, payments, jobs });
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
      await api.register(impactRoutes, { db, config });
      if (payments instanceof TestPaymentProvider)
        await api.register(testPaymentRoutes, { provider: payments });
    },
    { prefix: '/api' },
  );

  await app.register(uploadsStatic, { storage, uploadsDir: config.uploadsDir });
  await app.register(chatSocket, { db, config, hub, caches, sendLimit, metrics });
  await app.register(backgroundJobs, { database, config, payments, jobs, metrics, clock, mailer, push });
  await app.register(siteFileRoutes, { db, appUrl: config.appUrl });
  await app.register(web, {
    webDir: config.webDir,
    renderEntry: config.webRenderEntry,
    db,
    campusTimeZone: config.campusTimeZone,
    caches,
    appUrl: config.appUrl,
    config,
  });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
