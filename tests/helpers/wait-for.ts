import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits until `condition` holds, looking again every 25 ms, and fails after `timeoutMs` with what it
 * waited for. Tests wait for what they need, never for a fixed time (a busy machine is slow).
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  what = 'the condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await sleep(25);
  }
}

/**
 * Until `check` passes (it throws while not yet), looking again every 25 ms; then its value. After
 * `timeoutMs` the check's own last error is thrown, which says what was wrong better than a timeout.
 */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(25);
    }
  }
}
