import { availableParallelism } from 'node:os';
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
    // A worker runs its files one after another in one module graph instead of a fresh one per file:
    // loading the server's or the web app's modules (and happy-dom) again for every file was most of
    // the time of a short file (decision 041: about half the CPU of the unit and API projects, two thirds
    // of the components'). Each API file still gets its own database and app (tests/helpers/test-app.ts),
    // each component file its own DOM; a file that stubs a global or fakes the clock puts it back itself.
    isolate: false,
    // A worker per core. Vitest's default in a run is one fewer than the cores, which on the 2-core
    // machines the suite runs on is a single worker; the main process mostly waits (decision 041).
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        // tests/structure: the structure rules of `npm run lint`, run over a fixture. bench: the bench's own
        // arithmetic (its budgets), not its timings.
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tests/structure/**/*.test.ts', 'bench/**/*.test.ts'],
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
