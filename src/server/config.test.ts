import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

/** A production that needs no allowance: Stripe, SMTP, a public https address, PostgreSQL. */
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://campusloop@db:5432/campusloop',
  STRIPE_SECRET_KEY: 'sk_live_123',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_123',
  SMTP_URL: 'smtp://mailer:secret@smtp.example.edu:587',
  APP_URL: 'https://campusloop.example.edu',
  COOKIE_SECURE: 'true',
};

/** The problems loadConfig names, or [] when it accepts the settings. */
function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('loadConfig', () => {
  it('runs locally with no settings at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 5000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      cookieSecure: false,
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it('reads every setting it is given, treating empty strings as unset', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@db:5432/campusloop',
      COOKIE_SECURE: 'true',
      APP_ORIGINS: 'http://localhost:5173, https://campusloop.app',
      AUTH_RATE_LIMIT: '',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db:5432/campusloop',
      cookieSecure: true,
      appOrigins: ['http://localhost:5173', 'https://campusloop.app'],
      authRateLimit: { max: 30, windowMs: 60_000 },
      loginAccountRateLimit: { max: 10, windowMs: 900_000 },
      imageProcessing: { concurrency: 2, waiting: 10, pixels: 128_000_000 },
    });
  });

  it('reads the per-account sign-in limit and the photo processing queue', () => {
    const config = loadConfig({
      LOGIN_ACCOUNT_RATE_LIMIT: '5',
      LOGIN_ACCOUNT_RATE_WINDOW_SECONDS: '300',
      IMAGE_PROCESSING_CONCURRENCY: '4',
      IMAGE_PROCESSING_QUEUE: '0',
      IMAGE_PIXEL_BUDGET_MEGAPIXELS: '200',
    });
    expect(config.loginAccountRateLimit).toEqual({ max: 5, windowMs: 300_000 });
    expect(config.imageProcessing).toEqual({ concurrency: 4, waiting: 0, pixels: 200_000_000 });
    expect(() => loadConfig({ IMAGE_PROCESSING_CONCURRENCY: '0' })).toThrow(
      'IMAGE_PROCESSING_CONCURRENCY: must be above 0',
    );
    // Less than one upload's own 64 megapixels would refuse every full upload.
    expect(() => loadConfig({ IMAGE_PIXEL_BUDGET_MEGAPIXELS: '32' })).toThrow(
      'IMAGE_PIXEL_BUDGET_MEGAPIXELS: must be at least 64 (one upload of five photos)',
    );
  });

  it('bounds the catalogue cache by READ_CACHE_MEGABYTES, 256 unless set', () => {
    expect(loadConfig({}).readCacheBytes).toBe(256 * 1024 * 1024);
    expect(loadConfig({ READ_CACHE_MEGABYTES: '1024' }).readCacheBytes).toBe(1024 * 1024 * 1024);
    expect(() => loadConfig({ READ_CACHE_MEGABYTES: '0' })).toThrow(
      'READ_CACHE_MEGABYTES: must be at least 1',
    );
    expect(() => loadConfig({ READ_CACHE_MEGABYTES: 'lots' })).toThrow(
      'READ_CACHE_MEGABYTES: must be a number of megabytes',
    );
  });

  it('sizes the embedded database’s buffer pool by EMBEDDED_BUFFER_POOL_MB, 32 unless set', () => {
    expect(loadConfig({}).embeddedBufferPoolMb).toBe(32);
    expect(loadConfig({ EMBEDDED_BUFFER_POOL_MB: '16' }).embeddedBufferPoolMb).toBe(16);
    expect(() => loadConfig({ EMBEDDED_BUFFER_POOL_MB: '0' })).toThrow(
      'EMBEDDED_BUFFER_POOL_MB: must be at least 1',
    );
    expect(() => loadConfig({ EMBEDDED_BUFFER_POOL_MB: '32.5' })).toThrow(
      'EMBEDDED_BUFFER_POOL_MB: must be a whole number',
    );
    expect(() => loadConfig({ EMBEDDED_BUFFER_POOL_MB: 'lots' })).toThrow(
      'EMBEDDED_BUFFER_POOL_MB: must be a whole number',
    );
  });

  it('keeps announced answers READ_CACHE_ANNOUNCED_SECONDS, 600 unless set, never less than READ_CACHE_SECONDS', () => {
    expect(loadConfig({}).readCacheAnnouncedMs).toBe(600_000);
    expect(loadConfig({ READ_CACHE_ANNOUNCED_SECONDS: '120' }).readCacheAnnouncedMs).toBe(120_000);
    expect(
      loadConfig({ READ_CACHE_SECONDS: '60', READ_CACHE_ANNOUNCED_SECONDS: '10' }).readCacheAnnouncedMs,
    ).toBe(60_000);
    expect(() => loadConfig({ READ_CACHE_ANNOUNCED_SECONDS: '-1' })).toThrow(
      'READ_CACHE_ANNOUNCED_SECONDS: must be 0 or more',
    );
  });

  it('refuses bad settings with one readable line each', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        COOKIE_SECURE: 'maybe',
        CAMPUS_TIME_ZONE: 'Mars/Olympus',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const { problems } = error as ConfigError;
      expect(problems).toEqual([
        'PORT: must be a port number',
        'DATABASE_URL: must start with postgres:// or postgresql://',
        'COOKIE_SECURE: must be true or false',
        'CAMPUS_TIME_ZONE: must be an IANA time zone such as America/Los_Angeles',
      ]);
    }
  });

  it('reads METRICS_TOKEN: unset means no /metrics; a short or oddly-charactered token is refused', () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined });
    const token = 'a3f9c1e07b5d42e8a3f9c1e07b5d42e8';
    expect(loadConfig({ METRICS_TOKEN: token }).metrics).toEqual({ token });
    const refusal =
      'METRICS_TOKEN: must be 16 to 200 letters, digits or ._~+/=- (a bearer token; e.g. the output of openssl rand -hex 32)';
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(refusal);
    expect(() => loadConfig({ METRICS_TOKEN: 'has spaces in it, sixteen+' })).toThrow(refusal);
  });

  it('reads ADMIN_EMAILS as a lower-cased list, and refuses what is not an e-mail', () => {
    expect(loadConfig({ ADMIN_EMAILS: ' Dean@Stanford.edu, ops@campusloop.app ,' }).adminEmails).toEqual([
      'dean@stanford.edu',
      'ops@campusloop.app',
    ]);
    expect(() => loadConfig({ ADMIN_EMAILS: 'dean@stanford.edu, nobody' })).toThrow(
      'ADMIN_EMAILS: must be a comma-separated list of e-mail addresses (not nobody)',
    );
  });

  it('makes the demo moderator the admin only where the demo campus is loaded (decision 009)', () => {
    // npm start on a fresh machine: embedded database, demo data, not production.
    expect(loadConfig({}).adminEmails).toEqual(['moderator@stanford.edu']);
    // Unset elsewhere means no admins at all.
    expect(loadConfig({ ...PRODUCTION }).adminEmails).toEqual([]);
    expect(loadConfig({ SEED_DEMO: 'false' }).adminEmails).toEqual([]);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/campusloop' }).adminEmails).toEqual([]);
    // An explicit list always wins, in production too.
    expect(loadConfig({ ...PRODUCTION, ADMIN_EMAILS: 'dean@stanford.edu' }).adminEmails).toEqual([
      'dean@stanford.edu',
    ]);
    expect(loadConfig({ ADMIN_EMAILS: 'dean@stanford.edu' }).adminEmails).toEqual(['dean@stanford.edu']);
  });
});

describe('production is safe by default', () => {
  it('starts a production that needs no allowance, and says it allowed nothing', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.env).toBe('production');
    expect(config.stagingAllowances).toEqual([]);
    // The embedded database too, without the demo campus.
    const { DATABASE_URL: _, ...embedded } = PRODUCTION;
    expect(problemsOf({ ...embedded, SEED_DEMO: 'false' })).toEqual([]);
  });

  // One line each: the setting, what would happen, the fix, and the allowance for a staging box.
  const reasons = [
    {
      what: 'the built-in test provider would take payments',
      change: { STRIPE_SECRET_KEY: undefined, STRIPE_PUBLISHABLE_KEY: undefined },
      line: /^STRIPE_SECRET_KEY: not set, so payments would go to the built-in test provider, which takes fake cards.*Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY, or ALLOW_TEST_PAYMENTS=true on a staging box \(NODE_ENV is production\)\.$/,
      allowance: 'ALLOW_TEST_PAYMENTS',
    },
    {
      what: 'an empty embedded database would get the demo campus',
      change: { DATABASE_URL: undefined },
      line: /^SEED_DEMO: on \(the default\), so an empty embedded database would get the demo campus.*Set SEED_DEMO=false, or ALLOW_DEMO_SEED=true on a staging box/,
      allowance: 'ALLOW_DEMO_SEED',
    },
    {
      what: 'e-mail would be written to files',
      change: { SMTP_URL: undefined },
      line: /^SMTP_URL: not set, so e-mail \(verification links\) would be written to files in DATA_DIR\/outbox and never sent\. Set SMTP_URL, or ALLOW_FILE_MAIL=true on a staging box/,
      allowance: 'ALLOW_FILE_MAIL',
    },
    {
      what: 'e-mail links would point to localhost (APP_URL unset)',
      change: { APP_URL: undefined, PORT: '8080' },
      line: /^APP_URL: not set \(so http:\/\/localhost:8080\): links in e-mails would point to this machine.*Set APP_URL to the app's public address.*, or ALLOW_LOCALHOST_LINKS=true on a staging box/,
      allowance: 'ALLOW_LOCALHOST_LINKS',
    },
    {
      what: 'e-mail links would point to localhost (APP_URL on this machine)',
      change: { APP_URL: 'http://127.0.0.1:5000' },
      line: /^APP_URL: http:\/\/127\.0\.0\.1:5000: links in e-mails would point to this machine.*ALLOW_LOCALHOST_LINKS=true/,
      allowance: 'ALLOW_LOCALHOST_LINKS',
    },
    {
      what: 'photo links would point to localhost',
      change: {
        S3_BUCKET: 'photos',
        S3_ENDPOINT: 'http://localhost:9000',
        S3_PUBLIC_URL: 'http://localhost:9000/photos',
      },
      line: /^S3_PUBLIC_URL: http:\/\/localhost:9000\/photos: photo links would point to this machine.*ALLOW_LOCALHOST_LINKS=true/,
      allowance: 'ALLOW_LOCALHOST_LINKS',
    },
    {
      what: 'the session cookie would go without Secure',
      change: { COOKIE_SECURE: 'false' },
      line: /^COOKIE_SECURE: false, so the session cookie would be sent without Secure.*set COOKIE_SECURE=true, or ALLOW_INSECURE_COOKIES=true on a staging box/,
      allowance: 'ALLOW_INSECURE_COOKIES',
    },
  ];

  for (const reason of reasons) {
    it(`refuses to start when ${reason.what}, unless ${reason.allowance} allows it`, () => {
      const env = { ...PRODUCTION, ...reason.change };
      const problems = problemsOf(env);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(reason.line);
      // The allowance lets it through, and the start-up banner will say so.
      const allowed = loadConfig({ ...env, [reason.allowance]: 'true' });
      expect(allowed.stagingAllowances).toEqual([
        expect.stringMatching(new RegExp(`^${reason.allowance} \\(`)),
      ]);
      // Outside production none of it matters.
      expect(problemsOf({ ...env, NODE_ENV: 'development' })).toEqual([]);
    });
  }

  it('lists every reason at once', () => {
    const problems = problemsOf({ NODE_ENV: 'production' });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'STRIPE_SECRET_KEY',
      'SEED_DEMO',
      'SMTP_URL',
      'APP_URL',
      'COOKIE_SECURE',
    ]);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /Invalid configuration:\n {2}- STRIPE_SECRET_KEY: .*\n {2}- SEED_DEMO: .*\n {2}- SMTP_URL: .*\n {2}- APP_URL: .*\n {2}- COOKIE_SECURE: /,
    );
  });

  it('lets a staging box through with every allowance, and names them all', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      ALLOW_TEST_PAYMENTS: 'true',
      ALLOW_DEMO_SEED: 'true',
      ALLOW_FILE_MAIL: 'true',
      ALLOW_LOCALHOST_LINKS: 'true',
      ALLOW_INSECURE_COOKIES: 'true',
    });
    expect(config.stagingAllowances).toEqual([
      'ALLOW_TEST_PAYMENTS (test payments)',
      'ALLOW_DEMO_SEED (demo campus)',
      'ALLOW_FILE_MAIL (e-mail to files)',
      'ALLOW_LOCALHOST_LINKS (localhost links)',
      'ALLOW_INSECURE_COOKIES (cookies without Secure)',
    ]);
    // An allowance covers only its own reason.
    expect(problemsOf({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' })).toHaveLength(4);
  });

  it('knows the addresses that mean this machine', () => {
    for (const url of [
      'http://localhost:5000',
      'http://LOCALHOST',
      'http://campus.localhost',
      'http://127.0.0.1',
      'http://127.1.2.3:8080',
      'http://[::1]:5000',
      'http://0.0.0.0:5000',
    ]) {
      expect(problemsOf({ ...PRODUCTION, APP_URL: url }), url).toHaveLength(1);
    }
    for (const url of ['https://campusloop.example.edu', 'https://localhost-campus.edu', 'http://10.0.0.5']) {
      expect(problemsOf({ ...PRODUCTION, APP_URL: url }), url).toEqual([]);
    }
  });

  it('does not ask an embedded production to drop a demo seed it has turned off, nor a PostgreSQL one at all', () => {
    const { DATABASE_URL: _, ...embedded } = PRODUCTION;
    expect(problemsOf({ ...embedded, SEED_DEMO: 'false' })).toEqual([]);
    // PostgreSQL never gets the demo campus, whatever SEED_DEMO says.
    expect(problemsOf({ ...PRODUCTION, SEED_DEMO: 'true' })).toEqual([]);
  });
});

describe('the service fee settings', () => {
  it('default to 10 % of the rental, at least $1 and at most $15, and no commission', () => {
    expect(loadConfig({}).fees).toEqual({
      serviceFeePercent: 10,
      serviceFeeMinCents: 100,
      serviceFeeMaxCents: 1500,
      lenderCommissionPercent: 0,
    });
  });

  it('read percents and dollar amounts with cents', () => {
    expect(
      loadConfig({
        SERVICE_FEE_PERCENT: '7.5',
        SERVICE_FEE_MIN: '0.50',
        SERVICE_FEE_MAX: '20',
        LENDER_COMMISSION_PERCENT: '3',
      }).fees,
    ).toEqual({
      serviceFeePercent: 7.5,
      serviceFeeMinCents: 50,
      serviceFeeMaxCents: 2000,
      lenderCommissionPercent: 3,
    });
  });

  it('refuse figures that make no sense, naming the setting', () => {
    expect(problemsOf({ SERVICE_FEE_PERCENT: '120' }).join()).toMatch(/SERVICE_FEE_PERCENT/);
    expect(problemsOf({ SERVICE_FEE_PERCENT: '-1' }).join()).toMatch(/SERVICE_FEE_PERCENT/);
    expect(problemsOf({ SERVICE_FEE_MIN: '1.005' }).join()).toMatch(/SERVICE_FEE_MIN/);
    expect(problemsOf({ SERVICE_FEE_MIN: '20', SERVICE_FEE_MAX: '15' }).join()).toMatch(/SERVICE_FEE_MIN/);
    expect(problemsOf({ LENDER_COMMISSION_PERCENT: 'ten' }).join()).toMatch(/LENDER_COMMISSION_PERCENT/);
  });
});
