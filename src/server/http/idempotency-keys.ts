import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { msg } from '@lingui/core/macro';
import type { Db } from '../db/client.ts';
import { AppError, conflict } from '../errors.ts';
import * as queries from './idempotency-queries.ts';

// Idempotency keys (decision 039), as Stripe keeps them: the same key, from the same person, for the
// same method, path and body gets the first answer (status and body) again; the same key for another
// request is refused (422); a key whose first request is still running answers 409 "still being
// processed". Keys are forgotten after 24 hours (a timed job, composition/jobs.ts).

/** How long a key and its answer are kept. */
export const KEEP_KEYS_MS = 24 * 60 * 60 * 1000;

/**
 * How long a first request may hold its key unanswered: after this its process is taken to have died
 * (a crash between the claim and the answer), and a retry runs it again if it changed nothing.
 */
const IN_FLIGHT_MS = 60_000;

export interface KeyedRequest {
  userId: string;
  key: string;
  /** Set once a transaction of the request committed its mark: the effect happened. */
  committed: boolean;
}

export type Claim =
  | { kind: 'first'; request: KeyedRequest }
  | { kind: 'replay'; statusCode: number; contentType: string | null; body: string };

export function fingerprintOf(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${body === undefined ? '' : JSON.stringify(body)}`)
    .digest('hex');
}

/**
 * The request being handled, for the transactions it runs: each marks the key committed inside itself,
 * so "it happened" and the state change commit together (markCommittedWithin).
 */
const current = new AsyncLocalStorage<KeyedRequest>();

export const idempotencyService = {
  async claim(db: Db, userId: string, key: string, fingerprint: string): Promise<Claim> {
    const now = Date.now();
    const lockedUntil = new Date(now + IN_FLIGHT_MS);
    const request = { userId, key, committed: false };
    if (
      await queries.claim(db, {
        userId,
        key,
        fingerprint,
        lockedUntil,
        expiredBefore: new Date(now - KEEP_KEYS_MS),
      })
    ) {
      return { kind: 'first', request };
    }
    const row = await queries.find(db, userId, key);
    // Forgotten between the two statements (the cleanup): the retry may take it again.
    if (!row) return idempotencyService.claim(db, userId, key, fingerprint);
    if (row.fingerprint !== fingerprint) {
      throw new AppError(
        422,
        'IDEMPOTENCY_KEY_REUSED',
        msg`This request key was already used for a different request. Please try again.`,
      );
    }
    if (row.statusCode !== null && row.body !== null) {
      return { kind: 'replay', statusCode: row.statusCode, contentType: row.contentType, body: row.body };
    }
    if (row.committed) {
      // Done, and its answer lost with the connection that was to write it: nothing to replay, and
      // doing it again would be doing it twice.
      throw conflict(
        msg`This was already done. Reload the page to see where things stand.`,
        'IDEMPOTENCY_KEY_DONE',
      );
    }
    if (row.lockedUntil && row.lockedUntil.getTime() < now) {
      if (await queries.takeOverAbandoned(db, userId, key, lockedUntil)) return { kind: 'first', request };
    }
    throw conflict(
      msg`This request is still being processed. Please wait a moment before trying again.`,
      'IDEMPOTENCY_KEY_IN_FLIGHT',
    );
  },

  /** Runs a route's handler with its key known to the transactions it starts. */
  within<T>(request: KeyedRequest, run: () => T): T {
    return current.run(request, run);
  },

  /**
   * The answer, kept to be replayed; or, when it said "try again" (5xx, 429) and nothing was
   * committed, the key freed so the retry runs it.
   */
  async finish(
    db: Db,
    request: KeyedRequest,
    answer: { statusCode: number; contentType: string | null; body: string | null },
  ): Promise<void> {
    const retryable = answer.statusCode >= 500 || answer.statusCode === 429;
    if (!retryable && answer.body !== null) {
      await queries.storeAnswer(db, request.userId, request.key, { ...answer, body: answer.body });
    } else if (request.committed) {
      await queries.unlock(db, request.userId, request.key);
    } else {
      await queries.release(db, request.userId, request.key);
    }
  },

  /** Keys past their 24 hours (the cleanup job). */
  forgetExpired: (db: Db, now: Date) => queries.forgetBefore(db, new Date(now.getTime() - KEEP_KEYS_MS)),
};

const WRAPPED = Symbol('idempotency marks');

/**
 * Every `db.transaction` run for a keyed request marks its key committed as its last statement: the
 * mark commits exactly when the state change does. Transactions outside a keyed request are as before.
 */
export function markCommittedWithin(db: Db): void {
  const marked = db as Db & { [WRAPPED]?: true };
  if (marked[WRAPPED]) return;
  marked[WRAPPED] = true;
  const transaction = db.transaction.bind(db);
  db.transaction = ((run, config) => {
    const request = current.getStore();
    if (!request) return transaction(run, config);
    return transaction(async (tx) => {
      const result = await run(tx);
      await queries.markCommitted(tx, request.userId, request.key);
      return result;
    }, config).then((result) => {
      request.committed = true;
      return result;
    });
  }) as Db['transaction'];
}
