import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';

// Recent answers kept in memory, for the reads that every visitor and every open tab repeat: the
// catalogue's lists, item pages and profiles, sessions, and the unread polls (docs/performance.md,
// decisions 016 and 049). Correctness comes from invalidation, not from the time limit: the database
// announces what every change touches (read-caches.ts), each answer carries tags that name what it was
// built from, and an announcement drops only the answers with its tags. The time limit bounds what no
// write announces (a new listing a search would now find); an answer whose every change is announced
// (a list, an item page, a profile: a review revealed by its waiting time is announced by the jobs'
// round) keeps a longer one, which bounds only an announcement that went missing.
//
// Under load (decision 049): the least recently used answers go first once the cache holds more than
// its bytes; one computation per key runs at a time, however many readers miss it; at most a few
// computations run at once, the others queue; and a cache that may serve stale answers keeps an
// invalidated answer for the readers who arrive while its replacement is computed, except for the
// person whose write invalidated it.

export interface ReadCacheOptions {
  /** Beyond this many answers, the least recently used go first. */
  maxEntries: number;
  /** Beyond this many bytes (as `sizeOf` counts them), the least recently used go first. */
  maxBytes?: number;
  /** An answer's size in bytes, roughly; required with maxBytes. */
  sizeOf?: (value: unknown) => number;
  /** How long an entry may be served at most. 0 turns the cache off: every read computes. */
  ttlMs: number;
  /**
   * How long an answer whose every change the database announces (get's `announced`) may be served:
   * its time limit then only bounds an announcement that went missing. Defaults to ttlMs.
   */
  announcedTtlMs?: number;
  /**
   * After an invalidation, the old answer goes to the readers who arrive while the new one is being
   * computed (the first reader computes and waits), never to its writer. Not for answers whose
   * staleness harms (a session that was ended, a person's unread count).
   */
  serveStale?: boolean;
  /** Tags every answer carries besides its own (a cache whose answers are all dropped together). */
  everyAnswerTags?: readonly string[];
  /** At most this many computations at once in each lane (get's `lane`); the others wait their turn. */
  maxConcurrentMisses?: number;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  expires: number;
  tags: readonly string[];
  /** Set when invalidated in a cache that serves stale answers: the invalidation's number. */
  staleSince?: number;
}

interface Computation<V> {
  startedAt: number;
  /**
   * A revision of the stale answer (invalidate's `revise`) rather than a computation: it may end with
   * nothing, so nobody joins it; readers get the stale answer meanwhile, or wait and look again.
   */
  revision?: boolean;
  /** A reader waits for this revision: later ones get the stale answer. */
  awaited?: boolean;
  promise: Promise<V>;
  /** Resolves when the computation ends, whichever way. */
  settled: Promise<void>;
}

/**
 * What an answer was built from, known once it is computed (an item page names its owner and its
 * reviewers): invalidating any of these tags drops it.
 */
export type TagsOf<V> = (value: V) => readonly string[];

/** Beyond this many remembered invalidations, they are forgotten and every computation under way is void. */
const MAX_REMEMBERED_INVALIDATIONS = 10_000;
/** How many recent writers the cache remembers, for read-your-writes under serve-stale. */
const MAX_WRITERS = 20_000;
/** A writer whose write this instance has not heard yet: nothing remembered may be served to them. */
const UNHEARD = Number.POSITIVE_INFINITY;

export class ReadCache<V> {
  private readonly entries: LRUCache<string, Entry<V>>;
  /** Keys by tag, to drop a tag's answers without looking at the others. */
  private readonly keysByTag = new Map<string, Set<string>>();
  /** Computations under way: one per key. */
  private readonly pending = new Map<string, Computation<V>>();
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
  /**
   * Recent writers: the invalidation number once their write was heard here (a stale answer from an
   * invalidation up to it may be theirs to miss), or UNHEARD.
   */
  private readonly writers: LRUCache<string, number>;
  /** A queue per lane (maxConcurrentMisses each), so slow answers never hold up quick ones. */
  private readonly lanes = new Map<string, ReturnType<typeof pLimit>>();
  private readonly now: () => number;
  /** While the changes that invalidate answers cannot be heard, every read computes. */
  private suspended = false;
  /** The metrics' hit and miss counters (src/server/metrics), when measured. */
  private lookups?: (hit: boolean) => void;

  constructor(private readonly options: ReadCacheOptions) {
    this.now = options.now ?? Date.now;
    const { maxBytes, sizeOf } = options;
    this.entries = new LRUCache<string, Entry<V>>({
      max: Math.max(1, options.maxEntries),
      ...(maxBytes && sizeOf
        ? { maxSize: maxBytes, sizeCalculation: (entry) => Math.max(1, sizeOf(entry.value)) }
        : {}),
      // Evicted for room: its keys leave the tag index too (other removals unindex it themselves).
      dispose: (entry, key, reason) => {
        if (reason === 'evict') this.unindex(key, entry);
      },
    });
    this.writers = new LRUCache<string, number>({ max: MAX_WRITERS });
  }

  get size() {
    return this.entries.size;
  }

  /** The bytes held, as `sizeOf` counts them (0 without a byte bound). */
  get bytes() {
    return this.entries.calculatedSize;
  }

  /**
   * Hears every lookup: a hit is answered without computing (stored, stale while recomputed, or
   * joining a computation under way); a miss computes (the cache off or paused counts as a miss).
   */
  observeLookups(observer: (hit: boolean) => void) {
    this.lookups = observer;
  }

  /**
   * The stored answer for `key`, or `compute()`'s, stored with the tags `tagsOf` names unless one of
   * them (or the key) was invalidated while it was computed. `reader` is the signed-in person asking,
   * if any: after their own write (wrote()) they never get an answer it made stale; `fresh` refuses
   * stale answers altogether (a computation that stores what it reads). `readSince`: `compute` hands
   * over what was read earlier, when the invalidation number was this (invalidations): it is stored
   * only if nothing it carries was invalidated since then. `announced`: every change to what the
   * answer shows is announced (nothing about it changes with time alone), so it is kept for
   * announcedTtlMs; a function says it of each answer once computed (an answer naming nobody has no
   * tag an announcement could carry).
   */
  async get(
    key: string,
    compute: () => Promise<V>,
    tagsOf?: TagsOf<V>,
    {
      reader,
      fresh = false,
      lane = 'default',
      readSince,
      announced = false,
    }: {
      reader?: string | undefined;
      fresh?: boolean;
      lane?: string;
      readSince?: number;
      announced?: boolean | ((value: V) => boolean);
    } = {},
  ): Promise<V> {
    if (this.options.ttlMs <= 0 || this.suspended) {
      this.lookups?.(false);
      return compute();
    }
    const wroteAt = reader === undefined ? undefined : this.writers.get(reader);
    if (wroteAt === UNHEARD) {
      // Anything remembered may predate their write: computed afresh for them, and not kept (the
      // announcement on its way decides what is stale for everyone else).
      this.lookups?.(false);
      return this.limit(lane, compute);
    }
    for (;;) {
      let entry = this.entries.get(key);
      if (entry && entry.expires <= this.now()) {
        this.remove(key);
        entry = undefined;
      }
      if (entry && entry.staleSince === undefined) {
        this.lookups?.(true);
        return entry.value;
      }
      const running = this.pending.get(key);
      if (!running) {
        // Nothing stored, or only a stale answer: this reader computes, and waits for it.
        this.lookups?.(false);
        return this.start(key, compute, tagsOf, lane, readSince, announced);
      }
      // Its replacement is being computed: the stale answer, unless this reader's write made it stale.
      if (
        entry?.staleSince !== undefined &&
        !fresh &&
        (wroteAt === undefined || entry.staleSince > wroteAt)
      ) {
        // As with a computation, the first reader after the change waits for a revision (a moment);
        // the others get the stale answer meanwhile.
        if (running.revision && !running.awaited) {
          running.awaited = true;
          await running.settled;
          continue;
        }
        this.lookups?.(true);
        return entry.value;
      }
      // Joining is safe only if nothing at all was invalidated since it began: its tags are not known
      // yet. Otherwise wait for it to end (one computation per key at a time) and look again.
      if (running.startedAt === this.epoch && !running.revision) {
        this.lookups?.(true);
        return running.promise;
      }
      await running.settled;
    }
  }

  /**
   * Adds tags to a stored answer, learnt after it was stored (the items a later page of a search
   * showed, for the search's count). If one of them was invalidated since `since` (the invalidation
   * number when the caller began reading), the answer is dropped instead.
   */
  addTags(key: string, tags: readonly string[], since: number) {
    const entry = this.entries.peek(key);
    if (!entry || entry.staleSince !== undefined) return;
    const added = tags.filter((tag) => !entry.tags.includes(tag));
    if (!added.length) return;
    if (!this.stillValid(key, added, since)) {
      this.remove(key);
      return;
    }
    entry.tags = [...entry.tags, ...added];
    this.index(key, added);
  }

  /**
   * Whether get(key) would answer now without computing: a fresh answer is stored, or one is being
   * computed that a new reader may join.
   */
  holds(key: string): boolean {
    if (this.options.ttlMs <= 0 || this.suspended) return false;
    const entry = this.entries.peek(key);
    if (entry && entry.staleSince === undefined && entry.expires > this.now()) return true;
    const running = this.pending.get(key);
    return running?.startedAt === this.epoch && !running.revision;
  }

  /** The current invalidation number, for addTags(). */
  get invalidations() {
    return this.epoch;
  }

  /** Drops one key's answer (and voids any being computed). */
  delete(key: string) {
    this.remove(key);
    this.pending.delete(key);
    this.remember(this.keyInvalidatedAt, key);
  }

  /**
   * Every answer carrying `tag` is stale (kept for serve-stale, else dropped), and any being computed
   * that will carry it is void. `spare`: an answer whose tags it accepts is left as it is (the change
   * cannot touch it); one being computed is void all the same, its tags not known yet. `revise`: in a
   * cache that serves stale answers, the work that turns a stale answer into the fresh one from what
   * the change says (a new listing put on a list's first page), when it can; it runs in place of the
   * next reader's computation and is stored only if nothing else reached the answer meanwhile. It may
   * end with nothing (it could not tell): the next reader then computes.
   */
  invalidate(
    tag: string,
    spare?: (tags: readonly string[]) => boolean,
    revise?: (value: V) => (() => Promise<V | undefined>) | undefined,
  ) {
    const at = this.remember(this.tagInvalidatedAt, tag);
    const keys = this.keysByTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) {
      const entry = this.entries.peek(key);
      if (entry && spare?.(entry.tags)) continue;
      if (entry && this.options.serveStale) {
        entry.staleSince = at;
        // Stale already: later invalidations change nothing for it.
        this.unindex(key, entry);
        const work = !this.suspended && !this.pending.has(key) ? revise?.(entry.value) : undefined;
        if (work) this.startRevision(key, entry, work, at);
      } else {
        this.remove(key);
      }
    }
  }

  /**
   * Revises a stale answer (invalidate's `revise`): stored as a computation begun at the invalidation
   * would be, with the same tags and expiry, unless a tag or the key was invalidated since.
   */
  private startRevision(key: string, stale: Entry<V>, work: () => Promise<V | undefined>, at: number) {
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const promise = Promise.resolve()
      .then(work)
      .then(
        (value) => {
          const kept =
            value !== undefined &&
            this.entries.peek(key) === stale &&
            stale.expires > this.now() &&
            this.stillValid(key, stale.tags, at);
          if (kept) this.store(key, value, stale.tags, stale.expires - this.now());
          return value as V;
        },
        () => undefined as V, // could not tell: the next reader computes
      )
      .finally(() => {
        if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
        settle();
      });
    this.pending.set(key, { startedAt: at, revision: true, promise, settled });
  }

  /**
   * `writer`'s change has been heard here: they are never served an answer it made stale. With
   * `heard` false, this instance cannot tell yet: they get no remembered answer at all until
   * wrote(writer) again, or until everything remembered now has expired.
   */
  wrote(writer: string, heard = true) {
    if (!this.options.serveStale && heard) {
      this.writers.delete(writer); // only an unheard write needs remembering here
      return;
    }
    this.writers.set(writer, heard ? this.epoch : UNHEARD, heard ? {} : { ttl: this.longestTtlMs });
  }

  /** How long anything stored now may be served. */
  private get longestTtlMs() {
    return Math.max(this.options.ttlMs, this.options.announcedTtlMs ?? 0);
  }

  private ttlOf(value: V, announced: boolean | ((value: V) => boolean)) {
    const kept = typeof announced === 'function' ? announced(value) : announced;
    return kept ? (this.options.announcedTtlMs ?? this.options.ttlMs) : this.options.ttlMs;
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

  /** Runs `compute` in its lane's queue, or at once without a cap. */
  private limit<T>(lane: string, compute: () => Promise<T>): Promise<T> {
    const cap = this.options.maxConcurrentMisses;
    if (!cap) return compute();
    let queue = this.lanes.get(lane);
    if (!queue) {
      queue = pLimit(cap);
      this.lanes.set(lane, queue);
    }
    return queue(compute);
  }

  private start(
    key: string,
    compute: () => Promise<V>,
    tagsOf: TagsOf<V> | undefined,
    lane: string,
    readSince: number | undefined,
    announced: boolean | ((value: V) => boolean),
  ): Promise<V> {
    const startedAt = Math.min(readSince ?? this.epoch, this.epoch);
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const promise: Promise<V> = this.limit(lane, compute)
      .then((value) => {
        const tags = [...(this.options.everyAnswerTags ?? []), ...(tagsOf?.(value) ?? [])];
        if (this.stillValid(key, tags, startedAt)) this.store(key, value, tags, this.ttlOf(value, announced));
        return value;
      })
      .finally(() => {
        if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
        settle();
      });
    this.pending.set(key, { startedAt, promise, settled });
    return promise;
  }

  /** Numbers the invalidation and remembers it; returns its number. */
  private remember(invalidations: Map<string, number>, name: string) {
    this.epoch++;
    if (this.tagInvalidatedAt.size + this.keyInvalidatedAt.size >= MAX_REMEMBERED_INVALIDATIONS) {
      // Forget them all, and with them every computation that might have needed one (they end as
      // usual, unstored; readers waiting for them then compute again).
      this.voidUpTo = this.epoch;
      this.tagInvalidatedAt.clear();
      this.keyInvalidatedAt.clear();
      return this.epoch;
    }
    invalidations.delete(name); // re-inserted last: the map stays in invalidation order
    invalidations.set(name, this.epoch);
    return this.epoch;
  }

  private stillValid(key: string, tags: readonly string[], startedAt: number) {
    if (startedAt < this.voidUpTo) return false;
    if ((this.keyInvalidatedAt.get(key) ?? 0) > startedAt) return false;
    return tags.every((tag) => (this.tagInvalidatedAt.get(tag) ?? 0) <= startedAt);
  }

  private store(key: string, value: V, tags: readonly string[], ttlMs: number) {
    this.remove(key);
    const entry: Entry<V> = { value, expires: this.now() + ttlMs, tags };
    this.entries.set(key, entry);
    // Too big to keep at all (lru-cache refuses it): not indexed either.
    if (this.entries.peek(key) === entry) this.index(key, tags);
  }

  private index(key: string, tags: readonly string[]) {
    for (const tag of tags) {
      let keys = this.keysByTag.get(tag);
      if (!keys) {
        keys = new Set();
        this.keysByTag.set(tag, keys);
      }
      keys.add(key);
    }
  }

  private unindex(key: string, entry: Entry<V>) {
    for (const tag of entry.tags) {
      const keys = this.keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByTag.delete(tag);
    }
  }

  private remove(key: string) {
    const entry = this.entries.peek(key);
    if (!entry) return;
    if (entry.staleSince === undefined) this.unindex(key, entry);
    this.entries.delete(key);
  }
}
