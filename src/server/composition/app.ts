import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyServerOptions, type RouteOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createMailer } from '../adapters/mail/create-mailer.ts';
import type { Mailer } from '../adapters/mail/mailer.ts';
import { createPaymentProvider } from '../adapters/payments/create-provider.ts';
import type { PaymentProvider } from '../adapters/payments/provider.ts';
import { createStorage } from '../adapters/storage/create-storage.ts';
import type { Storage } from '../adapters/storage/storage.ts';
import { createReadCaches, invalidateOnChanges } from '../cache/read-caches.ts';
import { type Clock, systemClock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { createEmbeddedHub, createPostgresHub } from '../db/realtime-hub.ts';
import { createChatSendLimit } from '../features/conversations/send-limit.ts';
import { chatSocket } from '../features/conversations/socket.ts';
import { createPushSender, type PushSender } from '../features/deliveries/push-sender.ts';
import { deliveryService } from '../features/deliveries/service.ts';
import { newListingReviser } from '../features/items/new-listings.ts';
import { tellSearches } from '../features/items/searches-told.ts';
import { learnFromChanges } from '../features/items/vocabulary.ts';
import { paymentStepService } from '../features/payment-steps/service.ts';
import { siteFileRoutes } from '../features/site-files/routes.ts';
import { createImageQueue, type ImageQueue } from '../features/uploads/image-queue.ts';
import compression from '../http/compression.ts';
import { dbLanes } from '../http/db-lanes.ts';
import emptyBodies from '../http/empty-bodies.ts';
import errors from '../http/error-replies.ts';
import idempotency from '../http/idempotency.ts';
import inputGuard from '../http/input-guard.ts';
import { readAdmission } from '../http/read-admission.ts';
import requestIds, { requestIdOf } from '../http/request-ids.ts';
import { responseSerializer } from '../http/response-serializer.ts';
import routeScopes from '../http/route-scopes.ts';
import security from '../http/security.ts';
import uploadsStatic from '../http/uploads-static.ts';
import { createJobQueue, type JobQueue } from '../jobs/queue.ts';
import { logError } from '../log-errors.ts';
import metricsEndpoint from '../metrics/endpoint.ts';
import { createMetrics, type FeatureReads, type Metrics } from '../metrics/metrics.ts';
import { apiRoutes } from './api-routes.ts';
import backgroundJobs from './jobs.ts';
import web from './web.ts';

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
    // X-Request-Id when it is a plain token, else a new UUID (http/request-ids.ts); Fastify's own
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
  // Before any work for a read: only so many are in progress at once, so a write never waits behind
  // all of them at each of its steps (decision 084).
  const admission = readAdmission(config.readConcurrency);
  await app.register(admission.plugin);
  // Before any hook that reads the database: every request's statements go to its lane's pool.
  await app.register(dbLanes);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer);
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
      // A transfer to a lender: the same patience; one failing every retry is marked failed.
      'payout-transfers': {
        retryLimit: config.payments.retryLimit,
        retryDelaySeconds: config.payments.retryDelaySeconds,
        expireInSeconds: Math.ceil(config.payments.stepLeaseMs / 1000),
      },
      // Matching a listing reads only our database: a few quick retries, then it is given up (logged).
      'saved-search-matches': { retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 120 },
      // Telling lenders of a new ask: only our own database is involved, so a few quick retries.
      'ask-matches': { retryLimit: 5, retryDelaySeconds: 10, expireInSeconds: 120 },
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
  // Before every route: JSON and text answers compressed as the browser accepts.
  await app.register(compression);

  const db = database.db;
  // Recent answers in memory, emptied by the database's change announcements (docs/performance.md).
  const caches = createReadCaches(config.readCacheMs, config.readCacheBytes, config.readCacheAnnouncedMs);
  // Live events: the database's NOTIFYs, heard by every instance (PostgreSQL) or by this one (PGlite).
  const hub = database.newClient
    ? await createPostgresHub(database.newClient, app.log, (text, values) =>
        // The mark a write waits for: on the writing pool, never behind the reads.
        (database.writePool ?? database.pool)!.query(text, values),
      )
    : await createEmbeddedHub(database.pglite as NonNullable<typeof database.pglite>);
  app.addHook('onClose', async () => hub.close());
  // A new listing goes onto the first pages of the newest-first lists it enters (decision 083).
  invalidateOnChanges(caches, hub, newListingReviser(db));
  // The search vocabulary in memory learns new words as items change (decision 065).
  learnFromChanges(db, hub);
  // Remembered searches hear of the items their words match as they change (decision 076).
  tellSearches(db, caches, hub, config.readCacheAnnouncedMs);
  const sendLimit = createChatSendLimit();

  // Measured only when someone may read the figures (METRICS_TOKEN); registered before every route
  // it times.
  const metricsToken = config.metrics.token;
  const reads: FeatureReads = {
    unfinishedSteps: () => paymentStepService.unfinishedCounts(db),
    openMismatches: () => paymentStepService.openMismatchCount(db),
    deliveryBacklog: (now) => deliveryService.backlog(db, now),
  };
  const metrics = metricsToken
    ? createMetrics({ database, hub, caches, jobs, reads, log: app.log, admission: admission.counts })
    : undefined;
  app.decorate('metrics', metrics);
  if (metrics && metricsToken) {
    app.addHook('onClose', async () => metrics.close());
    await app.register(metricsEndpoint, { metrics, token: metricsToken });
  }

  await app.register(apiRoutes, {
    prefix: '/api',
    database,
    config,
    storage,
    payments,
    mailer,
    jobs,
    imageQueue,
    clock,
    push,
    caches,
    hub,
    sendLimit,
    metrics,
  });

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
