import path from 'node:path';
import type { ServiceFeeRates } from '#shared/booking/service-fee.ts';
import { type Env, settingsSchema } from './config-environment.ts';
import { DEMO_MODERATOR } from './demo/accounts.ts';
import { productionRisks } from './production-risks.ts';

// Every setting comes from the environment (config-environment.ts), parsed once at start. A bad value
// stops the server with a readable list instead of a surprise at the first request.

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: Env) {
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    /**
     * In production, what an ALLOW_* setting let through (the start-up banner says so): e.g.
     * `ALLOW_TEST_PAYMENTS (test payments)`. Empty elsewhere, and in a production without any.
     */
    stagingAllowances:
      env.NODE_ENV === 'production'
        ? productionRisks(env)
            .filter((risk) => env[risk.allowance])
            .map((risk) => `${risk.allowance} (${risk.short})`)
        : [],
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    /** PostgreSQL's pools per instance (db/client.ts); the embedded database has one connection. */
    databasePools: {
      read: env.DATABASE_POOL_SIZE,
      write: env.DATABASE_WRITE_POOL_SIZE,
      replicaUrl: env.DATABASE_REPLICA_URL,
    },
    /** The embedded database's buffer pool (db/client.ts); unused with DATABASE_URL. */
    embeddedBufferPoolMb: env.EMBEDDED_BUFFER_POOL_MB,
    appOrigins: env.APP_ORIGINS,
    cookieSecure: env.COOKIE_SECURE,
    trustProxy: env.TRUST_PROXY,
    sessionDays: env.SESSION_DAYS,
    authRateLimit: { max: env.AUTH_RATE_LIMIT, windowMs: env.AUTH_RATE_WINDOW_SECONDS * 1000 },
    loginAccountRateLimit: {
      max: env.LOGIN_ACCOUNT_RATE_LIMIT,
      windowMs: env.LOGIN_ACCOUNT_RATE_WINDOW_SECONDS * 1000,
    },
    passwordResetRateLimit: {
      perAccount: env.PASSWORD_RESET_ACCOUNT_LIMIT,
      perIp: env.PASSWORD_RESET_IP_LIMIT,
      windowSeconds: env.PASSWORD_RESET_RATE_WINDOW_SECONDS,
    },
    imageProcessing: {
      concurrency: env.IMAGE_PROCESSING_CONCURRENCY,
      waiting: env.IMAGE_PROCESSING_QUEUE,
      pixels: env.IMAGE_PIXEL_BUDGET_MEGAPIXELS * 1_000_000,
    },
    seedDemo: env.SEED_DEMO,
    adminEmails: toAdminEmails(env),
    wsHeartbeatMs: Math.round(env.WS_HEARTBEAT_SECONDS * 1000),
    readCacheMs: Math.round(env.READ_CACHE_SECONDS * 1000),
    readCacheAnnouncedMs: Math.round(
      Math.max(env.READ_CACHE_SECONDS, env.READ_CACHE_ANNOUNCED_SECONDS) * 1000,
    ),
    readCacheBytes: env.READ_CACHE_MEGABYTES * 1024 * 1024,
    /** Reads in progress at once; the others wait their turn (http/read-admission.ts). 0: no limit. */
    readConcurrency: env.READ_CONCURRENCY,
    jobs: {
      enabled: env.JOBS_ENABLED,
      intervalMs: env.JOBS_INTERVAL_SECONDS * 1000,
      reservationExpiryHours: env.RESERVATION_EXPIRY_HOURS,
      /** Decision 062: bookings starting further ahead are authorised off-session this many days before. */
      authoriseAheadDays: env.AUTHORISE_AHEAD_DAYS,
      /** How often an idle worker looks for queued jobs; a commit in this process wakes it at once. */
      pollingSeconds: 2,
    },
    payments: {
      retryLimit: env.PAYMENT_RETRY_LIMIT,
      retryDelaySeconds: env.PAYMENT_RETRY_DELAY_SECONDS,
      /** A runner holds a step this long; after it, a crashed runner's step is taken again. */
      stepLeaseMs: 120_000,
      abandonedAfterMs: env.PAYMENT_ABANDONED_MINUTES * 60_000,
      /** After pickup, the rental no early return can take back is sent to the lender this much later. */
      payoutDelayMs: env.PAYOUT_DELAY_HOURS * 3_600_000,
    },
    /** The US 1099-K thresholds a lender's yearly totals are flagged over (decision 058). */
    taxReport: {
      thresholdCents: env.TAX_REPORT_THRESHOLD_CENTS,
      thresholdCount: env.TAX_REPORT_THRESHOLD_COUNT,
    },
    /** Decision 055: the platform's share of a rental, snapshotted on each request (service-fee.ts). */
    fees: {
      serviceFeePercent: env.SERVICE_FEE_PERCENT,
      serviceFeeMinCents: env.SERVICE_FEE_MIN,
      serviceFeeMaxCents: env.SERVICE_FEE_MAX,
      lenderCommissionPercent: env.LENDER_COMMISSION_PERCENT,
    } satisfies ServiceFeeRates,
    campusTimeZone: env.CAMPUS_TIME_ZONE,
    logLevel: env.LOG_LEVEL,
    /** Set: GET /metrics is served to this bearer token; unset: no /metrics, nothing measured. */
    metrics: { token: env.METRICS_TOKEN },
    /** Photos on local disk (served at /uploads/) when no S3 bucket is configured. */
    uploadsDir: path.join(dataDir, 'uploads'),
    s3: toS3Config(env),
    stripe: toStripeConfig(env),
    mail: {
      /** Unset: every message is written to `outboxDir` as an .eml file instead of being sent. */
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      outboxDir: path.join(dataDir, 'outbox'),
    },
    /** Web Push's VAPID keys; null: push is off. */
    vapid:
      env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT }
        : null,
    deliveryIntervalMs: env.DELIVERY_INTERVAL_SECONDS * 1000,
    /** Decision 067: listings matched against saved searches by a job, matches batched per window. */
    savedSearches: {
      matching: env.SAVED_SEARCH_MATCHING,
      batchMs: env.SAVED_SEARCH_BATCH_MINUTES * 60_000,
    },
    /** Links in e-mails start with this (no trailing slash). */
    appUrl: env.APP_URL ?? `http://localhost:${env.PORT}`,
    emailVerificationHours: env.EMAIL_VERIFICATION_HOURS,
    /** Where the built web app lives; served when present. */
    webDir: path.resolve('dist/web'),
    /** The web app's server entry (built with it); Home and Browse are pre-rendered for visitors when present. */
    webRenderEntry: path.resolve('dist/server/entry-server.js'),
  };
}

/**
 * Who moderates (decision 009). ADMIN_EMAILS when set. Unset, the demo campus's moderator account is
 * the admin wherever the demo campus is loaded (embedded database, SEED_DEMO on, not production), so
 * `npm start` lets a reviewer try moderation; anywhere else an unset ADMIN_EMAILS means no admins.
 */
function toAdminEmails(env: Env): string[] {
  if (env.ADMIN_EMAILS) return env.ADMIN_EMAILS;
  const demoCampus = env.SEED_DEMO && !env.DATABASE_URL && env.NODE_ENV !== 'production';
  return demoCampus ? [DEMO_MODERATOR.email] : [];
}

/** The bucket settings, or undefined when photos stay on local disk. */
function toS3Config(env: Env) {
  if (!env.S3_BUCKET || !env.S3_PUBLIC_URL) return undefined;
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    publicUrl: env.S3_PUBLIC_URL,
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
  };
}

/** Stripe's keys, or undefined when the built-in test provider takes payments. */
function toStripeConfig(env: Env) {
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_PUBLISHABLE_KEY) return undefined;
  let api: { host: string; port: number; protocol: 'http' | 'https' } | undefined;
  if (env.STRIPE_API_URL) {
    const url = new URL(env.STRIPE_API_URL);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    api = { host: url.hostname, port: Number(url.port) || (protocol === 'http' ? 80 : 443), protocol };
  }
  return {
    secretKey: env.STRIPE_SECRET_KEY,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null,
    connectWebhookSecret: env.STRIPE_CONNECT_WEBHOOK_SECRET ?? null,
    api,
  };
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws ConfigError listing every bad setting by name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings in .env files mean "not set", so defaults apply.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = settingsSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  return toConfig(parsed.data);
}

/** A config for tests: defaults plus overrides, never read from the process environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Tests sign in far more often than a person; the rate-limit test sets its own small allowance.
  const base = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    AUTH_RATE_LIMIT: '10000',
    LOGIN_ACCOUNT_RATE_LIMIT: '10000',
    PASSWORD_RESET_ACCOUNT_LIMIT: '10000',
    PASSWORD_RESET_IP_LIMIT: '10000',
    // Jobs run on a timer; tests call the job functions themselves.
    JOBS_ENABLED: 'false',
  });
  return { ...base, ...overrides };
}
