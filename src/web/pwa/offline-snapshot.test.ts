import { describe, expect, it } from 'vitest';
import { SNAPSHOT_MAX_AGE_MS, snapshotExpired, snapshotTime } from './offline-snapshot.ts';

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
