import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createMailer } from './adapters/mail/create-mailer.ts';
import type { Mailer } from './adapters/mail/mailer.ts';
import { createPaymentProvider } from './adapters/payments/create-provider.ts';
import type { PaymentProvider } from './adapters/payments/provider.ts';
import { TestPaymentProvider } from './adapters/payments/test-provider.ts';
import { createStorage } from './adapters/storage/create-storage.ts';
import type { Storage } from './adapters/storage/storage.ts';
import { createReadCaches, invalidateOnChanges } from './cache/read-caches.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { authRoutes } from './features/auth/routes.ts';
import { conversationRoutes } from './features/conversations/routes.ts';
import { chatSocket } from './features/conversations/socket.ts';
import { emailVerificationRoutes } from './features/email-verification/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { impactRoutes } from './features/impact/routes.ts';
import { itemRoutes } from './features/items/routes.ts';
import { moderationRoutes } from './features/moderation/routes.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import { paymentRoutes } from './features/payments/routes.ts';
import { reportRoutes } from './features/reports/routes.ts';
import { reservationRoutes } from './features/reservations/routes.ts';
import { reviewRoutes } from './features/reviews/routes.ts';
import { testPaymentRoutes } from './features/test-payments/routes.ts';
import { universityRoutes } from './features/universities/routes.ts';
import { uploadRoutes } from './features/uploads/routes.ts';
import { userRoutes } from './features/users/routes.ts';
import errors from './plugins/errors.ts';
import jobs from './plugins/jobs.ts';
import { createEmbeddedHub, createPostgresHub } from './plugins/realtime-hub.ts';
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
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Defaults to the one the configuration names. */
  storage?: Storage;
  payments?: PaymentProvider;
  mailer?: Mailer;
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
}: AppDeps) {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      // Never log credentials: cookies and auth headers are cut from request logs.
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: config.trustProxy,
    // Spec §2: routes match case-insensitively.
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('storage', storage);
  app.decorate('payments', payments);
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => mailer.close());

  await app.register(errors);
  await app.register(security, { config });
  await app.register(cookie);
  await app.register(rateLimit, { global: false });

  const db = database.db;
  // Recent answers in memory, emptied by the database's change announcements (docs/performance.md).
  const caches = createReadCaches(config.readCacheMs);

  await app.register(
    async (api) => {
      await api.register(session, { db, config, caches });
      await api.register(healthRoutes, { database });
      await api.register(authRoutes, { db, config, mailer });
      await api.register(emailVerificationRoutes, { db, config, mailer });
      await api.register(universityRoutes);
      await api.register(notificationRoutes, { db, caches });
      await api.register(conversationRoutes, { db, caches });
      await api.register(uploadRoutes, { storage });
      await api.register(itemRoutes, { db, config, caches });
      await api.register(userRoutes, { db, config, caches });
      await api.register(reservationRoutes, { db, config, payments });
      await api.register(reviewRoutes, { db, config });
      await api.register(paymentRoutes, { db, config, payments });
      await api.register(reportRoutes, { db });
      await api.register(moderationRoutes, { db, config });
      await api.register(impactRoutes, { db, config });
      if (payments instanceof TestPaymentProvider)
        await api.register(testPaymentRoutes, { provider: payments });
    },
    { prefix: '/api' },
  );

  await app.register(uploadsStatic, { storage, uploadsDir: config.uploadsDir });
  // Live events: the database's NOTIFYs, heard by every instance (PostgreSQL) or by this one (PGlite).
  const hub = database.pool
    ? await createPostgresHub(database.pool)
    : await createEmbeddedHub(database.pglite as NonNullable<typeof database.pglite>);
  app.addHook('onClose', async () => hub.close());
  invalidateOnChanges(caches, hub);
  await app.register(chatSocket, { db, config, hub, caches });
  await app.register(jobs, { database, config, payments });
  await app.register(web, {
    webDir: config.webDir,
    renderEntry: config.webRenderEntry,
    db,
    campusTimeZone: config.campusTimeZone,
    caches,
  });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
