// Recent answers kept in memory, for the reads that every visitor and every open tab repeat: the
// catalogue's lists, item pages and profiles, sessions, and the unread polls
// (docs/performance.md). Correctness comes from invalidation, not from the time limit: the database
// announces what every change touches (migration 0011, read-caches.ts), each answer carries tags that
// name what it was built from, and an announcement drops only the answers with its tags. The time
// limit only bounds what no write announces (a review revealed by time, a clock change).

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
  tags: readonly string[];
}

/**
 * What an answer was built from, known once it is computed (an item page names its owner and its
 * reviewers): invalidating any of these tags drops it.
 */
export type TagsOf<V> = (value: V) => readonly string[];

/** Beyond this many remembered invalidations, they are forgotten and every computation under way is void. */
const MAX_REMEMBERED_INVALIDATIONS = 10_000;

export class ReadCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Keys by tag, to drop a tag's answers without looking at the others. */
  private readonly keysByTag = new Map<string, Set<string>>();
  /** Computations under way, so 50 requests that miss at once ask the database once. */
  private readonly pending = new Map<string, { startedAt: number; promise: Promise<V> }>();
  /**
   * Every invalidation takes the next number. A computation remembers the number current when it
   * began; if a tag or key of its answer was invalidated after that, it may have read the old rows, so
   * its answer goes to its callers but is never stored, and nobody new joins it.
   */
  private epoch = 0;
  /** Computations that began at or before this number are void (clear(), or too much to remember). */
  private voidUpTo = 0;
  private readonly tagInvalidatedAt = new Map<string, number>();
  private readonly keyInvalidatedAt = new Map<string, number>();
  private readonly now: () => number;
  /** While the changes that invalidate answers cannot be heard, every read computes. */
  private suspended = false;
  /** The metrics' hit and miss counters (src/server/metrics), when measured. */
  private lookups?: (hit: boolean) => void;

  constructor(private readonly options: ReadCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get size() {
    return this.entries.size;
  }

  /**
   * Hears every lookup: a hit is answered without computing (stored, or joining a computation under
   * way); a miss computes (the cache off or paused counts as a miss: the database is asked).
   */
  observeLookups(observer: (hit: boolean) => void) {
    this.lookups = observer;
  }

  /**
   * The stored answer for `key`, or `compute()`'s, stored with the tags `tagsOf` names unless one of
   * them (or the key) was invalidated while it was computed.
   */
  get(key: string, compute: () => Promise<V>, tagsOf?: TagsOf<V>): Promise<V> {
    if (this.options.ttlMs <= 0 || this.suspended) {
      this.lookups?.(false);
      return compute();
    }
    const entry = this.entries.get(key);
    if (entry) {
      if (entry.expires > this.now()) {
        this.lookups?.(true);
        return Promise.resolve(entry.value);
      }
      this.remove(key);
    }
    const running = this.pending.get(key);
    // Joining is safe only if nothing at all was invalidated since it began: its tags are not known yet.
    if (running && running.startedAt === this.epoch) {
      this.lookups?.(true);
      return running.promise;
    }
    this.lookups?.(false);
    const startedAt = this.epoch;
    const promise = compute().then(
      (value) => {
        if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
        const tags = tagsOf?.(value) ?? [];
        if (this.stillValid(key, tags, startedAt)) this.store(key, value, tags);
        return value;
      },
      (error: unknown) => {
        if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
        throw error;
      },
    );
    this.pending.set(key, { startedAt, promise });
    return promise;
  }

  /** Drops one key's answer (and voids any being computed). */
  delete(key: string) {
    this.remove(key);
    this.pending.delete(key);
    this.remember(this.keyInvalidatedAt, key);
  }

  /** Drops every answer carrying `tag` (and voids any being computed that will carry it). */
  invalidate(tag: string) {
    const keys = this.keysByTag.get(tag);
    if (keys) for (const key of [...keys]) this.remove(key);
    this.remember(this.tagInvalidatedAt, tag);
  }

  /** Drops every answer (and voids any being computed). */
  clear() {
    this.epoch++;
    this.voidUpTo = this.epoch;
    this.entries.clear();
    this.keysByTag.clear();
    this.pending.clear();
    this.tagInvalidatedAt.clear();
    this.keyInvalidatedAt.clear();
  }

  /** Stops serving and storing answers (and drops them) until resume(). */
  suspend() {
    this.suspended = true;
    this.clear();
  }

  /** Serves and stores again, from empty: nothing from before the gap survives it. */
  resume() {
    this.suspended = false;
    this.clear();
  }

  private remember(invalidations: Map<string, number>, name: string) {
    this.epoch++;
    if (this.tagInvalidatedAt.size + this.keyInvalidatedAt.size >= MAX_REMEMBERED_INVALIDATIONS) {
      // Forget them all, and with them every computation that might have needed one.
      this.voidUpTo = this.epoch;
      this.tagInvalidatedAt.clear();
      this.keyInvalidatedAt.clear();
      this.pending.clear();
      return;
    }
    invalidations.delete(name); // re-inserted last: the map stays in invalidation order
    invalidations.set(name, this.epoch);
  }

  private stillValid(key: string, tags: readonly string[], startedAt: number) {
    if (startedAt < this.voidUpTo) return false;
    if ((this.keyInvalidatedAt.get(key) ?? 0) > startedAt) return false;
    return tags.every((tag) => (this.tagInvalidatedAt.get(tag) ?? 0) <= startedAt);
  }

  private store(key: string, value: V, tags: readonly string[]) {
    this.remove(key);
    this.entries.set(key, { value, expires: this.now() + this.options.ttlMs, tags });
    for (const tag of tags) {
      let keys = this.keysByTag.get(tag);
      if (!keys) {
        keys = new Set();
        this.keysByTag.set(tag, keys);
      }
      keys.add(key);
    }
    if (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.remove(oldest);
    }
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
  }
}
