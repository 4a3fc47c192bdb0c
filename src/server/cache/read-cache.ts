// Recent answers kept in memory, for the reads that every visitor and every open tab repeat: the
// catalogue's lists, item pages and profiles, sessions, and the unread polls (issue 7,
// docs/performance.md). Correctness comes from invalidation, not from the time limit: the database
// announces every change to the tables an answer is built from (migration 0008, read-caches.ts), and
// the time limit only bounds what no write announces (a review revealed by time, a clock change).

export interface ReadCacheOptions {
  /** Oldest entries go first beyond this many. */
  maxEntries: number;
  /** How long an entry may be served at most. 0 turns the cache off: every read computes. */
  ttlMs: number;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  expires: number;
}

export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Computations under way, so 50 requests that miss at once ask the database once. */
  private readonly pending = new Map<string, { version: string; promise: Promise<V> }>();
  /**
   * Bumped by clear(), and per key by delete(): a computation that began before an invalidation may
   * have read the old rows, so its answer is returned to its caller but never stored.
   */
  private generation = 0;
  private readonly keyGenerations = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: ReadCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get size() {
    return this.entries.size;
  }

  /** The stored answer for `key`, or `compute()`'s (stored unless the key was invalidated meanwhile). */
  get(key: string, compute: () => Promise<V>): Promise<V> {
    if (this.options.ttlMs <= 0) return compute();
    const entry = this.entries.get(key);
    if (entry) {
      if (entry.expires > this.now()) return Promise.resolve(entry.value);
      this.entries.delete(key);
    }
    const version = this.versionOf(key);
    const running = this.pending.get(key);
    if (running && running.version === version) return running.promise;
    const promise = compute().then(
      (value) => {
        if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
        if (this.versionOf(key) === version) this.store(key, value);
        return value;
      },
      (error: unknown) => {
        if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
        throw error;
      },
    );
    this.pending.set(key, { version, promise });
    return promise;
  }

  /** Drops one key's answer (and any being computed). */
  delete(key: string) {
    this.entries.delete(key);
    this.pending.delete(key);
    this.keyGenerations.set(key, (this.keyGenerations.get(key) ?? 0) + 1);
  }

  /** Drops every answer (and any being computed). */
  clear() {
    this.generation++;
    this.entries.clear();
    this.pending.clear();
    this.keyGenerations.clear();
  }

  private versionOf(key: string) {
    return `${this.generation}:${this.keyGenerations.get(key) ?? 0}`;
  }

  private store(key: string, value: V) {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + this.options.ttlMs });
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
