import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from './client.ts';

// PostgreSQL's own answers to two transactions that met: a deadlock (one of them was chosen to fail)
// or a serialization failure. Either is safe to run again from the start; anything else is not.

/** The SQLSTATE of a database error, wherever Drizzle or the driver put it. */
export function sqlState(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** Deadlock detected, serialization failure: the transaction did nothing and may be tried again. */
export const RETRYABLE_STATES = new Set(['40P01', '40001']);

/**
 * A transaction that PostgreSQL may abort because another one met it is run again, a few times, after
 * a short random pause (so the two do not meet again at once). What still fails is the caller's to
 * answer (the error handler makes it a 409, never a 500).
 */
export async function transaction<T>(db: Db, run: (tx: Db) => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(run);
    } catch (error) {
      const state = sqlState(error);
      if (attempt >= attempts || !state || !RETRYABLE_STATES.has(state)) throw error;
      await sleep(5 + Math.random() * 20 * attempt);
    }
  }
}
