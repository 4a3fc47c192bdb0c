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
