import { afterEach, vi } from 'vitest';

// epic-stack's habit: a console.error during a test is a bug the test should not hide.
// Where a worker runs several files in one module graph (isolate: false, decision 041) this file runs
// once per file: each run wraps the console's own console.error, never the previous file's wrapper.
const CONSOLE_ERROR = Symbol.for('campusloop.test.consoleError');
const holder = globalThis as { [CONSOLE_ERROR]?: typeof console.error };
holder[CONSOLE_ERROR] ??= console.error;
const original = holder[CONSOLE_ERROR];

let errors: unknown[][] = [];
console.error = (...args: unknown[]) => {
  errors.push(args);
  original(...args);
};
afterEach(() => {
  const seen = errors;
  errors = [];
  vi.restoreAllMocks();
  if (seen.length)
    throw new Error(`console.error was called:\n${seen.map((a) => a.map(String).join(' ')).join('\n')}`);
});
