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
});
