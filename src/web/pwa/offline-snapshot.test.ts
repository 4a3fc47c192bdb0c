import { describe, expect, it } from 'vitest';
import {
  offlineLocale,
  SNAPSHOT_MAX_AGE_MS,
  saveOfflineLocale,
  snapshotExpired,
  snapshotTime,
} from './offline-snapshot.ts';

const user = { id: 'u1', fullName: 'Jordan Lee' };

describe('the offline snapshot’s age', () => {
  it('is the newer of its two lists', () => {
    expect(
      snapshotTime({
        user,
        reservations: { savedAt: '2026-11-24T10:00:00.000Z', list: [] },
        conversations: { savedAt: '2026-11-24T11:00:00.000Z', list: [] },
      }),
    ).toBe('2026-11-24T11:00:00.000Z');
    expect(snapshotTime({ user })).toBeUndefined();
  });

  it('is shown for a session’s life (30 days), not after, and never without a time', () => {
    const savedAt = '2026-11-24T10:00:00.000Z';
    const snapshot = { user, reservations: { savedAt, list: [] } };
    expect(snapshotExpired(snapshot, Date.parse(savedAt) + SNAPSHOT_MAX_AGE_MS)).toBe(false);
    expect(snapshotExpired(snapshot, Date.parse(savedAt) + SNAPSHOT_MAX_AGE_MS + 1)).toBe(true);
    expect(SNAPSHOT_MAX_AGE_MS).toBe(30 * 86_400_000);
    expect(snapshotExpired({ user }, Date.parse(savedAt))).toBe(true);
  });
});

/** The Cache API, as much of it as the language's record uses. */
function memoryCaches(): CacheStorage {
  const caches = new Map<string, Map<string, Response>>();
  return {
    async open(name: string) {
      const entries = caches.get(name) ?? new Map<string, Response>();
      caches.set(name, entries);
      return {
        async put(url: string, response: Response) {
          entries.set(url, response);
        },
        async match(url: string) {
          return entries.get(url)?.clone();
        },
      } as unknown as Cache;
    },
    async delete(name: string) {
      return caches.delete(name);
    },
  } as unknown as CacheStorage;
}

describe('the offline page’s language', () => {
  it('is the one the app last spoke here, whatever the browser prefers', async () => {
    const caches = memoryCaches();
    await saveOfflineLocale('es', caches);
    expect(await offlineLocale(caches, ['en-US', 'en'])).toBe('es');
    await saveOfflineLocale('en', caches);
    expect(await offlineLocale(caches, ['es-MX'])).toBe('en');
  });

  it('else the first of the browser’s languages we speak, else English', async () => {
    const caches = memoryCaches();
    expect(await offlineLocale(caches, ['fr-FR', 'es-MX', 'en'])).toBe('es');
    expect(await offlineLocale(caches, ['fr-FR'])).toBe('en');
    expect(await offlineLocale(undefined, [])).toBe('en');
  });
});
