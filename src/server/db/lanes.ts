import { AsyncLocalStorage } from 'node:async_hooks';

// Which connections a piece of work may use, and what it cost in connections. PostgreSQL has three
// pools (client.ts): reads, writes (every transaction, and every statement of a changing request), and
// optionally a replica for the catalogue. A request says which it is once (composition/app.ts) and
// every statement it sends below follows, without each service passing a second database around.
// PGlite has one connection: the lanes are all that one connection, but checkouts are counted alike.

export type Lane = 'read' | 'write' | 'replica';

export interface LaneContext {
  /** Where a statement outside a transaction goes. Transactions always take a write connection. */
  lane: Lane;
  /** Connections taken so far: one per statement outside a transaction, one per transaction. */
  checkouts: number;
  /** Milliseconds spent waiting for a free connection, summed over those checkouts. */
  waitMs: number;
  /**
   * Statements sent (a transaction's begin and commit included): each one a round trip, which on a
   * busy server waits its turn on the event loop, so a request's latency grows with their count.
   */
  statements: number;
}

const storage = new AsyncLocalStorage<LaneContext>();

/** Runs `run` with its statements sent on `lane` and its checkouts counted in the context returned. */
export function withLane<T>(lane: Lane, run: (context: LaneContext) => T): T {
  const context: LaneContext = { lane, checkouts: 0, waitMs: 0, statements: 0 };
  return storage.run(context, () => run(context));
}

/** The context of the work under way (a request's), if any. */
export function currentLane(): LaneContext | undefined {
  return storage.getStore();
}

/**
 * Work started by a request that the request does not wait for (a job woken after its commit) runs
 * outside the request's lane: its statements are not the request's round trips, nor its writes.
 */
export function outsideLane<T>(run: () => T): T {
  return storage.exit(run);
}

/** Counts a statement sent in the current context (db/client.ts's timings see every one). */
export function countStatement() {
  const context = storage.getStore();
  if (context) context.statements++;
}

/** Per pool: connections taken and the time spent waiting for them, since the pool opened. */
export interface PoolUse {
  checkouts: number;
  waitSeconds: number;
}

/** Counts a checkout on a pool, and in the current context. */
export function countCheckout(use: PoolUse): (waitedMs: number) => void {
  use.checkouts++;
  const context = storage.getStore();
  if (context) context.checkouts++;
  return (waitedMs) => {
    use.waitSeconds += waitedMs / 1000;
    if (context) context.waitMs += waitedMs;
  };
}
