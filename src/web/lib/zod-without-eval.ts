// The app's Content-Security-Policy allows no 'unsafe-eval'. Zod 4 compiles each object schema's
// parser with `new Function` when it can, and finds out whether it can by trying once: in the browser
// that try is a CSP violation (Chromium reports it as an issue; Lighthouse's best practices scored the
// item page 96 for it). Forms parse a handful of fields, so the interpreted parser costs nothing that
// matters. `z.config({ jitless: true })` says so, but importing zod here would move it from the lazy
// chunks into every first load; zod keeps its settings in this global and adopts an object found there
// (zod/v4/core/core.js), so it is set before any schema is built: main.tsx imports this module first.
// tests/e2e/page-speed.spec.ts fails if a page breaks the policy again.
const scope = globalThis as typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
