// What a production server must not do without being told to (decision 017). Each is right for
// `npm start` on a laptop and wrong for real students; the configuration refuses to start with NODE_ENV=production
// when any applies, listing them all, unless its ALLOW_* setting lets it through on a staging box.

type Allowance =
  | 'ALLOW_TEST_PAYMENTS'
  | 'ALLOW_DEMO_SEED'
  | 'ALLOW_FILE_MAIL'
  | 'ALLOW_LOCALHOST_LINKS'
  | 'ALLOW_INSECURE_COOKIES';

/** Hosts only this machine reaches: a link to one works for nobody else. */
function isLocalhost(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

/**
 * The settings the risks are read from, as config-environment.ts has parsed them (declared here rather
 * than imported, so that file can use this one without a loop between them).
 */
export interface RiskSettings {
  PORT: number;
  DATABASE_URL?: string;
  COOKIE_SECURE: boolean;
  SEED_DEMO: boolean;
  STRIPE_SECRET_KEY?: string;
  SMTP_URL?: string;
  APP_URL?: string;
  S3_PUBLIC_URL?: string;
}

export interface ProductionRisk {
  /** The setting to fix. */
  setting: keyof RiskSettings;
  /** The setting that allows it anyway. */
  allowance: Allowance;
  /** What would happen, and what fixes it. */
  problem: string;
  /** A few words for the start-up banner when it is allowed. */
  short: string;
}

/** The risks these settings carry in production, whether allowed or not. */
export function productionRisks(env: RiskSettings): ProductionRisk[] {
  const risks: ProductionRisk[] = [];
  if (!env.STRIPE_SECRET_KEY) {
    risks.push({
      setting: 'STRIPE_SECRET_KEY',
      allowance: 'ALLOW_TEST_PAYMENTS',
      problem:
        'not set, so payments would go to the built-in test provider, which takes fake cards and moves no money. ' +
        'Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY',
      short: 'test payments',
    });
  }
  // Demo data only ever goes into the embedded database (main.ts).
  if (env.SEED_DEMO && !env.DATABASE_URL) {
    risks.push({
      setting: 'SEED_DEMO',
      allowance: 'ALLOW_DEMO_SEED',
      problem:
        'on (the default), so an empty embedded database would get the demo campus, whose accounts share a ' +
        'published password. Set SEED_DEMO=false',
      short: 'demo campus',
    });
  }
  if (!env.SMTP_URL) {
    risks.push({
      setting: 'SMTP_URL',
      allowance: 'ALLOW_FILE_MAIL',
      problem:
        'not set, so e-mail (verification links) would be written to files in DATA_DIR/outbox and never sent. ' +
        'Set SMTP_URL',
      short: 'e-mail to files',
    });
  }
  if (!env.APP_URL || isLocalhost(env.APP_URL)) {
    risks.push({
      setting: 'APP_URL',
      allowance: 'ALLOW_LOCALHOST_LINKS',
      problem: `${env.APP_URL ? `${env.APP_URL}` : `not set (so http://localhost:${env.PORT})`}: links in e-mails would point to this machine, where nobody else can open them. Set APP_URL to the app's public address, e.g. https://campusloop.example.edu`,
      short: 'localhost links',
    });
  }
  if (env.S3_PUBLIC_URL && isLocalhost(env.S3_PUBLIC_URL)) {
    risks.push({
      setting: 'S3_PUBLIC_URL',
      allowance: 'ALLOW_LOCALHOST_LINKS',
      problem: `${env.S3_PUBLIC_URL}: photo links would point to this machine, where nobody else can load them. Set S3_PUBLIC_URL to the bucket's public address`,
      short: 'localhost photo links',
    });
  }
  if (!env.COOKIE_SECURE) {
    risks.push({
      setting: 'COOKIE_SECURE',
      allowance: 'ALLOW_INSECURE_COOKIES',
      problem:
        'false, so the session cookie would be sent without Secure, over plain http too, where anyone on the ' +
        'way can read it. Serve the app over https and set COOKIE_SECURE=true',
      short: 'cookies without Secure',
    });
  }
  return risks;
}
