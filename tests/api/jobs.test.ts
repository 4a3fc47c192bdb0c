import { describe, expect, it } from 'vitest';
import { withJobLock } from '../../src/server/jobs/job-lock.ts';
import { setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();

describe('background job lock', () => {
  it('lets one holder at a time run a job on PostgreSQL; on the embedded database the one process always runs', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runs: string[] = [];
    const first = withJobLock(t.database, 99_001, async () => {
      runs.push('first');
      await held;
    });
    await new Promise((r) => setTimeout(r, 50));
    if (t.database.kind === 'postgres') {
      expect(await withJobLock(t.database, 99_001, async () => void runs.push('second'))).toBe(false);
      release();
      expect(await first).toBe(true);
      // Free again once the first is done.
      expect(await withJobLock(t.database, 99_001, async () => void runs.push('third'))).toBe(true);
      expect(runs).toEqual(['first', 'third']);
    } else {
      release();
      expect(await first).toBe(true);
      expect(runs).toEqual(['first']);
    }
  });
});
