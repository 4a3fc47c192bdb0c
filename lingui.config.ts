import type { LinguiConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

// Decision 035: English is the source language, written in the code through Lingui's
// macros; Spanish lives in PO catalogues that `npm run i18n` extracts and compiles (src/shared/locales/es/*.ts).
// One catalogue per area of the product, so work on one area never touches another's file.
const web = (paths: string[]) => paths.map((p) => `<rootDir>/src/web/${p}`);

// Tests speak of the product's strings but are not the product's.
const exclude = ['**/*.test.ts', '**/*.test.tsx'];

// The server's booking features have their own catalogue (the rest of the server has another).
const BOOKING_FEATURES = [
  'reservations',
  'payments',
  'payment-steps',
  'waitlist',
  'handovers',
  'reminders',
  'ledger',
];

const config: LinguiConfig = {
  locales: ['en', 'es'],
  sourceLocale: 'en',
  fallbackLocales: { default: 'en' },
  format: formatter({ lineNumbers: false }),
  catalogs: [
    {
      exclude,
      path: '<rootDir>/src/shared/locales/{locale}/app',
      include: web([
        'components/',
        'lib/',
        'shell/',
        'pwa/',
        'main.tsx',
        'router.tsx',
        'entry-server.tsx',
        'routes/home.tsx',
        'routes/browse.tsx',
        'routes/impact.tsx',
        'routes/not-found.tsx',
        'features/impact/',
        'features/universities/',
        'features/live/',
        'features/auth/',
      ]),
    },
    {
      exclude,
      path: '<rootDir>/src/shared/locales/{locale}/pages',
      include: web([
        'routes/about.tsx',
        'routes/help.tsx',
        'routes/safety.tsx',
        'routes/terms.tsx',
        'routes/privacy.tsx',
        'routes/partners.tsx',
        'routes/contact.tsx',
        'routes/stories.tsx',
      ]),
    },
    {
      exclude,
      path: '<rootDir>/src/shared/locales/{locale}/items',
      include: web([
        'features/items/',
        'features/users/',
        'features/reviews/',
        'features/uploads/',
        'features/saved-searches/',
        'routes/item-detail.tsx',
        'routes/list-item.tsx',
        'routes/edit-item.tsx',
        'routes/profile.tsx',
      ]),
    },
    {
      exclude,
      path: '<rootDir>/src/shared/locales/{locale}/reservations',
      include: web(['features/reservations/', 'features/waitlist/', 'routes/reservations.tsx']),
    },
    {
      exclude,
      path: '<rootDir>/src/shared/locales/{locale}/account',
      include: web([
        'features/account/',
        'features/payments/',
        'features/payment-steps/',
        'features/payouts/',
        'features/email-verification/',
        'features/password-reset/',
        'routes/login.tsx',
        'routes/register.tsx',
        'routes/forgot-password.tsx',
        'routes/reset-password.tsx',
        'routes/verify-email.tsx',
        'routes/confirm-email.tsx',
        'routes/settings.tsx',
        'routes/settings-data.tsx',
        'routes/payment-methods.tsx',
        'routes/billing-history.tsx',
        'routes/earnings.tsx',
        'routes/test-bank.tsx',
        'routes/test-onboarding.tsx',
      ]),
    },
    {
      exclude,
      path: '<rootDir>/src/shared/locales/{locale}/community',
      include: web([
        'features/chat/',
        'features/notifications/',
        'features/moderation/',
        'features/disputes/',
        'features/reports/',
        'features/asks/',
        'routes/asks.tsx',
        'routes/chat.tsx',
        'routes/notifications.tsx',
        'routes/admin.tsx',
        'routes/admin-claims.tsx',
        'routes/admin-payments.tsx',
      ]),
    },
    { exclude, path: '<rootDir>/src/shared/locales/{locale}/shared', include: ['<rootDir>/src/shared/'] },
    {
      exclude,
      path: '<rootDir>/src/shared/locales/{locale}/server-bookings',
      include: BOOKING_FEATURES.map((f) => `<rootDir>/src/server/features/${f}/`),
    },
    {
      exclude: [...exclude, ...BOOKING_FEATURES.map((f) => `**/src/server/features/${f}/**`)],
      path: '<rootDir>/src/shared/locales/{locale}/server',
      include: ['<rootDir>/src/server/'],
    },
  ],
  compileNamespace: 'ts',
};

export default config;
