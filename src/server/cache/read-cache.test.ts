import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('ReadCache', () => {
  it('answers from memory until the time limit, then computes again', async () => {
    let now = 0;
    let computed = 0;
    const cache = new ReadCache<number>({ maxEntries: 10, ttlMs: 1000, now: () => now });
    const compute = async () => ++computed;
    expect(await cache.get('a', compute)).toBe(1);
    now = 999;
    expect(await cache.get('a', compute)).toBe(1);
    now = 1000;
    expect(await cache.get('a', compute)).toBe(2);
  });

  it('keeps an answer whose every change is announced for announcedTtlMs, until an announcement drops it', async () => {
    let now = 0;
    let computed = 0;
    const cache = new ReadCache<number>({
      maxEntries: 10,
      ttlMs: 1000,
      announcedTtlMs: 60_000,
      now: () => now,
    });
    const compute = async () => ++computed;
    expect(await cache.get('list', compute, () => ['list:a'], { announced: true })).toBe(1);
    expect(await cache.get('search', compute, () => ['item:1'])).toBe(2);
    now = 30_000;
    // A search is not told of a new listing it would now find: it goes at the short limit.
    expect(await cache.get('search', compute, () => ['item:1'])).toBe(3);
    expect(await cache.get('list', compute, () => ['list:a'], { announced: true })).toBe(1);
    cache.invalidate('list:a');
    expect(await cache.get('list', compute, () => ['list:a'], { announced: true })).toBe(4);
    // The long limit still bounds an announcement that went missing.
    now = 90_000;
    expect(await cache.get('list', compute, () => ['list:a'], { announced: true })).toBe(5);
  });

  it('keeps for announcedTtlMs the answers its function says are announced, the others for ttlMs', async () => {
    let now = 0;
    let computed = 0;
    const cache = new ReadCache<string | undefined>({
      maxEntries: 10,
      ttlMs: 1000,
      announcedTtlMs: 60_000,
      now: () => now,
    });
    // A session that names a person is announced; a token that finds nobody names nobody.
    const find = (found: string | undefined) => async () => {
      computed++;
      return found;
    };
    const named = { announced: (value: string | undefined) => value !== undefined };
    expect(await cache.get('ana-token', find('ana'), undefined, named)).toBe('ana');
    expect(await cache.get('unknown-token', find(undefined), undefined, named)).toBeUndefined();
    now = 30_000;
    expect(await cache.get('ana-token', find('changed'), undefined, named)).toBe('ana');
    expect(await cache.get('unknown-token', find('bo'), undefined, named)).toBe('bo');
    expect(computed).toBe(3);
  });

  it('asks once for many readers that miss together', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 1000 });
    const answer = deferred<string>();
    let calls = 0;
    const compute = () => {
      calls++;
      return answer.promise;
    };
    const readers = [cache.get('k', compute), cache.get('k', compute), cache.get('k', compute)];
    answer.resolve('v');
    expect(await Promise.all(readers)).toEqual(['v', 'v', 'v']);
    expect(calls).toBe(1);
  });

  it('never stores an answer that was being computed when the cache was cleared', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    const old = deferred<string>();
    const reading = cache.get('list', () => old.promise);
    cache.clear(); // a write committed while the old rows were being read
    old.resolve('before the write');
    // The reader that asked first still gets its answer, but the next one reads again.
    expect(await reading).toBe('before the write');
    expect(await cache.get('list', async () => 'after the write')).toBe('after the write');
  });

  it('drops one key, and an answer for it under way, without touching the others', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    await cache.get('alice', async () => 'alice: 1 unread');
    await cache.get('bob', async () => 'bob: 0 unread');
    const old = deferred<string>();
    cache.delete('alice');
    const reading = cache.get('alice', () => old.promise);
    cache.delete('alice');
    old.resolve('alice: stale');
    await reading;
    expect(await cache.get('alice', async () => 'alice: 2 unread')).toBe('alice: 2 unread');
    expect(await cache.get('bob', async () => 'bob: recomputed')).toBe('bob: 0 unread');
  });

  it('forgets a failed computation, and keeps at most maxEntries answers', async () => {
    const cache = new ReadCache<number>({ maxEntries: 2, ttlMs: 60_000 });
    await expect(cache.get('x', async () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    expect(await cache.get('x', async () => 1)).toBe(1);
    await cache.get('y', async () => 2);
    await cache.get('z', async () => 3);
    expect(cache.size).toBe(2);
    expect(await cache.get('x', async () => 10)).toBe(10); // the oldest went first
  });

  it('computes every time when turned off', async () => {
    const cache = new ReadCache<number>({ maxEntries: 10, ttlMs: 0 });
    let n = 0;
    await cache.get('a', async () => ++n);
    expect(await cache.get('a', async () => ++n)).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('drops only the answers carrying an invalidated tag', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    const tagged = (tags: string[]) => () => tags;
    await cache.get('stanford list', async () => 'tent', tagged(['list:stanford.edu']));
    await cache.get('berkeley list', async () => 'stove', tagged(['list:berkeley.edu']));
    await cache.get('tent page', async () => 'tent page', tagged(['item:tent', 'user:ana']));
    cache.invalidate('list:stanford.edu');
    expect(await cache.get('stanford list', async () => 'tent, lantern')).toBe('tent, lantern');
    expect(await cache.get('berkeley list', async () => 'recomputed')).toBe('stove');
    expect(await cache.get('tent page', async () => 'recomputed')).toBe('tent page');
    cache.invalidate('user:ana');
    expect(await cache.get('tent page', async () => 'tent page, new name')).toBe('tent page, new name');
    expect(cache.size).toBe(3);
  });

  it('never stores an answer whose tag was invalidated while it was computed, nor lets anyone join it', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    const old = deferred<string>();
    let calls = 0;
    const reading = cache.get(
      'page',
      () => {
        calls++;
        return old.promise;
      },
      () => ['item:lamp'],
    );
    cache.invalidate('item:lamp'); // committed while the old rows were being read
    // A reader arriving now must not get the answer under way: it may predate the change.
    const later = cache.get('page', async () => {
      calls++;
      return 'after';
    });
    old.resolve('before');
    expect(await reading).toBe('before');
    expect(await later).toBe('after');
    expect(calls).toBe(2);
    expect(await cache.get('page', async () => 'again')).toBe('after');
    // An invalidation of another tag meanwhile does not stop an answer being stored.
    const fresh = deferred<string>();
    cache.delete('page');
    const reread = cache.get(
      'page',
      () => fresh.promise,
      () => ['item:lamp'],
    );
    cache.invalidate('item:desk');
    fresh.resolve('kept');
    await reread;
    expect(await cache.get('page', async () => 'not asked')).toBe('kept');
  });

  it('tells its observer each lookup: a hit when nothing is computed, a miss when something is', async () => {
    let now = 0;
    const cache = new ReadCache<number>({ maxEntries: 10, ttlMs: 1000, now: () => now });
    const seen: boolean[] = [];
    cache.observeLookups((hit) => seen.push(hit));
    const answer = deferred<number>();
    const first = cache.get('k', () => answer.promise);
    const joined = cache.get('k', () => answer.promise);
    answer.resolve(1);
    await Promise.all([first, joined]);
    await cache.get('k', async () => 2);
    now = 1000;
    await cache.get('k', async () => 3);
    cache.suspend();
    await cache.get('k', async () => 4);
    // Computed, joined the computation, stored, expired, paused.
    expect(seen).toEqual([false, true, true, false, false]);
  });

  it('keeps at most maxBytes, dropping the least recently used first', async () => {
    const cache = new ReadCache<string>({
      maxEntries: 100,
      maxBytes: 30,
      sizeOf: (value) => (value as string).length,
      ttlMs: 60_000,
    });
    await cache.get('a', async () => 'a'.repeat(10));
    await cache.get('b', async () => 'b'.repeat(10));
    await cache.get('c', async () => 'c'.repeat(10));
    expect(cache.bytes).toBe(30);
    await cache.get('a', async () => 'not asked'); // a is now the most recently used
    await cache.get('d', async () => 'd'.repeat(10));
    expect(cache.bytes).toBe(30);
    expect(await cache.get('a', async () => 'recomputed')).toBe('a'.repeat(10));
    expect(await cache.get('b', async () => 'recomputed')).toBe('recomputed'); // b went first
    // An answer bigger than the whole cache is answered, not kept.
    expect(await cache.get('huge', async () => 'h'.repeat(31))).toBe('h'.repeat(31));
    expect(await cache.get('huge', async () => 'again')).toBe('again');
    expect(cache.bytes).toBeLessThanOrEqual(30);
  });

  it('after an invalidation, computes once for its first reader and serves the old answer meanwhile, but not to its writer', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 60_000, serveStale: true });
    await cache.get(
      'home',
      async () => 'tent',
      () => ['list:stanford'],
    );
    cache.invalidate('list:stanford'); // ana's write, as its announcement is heard here…
    cache.wrote('ana'); // …before her request answers
    const fresh = deferred<string>();
    let calls = 0;
    const first = cache.get(
      'home',
      () => {
        calls++;
        return fresh.promise;
      },
      () => ['list:stanford'],
    );
    // While it is computed: the old answer, at once, to everyone but its writer.
    expect(await cache.get('home', async () => 'not asked')).toBe('tent');
    expect(await cache.get('home', async () => 'not asked', undefined, { reader: 'bo' })).toBe('tent');
    const ana = cache.get('home', async () => 'not asked', undefined, { reader: 'ana' });
    fresh.resolve('tent, lantern');
    expect(await first).toBe('tent, lantern');
    expect(await ana).toBe('tent, lantern');
    expect(calls).toBe(1);
    // Someone else's change after ana's: the old answer may go to ana while it is computed.
    const again = deferred<string>();
    cache.invalidate('list:stanford');
    const recomputing = cache.get(
      'home',
      () => again.promise,
      () => ['list:stanford'],
    );
    expect(await cache.get('home', async () => 'not asked', undefined, { reader: 'ana' })).toBe(
      'tent, lantern',
    );
    again.resolve('tent, lantern, stove');
    await recomputing;
  });

  it('runs one computation per key at a time, even when one under way was made void', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    const old = deferred<string>();
    let running = 0;
    let most = 0;
    const compute = (answer: Promise<string>) => async () => {
      running++;
      most = Math.max(most, running);
      try {
        return await answer;
      } finally {
        running--;
      }
    };
    const first = cache.get('list', compute(old.promise), () => ['list:stanford']);
    cache.invalidate('list:stanford'); // the first may have read the old rows
    const waiting = [1, 2, 3].map(() =>
      cache.get('list', compute(Promise.resolve('after')), () => ['list:stanford']),
    );
    old.resolve('before');
    expect(await first).toBe('before');
    expect(await Promise.all(waiting)).toEqual(['after', 'after', 'after']);
    expect(most).toBe(1);
  });

  it('computes at most maxConcurrentMisses answers at once; the others wait their turn', async () => {
    const cache = new ReadCache<number>({ maxEntries: 100, ttlMs: 60_000, maxConcurrentMisses: 2 });
    const gates = [0, 1, 2, 3, 4].map(() => deferred<number>());
    let started = 0;
    const readers = gates.map((gate, i) =>
      cache.get(`search ${i}`, () => {
        started++;
        return gate.promise;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(2);
    gates[0]!.resolve(0);
    await readers[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(3);
    for (const [i, gate] of gates.entries()) gate.resolve(i);
    expect(await Promise.all(readers)).toEqual([0, 1, 2, 3, 4]);
  });

  it('queues each lane apart: slow searches never hold up a quick item page', async () => {
    const cache = new ReadCache<string>({ maxEntries: 100, ttlMs: 60_000, maxConcurrentMisses: 1 });
    const slow = deferred<string>();
    const search = cache.get('search', () => slow.promise, undefined, { lane: 'lists' });
    const queued = cache.get('search 2', async () => 'second search', undefined, { lane: 'lists' });
    expect(await cache.get('item', async () => 'item page')).toBe('item page');
    slow.resolve('first search');
    expect(await Promise.all([search, queued])).toEqual(['first search', 'second search']);
  });

  it('adds tags learnt later to a stored answer, or drops it if one was invalidated since', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    await cache.get(
      'count',
      async () => '12',
      () => ['lists'],
    );
    cache.addTags('count', ['item:lamp'], cache.invalidations);
    cache.invalidate('item:lamp');
    expect(await cache.get('count', async () => '11')).toBe('11');
    const since = cache.invalidations;
    cache.invalidate('item:desk'); // while a page naming the desk was read
    cache.addTags('count', ['item:desk'], since);
    expect(await cache.get('count', async () => '10')).toBe('10');
  });

  it('says whether it holds a fresh answer or one a reader may join, and nothing when off', async () => {
    let now = 0;
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 1000, now: () => now });
    expect(cache.holds('k')).toBe(false);
    const answer = deferred<string>();
    const reading = cache.get(
      'k',
      () => answer.promise,
      () => ['t'],
    );
    expect(cache.holds('k')).toBe(true);
    cache.invalidate('other'); // a computation under way that nobody new may join
    expect(cache.holds('k')).toBe(false);
    answer.resolve('v');
    await reading;
    expect(cache.holds('k')).toBe(true);
    now = 1000;
    expect(cache.holds('k')).toBe(false);
    await cache.get(
      'k',
      async () => 'w',
      () => ['t'],
    );
    cache.invalidate('t');
    expect(cache.holds('k')).toBe(false);
    const off = new ReadCache<string>({ maxEntries: 10, ttlMs: 0 });
    await off.get('k', async () => 'v');
    expect(off.holds('k')).toBe(false);
  });

  it('keeps an answer read earlier (readSince) only if nothing it carries changed since then', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 60_000 });
    const since = cache.invalidations;
    cache.invalidate('list:books'); // after the page and its count were read
    expect(
      await cache.get(
        'count',
        async () => '7',
        () => ['list:books'],
        { readSince: since },
      ),
    ).toBe('7');
    expect(
      await cache.get(
        'count',
        async () => '6',
        () => ['list:books'],
      ),
    ).toBe('6');
    const later = cache.invalidations;
    cache.invalidate('list:tools');
    await cache.get(
      'other',
      async () => '3',
      () => ['list:books'],
      { readSince: later },
    );
    expect(await cache.get('other', async () => '4')).toBe('3');
  });

  it('revises a stale answer in place of its next computation: its first reader and its writer wait for it, the others get the old answer', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 60_000, serveStale: true });
    const tags = () => ['list:stanford'];
    await cache.get('home', async () => 'tent', tags);
    const card = deferred<string>();
    let revisedFrom: string | undefined;
    cache.invalidate('list:stanford', undefined, (old) => async () => {
      revisedFrom = old;
      return `${await card.promise}, ${old}`;
    });
    cache.wrote('ana');
    const notAsked = async () => {
      throw new Error('computed instead of revised');
    };
    expect(cache.holds('home')).toBe(false);
    // The first reader waits for it, as for a computation; the others get the old answer meanwhile.
    const first = cache.get('home', notAsked);
    expect(await cache.get('home', notAsked)).toBe('tent');
    const ana = cache.get('home', notAsked, undefined, { reader: 'ana' });
    card.resolve('lantern');
    expect(await first).toBe('lantern, tent');
    expect(await ana).toBe('lantern, tent');
    expect(revisedFrom).toBe('tent');
    expect(await cache.get('home', notAsked)).toBe('lantern, tent');
    // Revised, it carries its tags still.
    cache.invalidate('list:stanford');
    expect(await cache.get('home', async () => 'recomputed', tags)).toBe('recomputed');
  });

  it('never stores a revision that another change overtook, nor one that could not tell; its next reader computes', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 60_000, serveStale: true });
    const tags = () => ['list:stanford', 'lists'];
    await cache.get('home', async () => 'tent', tags);
    const card = deferred<string>();
    cache.invalidate('list:stanford', undefined, () => async () => `${await card.promise}, tent`);
    const writer = cache.get('home', async () => 'stove, tent', tags, { reader: 'ana', fresh: true });
    cache.invalidate('lists'); // an owner renamed while the card was read
    card.resolve('lantern');
    // The writer waited for the revision, which was not stored: they computed, and that was stored.
    expect(await writer).toBe('stove, tent');
    expect(await cache.get('home', async () => 'not asked', tags)).toBe('stove, tent');
    // A revision with nothing to say (or failing) leaves the stale answer to be recomputed.
    cache.invalidate('list:stanford', undefined, () => async () => undefined);
    expect(await cache.get('home', async () => 'recomputed', tags, { fresh: true })).toBe('recomputed');
    expect(await cache.get('home', async () => 'not asked', tags)).toBe('recomputed');
    cache.invalidate('list:stanford', undefined, () => async () => {
      throw new Error('card not read');
    });
    expect(await cache.get('home', async () => 'after a failure', tags, { fresh: true })).toBe(
      'after a failure',
    );
  });

  it('revises nothing while suspended, and stores no revision once cleared', async () => {
    const cache = new ReadCache<string>({ maxEntries: 10, ttlMs: 60_000, serveStale: true });
    const tags = () => ['list:stanford'];
    await cache.get('home', async () => 'tent', tags);
    const card = deferred<string>();
    cache.invalidate('list:stanford', undefined, () => async () => `${await card.promise}, tent`);
    cache.clear();
    card.resolve('lantern');
    await card.promise;
    expect(await cache.get('home', async () => 'recomputed', tags)).toBe('recomputed');
  });
});
