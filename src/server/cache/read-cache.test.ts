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
});
