import { defineConfig } from 'vitest/config';
import { linguiMacros } from './scripts/lingui-macro.mjs';

// Unit tests next to the code, API tests against a fresh database per file, component tests in a DOM.
// Browser journeys have their own config (vitest.e2e.config.ts) because they need the built app.
export default defineConfig({
  // Lingui's macros in the code under test (decision 035).
  plugins: [linguiMacros()],
  test: {
    // Calendar rules are in the campus time zone; tests run under a fixed one (cal.com's habit).
    env: { TZ: 'America/Los_Angeles' },
    projects: [
      {
        extends: true,
        // tests/structure: the structure rules of `npm run lint`, run over a fixture.
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tests/structure/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/database-setup.ts'],
          setupFiles: ['tests/helpers/fail-on-console-error.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'components',
          include: ['src/web/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['tests/helpers/fail-on-console-error.ts', 'tests/helpers/i18n-render.tsx'],
        },
      },
    ],
  },
});
