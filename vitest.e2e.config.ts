import { defineConfig } from 'vitest/config';
import { linguiMacros } from './scripts/lingui-macro.mjs';

// Browser journeys: the built app served by the real server on a fresh embedded database, driven by
// Debian's Chromium through playwright-core. One file at a time: the machine has two cores.
export default defineConfig({
  plugins: [linguiMacros()],
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.spec.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/server-setup.ts'],
    fileParallelism: false,
    // One worker runs every file, with one Chromium (tests/e2e/helpers.ts) and the modules loaded once:
    // starting both again for each of 30 files cost more than a minute (decision 041). Each file still
    // gets fresh browser contexts, and the journeys share one server anyway.
    isolate: false,
    // A journey that takes 15 s on a quiet machine took over 60 s with the load average at 15 (the
    // verification and impact journeys, 2026-11-24): the bound is for a hang, not for speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
