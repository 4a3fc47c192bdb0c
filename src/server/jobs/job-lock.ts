import type { Database } from '../db/client.ts';

// Several server instances may run the timed jobs on one PostgreSQL: a session-level advisory lock
// lets one instance at a time do each job, and the others skip that round.

/** Runs `job` unless another instance holds its lock; answers whether it ran. */
export async function withJobLock(
  database: Database,
  lockId: number,
  job: () => Promise<void>,
): Promise<boolean> {
  if (!database.pool) {
    // The embedded database belongs to this one process.
    await job();
    return true;
  }
  const client = await database.pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
      lockId,
    ]);
    if (!rows[0]?.locked) return false;
    try {
      await job();
      return true;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [lockId]);
    }
  } finally {
    client.release();
  }
}
