import { setTimeout as sleep } from 'node:timers/promises';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

// The one way the server opens a transaction (lint forbids `.transaction(` outside src/server/db).
// PostgreSQL's own answers to two transactions that met: a deadlock (one of them was chosen to fail)
// or a serialization failure. Either is safe to run again from the start; anything else is not.
// What must happen only once the change is real (waking the payment steps' runner) is said inside the
// transaction with `afterCommit` and run here after the commit: never after a rollback, and never for an
// attempt that failed and was run again.

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

export interface TransactionOptions {
  /**
   * How many times the whole callback may run. 1 where running it again would not be safe or useful.
   * The default tries four times.
   */
  attempts?: number;
}

/** What each open attempt will run once it commits, by key (a key runs once per commit). */
const pendingByTx = new WeakMap<object, Map<unknown, () => void>>();

/**
 * Inside a transaction opened by `transaction`: runs `then` once the transaction has committed, and not
 * at all if it rolls back. Several calls with the same `key` run it once. Outside any transaction (a
 * statement that committed on its own) it runs at once.
 */
export function afterCommit(tx: Db, then: () => void, key: unknown = then): void {
  const pending = pendingByTx.get(tx);
  if (pending) {
    if (!pending.has(key)) pending.set(key, then);
    return;
  }
  // A transaction this module did not open would never run it: a bug, said at once.
  if (tx instanceof PgTransaction) throw new Error('afterCommit needs a transaction opened by transaction()');
  then();
}

/**
 * A transaction that PostgreSQL may abort because another one met it is run again, a few times, after
 * a short random pause (so the two do not meet again at once). What still fails is the caller's to
 * answer (the error handler makes it a 409, never a 500). Each attempt starts with nothing to run after
 * commit; only the committed attempt's `afterCommit` work runs.
 */
export async function transaction<T>(
  db: Db,
  run: (tx: Db) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? 4;
  for (let attempt = 1; ; attempt++) {
    const pending = new Map<unknown, () => void>();
    let result: T;
    try {
      result = await db.transaction((tx) => {
        pendingByTx.set(tx, pending);
        return run(tx);
      });
    } catch (error) {
      const state = sqlState(error);
      if (attempt >= attempts || !state || !RETRYABLE_STATES.has(state)) throw error;
      await sleep(5 + Math.random() * 20 * attempt);
      continue;
    }
    for (const then of pending.values()) {
      // The change is committed: a failing follow-up must not turn it into an error answer.
      try {
        then();
      } catch (error) {
        process.emitWarning(error instanceof Error ? error : String(error), 'AfterCommitWarning');
      }
    }
    return result;
  }
}
