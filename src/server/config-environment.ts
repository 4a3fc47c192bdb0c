import { z } from 'zod';
import { DEFAULT_CAMPUS_TIME_ZONE } from '#shared/constants.ts';
import { productionRisks } from './production-risks.ts';

/**
 * The embedded database's buffer pool in megabytes (EMBEDDED_BUFFER_POOL_MB). PostgreSQL's default
 * (128MB) is allocated and zeroed whole inside PGlite's WebAssembly memory, which never shrinks: 150 MB
 * of the restarted server's 372 MB at idle (decision 040). A pool too small for the pages a campus
 * reads all day sends each uncached read back through Node's file system for its pages, on the
 * database's busy thread (decision 095 has the trade measured).
 */
export const EMBEDDED_BUFFER_POOL_MB = 32;

// The environment variables the server reads: each one's type, default and the message a bad value
// gets, and the settings that only make sense together. config.ts turns them into the Config the code
// uses. `.env.example` mirrors this file.

/** How long a read cache keeps an answer unless READ_CACHE_SECONDS says otherwise. */
export const READ_CACHE_SECONDS_DEFAULT = 30;
/** How long an announced answer is kept unless READ_CACHE_ANNOUNCED_SECONDS says otherwise. */
export const READ_CACHE_ANNOUNCED_SECONDS_DEFAULT = 600;

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .positive('must be above 0');

/** A percent from 0 to 100 with at most two decimals (7.5 is 7.5 %). */
const percent = z.coerce
  .number({ error: 'must be a percent such as 10 or 7.5' })
  .min(0, 'must be 0 or more')
  .max(100, 'must be at most 100')
  .refine((v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-9, {
    message: 'must have at most two decimals',
  });

/** An amount in dollars with at most two decimals (1 or 1.50), as whole cents. */
const dollars = z.coerce
  .number({ error: 'must be an amount in dollars such as 1 or 1.50' })
  .min(0, 'must be 0 or more')
  .max(10_000, 'must be at most 10000')
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-9, {
    message: 'must have at most two decimals (cents)',
  })
  .transform((v) => Math.round(v * 100));

const postgresUrl = z
  .string()
  .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must start with postgres:// or postgresql://');

const httpUrl = (example: string) =>
  z
    .url({ protocol: /^https?$/, error: `must be a URL such as ${example}` })
    .transform((v) => v.replace(/\/+$/, ''));

export const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
    .default('development'),
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int()
    .min(0, 'must be a port number')
    .max(65535, 'must be a port number')
    .default(5000),
  HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  /** PostgreSQL: connections this instance opens for reads and background work (docs/deploy.md). */
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(2, 'must be at least 2')
    .max(500, 'must be at most 500')
    .default(10),
  /** PostgreSQL: connections this instance keeps apart for transactions and changing requests. */
  DATABASE_WRITE_POOL_SIZE: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(2, 'must be at least 2')
    .max(500, 'must be at most 500')
    .default(4),
  /** Reads one instance works on at once; the others wait their turn, changing requests never (decision 084). 0: no limit. */
  READ_CONCURRENCY: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(10_000, 'must be at most 10000')
    .default(4),
  /** The embedded database (no DATABASE_URL): its buffer pool in megabytes (db/client.ts, decision 095). */
  EMBEDDED_BUFFER_POOL_MB: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1024, 'must be at most 1024')
    .default(EMBEDDED_BUFFER_POOL_MB),
  /** PostgreSQL: a read replica for the catalogue's reads (Home, Browse, search, item pages). */
  DATABASE_REPLICA_URL: postgresUrl.optional(),
  /** Origins allowed to send mutating requests besides the server's own (comma-separated), e.g. the Vite dev server. */
  APP_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ error: 'must be a comma-separated list of URLs' }))),
  /** Mark the session cookie Secure: on whenever the app is served over https. */
  COOKIE_SECURE: bool.default(false),
  /** Believe X-Forwarded-* headers (behind a load balancer). */
  TRUST_PROXY: bool.default(false),
  SESSION_DAYS: positiveInt.default(30),
  /**
   * Sign-in and sign-up attempts allowed per IP in each AUTH_RATE_WINDOW_SECONDS. A campus NAT puts
   * many students behind one address, so this is loose; the per-account limit protects a password.
   */
  AUTH_RATE_LIMIT: positiveInt.default(30),
  AUTH_RATE_WINDOW_SECONDS: positiveInt.default(60),
  /** Sign-in attempts allowed per account (e-mail), from anywhere, in each LOGIN_ACCOUNT_RATE_WINDOW_SECONDS. */
  LOGIN_ACCOUNT_RATE_LIMIT: positiveInt.default(10),
  LOGIN_ACCOUNT_RATE_WINDOW_SECONDS: positiveInt.default(900),
  /**
   * Password reset e-mails asked for per address (whether or not an account uses it, so the
   * limit tells nobody who has one) and per IP, in each PASSWORD_RESET_RATE_WINDOW_SECONDS.
   */
  PASSWORD_RESET_ACCOUNT_LIMIT: positiveInt.default(3),
  PASSWORD_RESET_IP_LIMIT: positiveInt.default(20),
  PASSWORD_RESET_RATE_WINDOW_SECONDS: positiveInt.default(3600),
  /** Uploads whose photos this process decodes and re-encodes at the same time (CPU-bound work). */
  IMAGE_PROCESSING_CONCURRENCY: positiveInt.default(2),
  /** Uploads that may wait for a turn; past that an upload is refused with 503 and Retry-After. */
  IMAGE_PROCESSING_QUEUE: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .default(10),
  /**
   * Megapixels the photos of the uploads this process has admitted may decode to together (about 4 MB
   * of memory each); past it an upload is refused with 503 and Retry-After. At least one upload's 64.
   */
  IMAGE_PIXEL_BUDGET_MEGAPIXELS: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(64, 'must be at least 64 (one upload of five photos)')
    .default(128),
  /** Load the demo campus into an empty embedded database at start. */
  SEED_DEMO: bool.default(true),
  /** The moderators: e-mail addresses (comma-separated, any case) of the accounts that may open /admin. */
  ADMIN_EMAILS: z
    .string()
    .optional()
    .transform((v) =>
      v === undefined
        ? undefined
        : v
            .split(',')
            .map((s) => s.trim().toLowerCase())
            .filter(Boolean),
    )
    .superRefine((list, ctx) => {
      const bad = list?.filter((e) => !z.email().safeParse(e).success) ?? [];
      if (bad.length) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of e-mail addresses (not ${bad.join(', ')})`,
        });
      }
    }),
  /** Campus time zone for calendar rules: the campus's days, not the server's. */
  CAMPUS_TIME_ZONE: z
    .string()
    .default(DEFAULT_CAMPUS_TIME_ZONE)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as America/Los_Angeles'),
  /** Ping live sockets this often; one that has not answered by the next ping is dropped. Below a load balancer's idle timeout. */
  WS_HEARTBEAT_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds' })
    .positive('must be above 0')
    .max(3600, 'must be at most 3600')
    .default(30),
  /**
   * The longest a read cache (catalogue, sessions, unread polls) may serve an answer; changes reach
   * the caches at once through the database (docs/performance.md). 0 turns the caches off.
   */
  READ_CACHE_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds' })
    .min(0, 'must be 0 (off) or more')
    .max(3600, 'must be at most 3600')
    .default(READ_CACHE_SECONDS_DEFAULT),
  /**
   * The longest a list, an item page, a profile, a live session, an unread poll or a search told of
   * the items its words match is kept: the database announces every change to them (a review revealed
   * by its waiting time too, by the jobs' round), so this bounds only an announcement that went
   * missing. Searches with a corrected word, and tokens that find no session, keep READ_CACHE_SECONDS.
   * Never below READ_CACHE_SECONDS.
   */
  READ_CACHE_ANNOUNCED_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds' })
    .min(0, 'must be 0 or more')
    .max(86_400, 'must be at most 86400')
    .default(READ_CACHE_ANNOUNCED_SECONDS_DEFAULT),
  /**
   * The most the catalogue's remembered answers (lists, searches, item pages, profiles) may take, in
   * megabytes; past it the least recently used go first. Too little, and a campus's everyday searches
   * push each other out before they are asked again (docs/performance.md).
   */
  READ_CACHE_MEGABYTES: z.coerce
    .number({ error: 'must be a number of megabytes' })
    .int('must be a whole number of megabytes')
    .min(1, 'must be at least 1')
    .max(16_384, 'must be at most 16384')
    .default(256),
  /** Run background jobs (payment steps, reservation expiry, the payment sweeper) in this process. */
  JOBS_ENABLED: bool.default(true),
  JOBS_INTERVAL_SECONDS: positiveInt.default(300),
  /** A provider call that fails is tried again this many times, waiting twice as long each time. */
  PAYMENT_RETRY_LIMIT: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(30, 'must be at most 30')
    .default(8),
  /** The first wait before a failed provider call is tried again (8 retries from 10 s: about 42 minutes in all). */
  PAYMENT_RETRY_DELAY_SECONDS: positiveInt.default(10),
  /** A card authorisation that no reservation request used within this many minutes is released. */
  PAYMENT_ABANDONED_MINUTES: positiveInt.default(60),
  /** Hours after pickup when the part of a rental no early return can take back goes to the lender (0: at once). */
  PAYOUT_DELAY_HOURS: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(24 * 30, 'must be at most 720')
    .default(24),
  /** US 1099-K: a lender paid more than this many cents in a calendar year… */
  TAX_REPORT_THRESHOLD_CENTS: positiveInt.default(2_000_000),
  /** …in more than this many payments is flagged for moderators (decision 058). */
  TAX_REPORT_THRESHOLD_COUNT: positiveInt.default(200),
  /**
   * Decision 055: the borrower's service fee, this percent of the rental, at least SERVICE_FEE_MIN and
   * at most SERVICE_FEE_MAX dollars; none on a free item.
   */
  SERVICE_FEE_PERCENT: percent.default(10),
  SERVICE_FEE_MIN: dollars.prefault(1),
  SERVICE_FEE_MAX: dollars.prefault(15),
  /** The commission taken from the lender's rental earning (never from a kept deposit); 0: none. */
  LENDER_COMMISSION_PERCENT: percent.default(0),
  /** Pending requests not answered within this many hours expire. */
  RESERVATION_EXPIRY_HOURS: positiveInt.default(48),
  /**
   * Decision 062: a paid booking that starts more than this many days ahead saves the borrower's card
   * at the request and authorises it off-session this many days before the start (a hold must still
   * be alive at the start: at most 5, a day short of the six a request may wait on one).
   */
  AUTHORISE_AHEAD_DAYS: positiveInt.max(5, 'must be 5 or less').default(5),
  /**
   * GET /metrics (Prometheus) answers requests carrying `Authorization: Bearer <METRICS_TOKEN>`. Unset,
   * there is no /metrics (a 404 like any unknown path) and nothing is measured.
   */
  METRICS_TOKEN: z
    .string()
    .regex(
      /^[A-Za-z0-9._~+/=-]{16,200}$/,
      'must be 16 to 200 letters, digits or ._~+/=- (a bearer token; e.g. the output of openssl rand -hex 32)',
    )
    .optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  /** Keep photos in this S3-compatible bucket instead of DATA_DIR/uploads. */
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('auto'),
  /** The service's endpoint when it is not AWS itself (MinIO, Cloudflare R2, …). */
  S3_ENDPOINT: httpUrl('https://<account>.r2.cloudflarestorage.com').optional(),
  /** Without keys the AWS SDK's own credential chain applies (instance role, AWS_* variables). */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Where browsers fetch the bucket's objects: photo URLs are `${S3_PUBLIC_URL}/items/…`. */
  S3_PUBLIC_URL: httpUrl('https://photos.campusloop.app').optional(),
  /** Address objects as endpoint/bucket/key (MinIO needs it) instead of bucket.endpoint/key. */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** Take card payments through Stripe instead of the built-in test provider. */
  STRIPE_SECRET_KEY: z
    .string()
    .refine((v) => /^(sk|rk)_/.test(v), 'must be a Stripe secret key such as sk_test_… or sk_live_…')
    .optional(),
  /** The browser's key for Stripe Elements; required with STRIPE_SECRET_KEY. */
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .refine((v) => v.startsWith('pk_'), 'must be a Stripe publishable key such as pk_test_… or pk_live_…')
    .optional(),
  /** The signing secret of the webhook endpoint (/api/payments/webhook); without it webhooks are refused. */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .refine((v) => v.startsWith('whsec_'), 'must be a webhook signing secret such as whsec_…')
    .optional(),
  /**
   * The signing secret of the Connect webhook endpoint (/api/webhooks/connect: events on lenders'
   * connected accounts); without it Connect webhooks are refused.
   */
  STRIPE_CONNECT_WEBHOOK_SECRET: z
    .string()
    .refine((v) => v.startsWith('whsec_'), 'must be a webhook signing secret such as whsec_…')
    .optional(),
  /** Send the SDK's calls here instead of api.stripe.com: a local fake Stripe in tests. */
  STRIPE_API_URL: httpUrl('http://127.0.0.1:12111').optional(),
  /** Send e-mail through this SMTP server instead of writing it to DATA_DIR/outbox. */
  SMTP_URL: z
    .string()
    .refine(
      (v) => /^smtps?:\/\/[^/\s]+/.test(v),
      'must be an SMTP URL such as smtp://user:password@smtp.example.edu:587 or smtps://…:465',
    )
    .optional(),
  /** The sender of every e-mail: an address, or a name and an address in angle brackets. */
  MAIL_FROM: z
    .string()
    .trim()
    .refine(
      (v) => /^(?:[^<>@]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/.test(v),
      'must be an e-mail address such as no-reply@campusloop.app or CampusLoop <no-reply@campusloop.app>',
    )
    .default('CampusLoop <no-reply@campusloop.app>'),
  /**
   * Web Push: the VAPID key pair (`npx web-push generate-vapid-keys`) and a contact (mailto: or
   * https:) for the push services. Without both keys push is off and the settings page says so.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{80,100}$/, 'must be a VAPID public key (base64url)')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{40,50}$/, 'must be a VAPID private key (base64url)')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .trim()
    .regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: or https: address')
    .default('mailto:no-reply@campusloop.app'),
  /** How often notification e-mails and pushes due are sent (and failed ones retried). */
  DELIVERY_INTERVAL_SECONDS: positiveInt.default(10),
  /** New listings are matched against saved searches (off: nobody is told; the bench compares). */
  SAVED_SEARCH_MATCHING: bool.default(true),
  /** Matches of one saved search within this many minutes make one notification and one e-mail. */
  SAVED_SEARCH_BATCH_MINUTES: positiveInt.default(15),
  /** The public address of the app, used in links inside e-mails; defaults to http://localhost:PORT. */
  APP_URL: httpUrl('https://campusloop.example.edu').optional(),
  /** A verification link sent by e-mail works for this many hours (and once). */
  EMAIL_VERIFICATION_HOURS: positiveInt.default(24),
  // With NODE_ENV=production the server refuses what only suits a developer's machine
  // (production-risks.ts); each of these lets one of those through anyway, on a staging box that wants it.
  /** Production may take payments with the built-in test provider (fake cards, no money moves). */
  ALLOW_TEST_PAYMENTS: bool.default(false),
  /** Production may load the demo campus (published password) into an empty embedded database. */
  ALLOW_DEMO_SEED: bool.default(false),
  /** Production may write e-mail to DATA_DIR/outbox instead of sending it. */
  ALLOW_FILE_MAIL: bool.default(false),
  /** Production may put a localhost address in links (APP_URL, S3_PUBLIC_URL). */
  ALLOW_LOCALHOST_LINKS: bool.default(false),
  /** Production may send the session cookie without Secure (plain http). */
  ALLOW_INSECURE_COOKIES: bool.default(false),
});

export type Env = z.infer<typeof envSchema>;

/** Settings that only make sense together. */
export const settingsSchema = envSchema.superRefine((env, ctx) => {
  if (env.S3_BUCKET && !env.S3_PUBLIC_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['S3_PUBLIC_URL'],
      message:
        "must be set when S3_BUCKET is: the bucket's public address, e.g. https://photos.campusloop.app",
    });
  }
  if (env.SERVICE_FEE_MIN > env.SERVICE_FEE_MAX) {
    ctx.addIssue({
      code: 'custom',
      path: ['SERVICE_FEE_MIN'],
      message: 'must be at most SERVICE_FEE_MAX: the smallest fee cannot be above the largest',
    });
  }
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: [env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'],
      message: 'must be set together with the other VAPID key: set both, or neither (push is then off)',
    });
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
      message:
        'must be set together with the other S3 key: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither',
    });
  }
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_PUBLISHABLE_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_PUBLISHABLE_KEY'],
      message:
        "must be set when STRIPE_SECRET_KEY is: the browser needs it for Stripe's card form (pk_test_… or pk_live_…)",
    });
  }
  if (env.STRIPE_PUBLISHABLE_KEY && !env.STRIPE_SECRET_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_SECRET_KEY'],
      message:
        'must be set when STRIPE_PUBLISHABLE_KEY is: set both to use Stripe, or neither for the built-in test provider',
    });
  }
  if (env.NODE_ENV === 'production') {
    for (const risk of productionRisks(env)) {
      if (env[risk.allowance]) continue;
      ctx.addIssue({
        code: 'custom',
        path: [risk.setting],
        message: `${risk.problem}, or ${risk.allowance}=true on a staging box (NODE_ENV is production).`,
      });
    }
  }
});
