import path from 'node:path';
import lockfile from 'proper-lockfile';

// One process per embedded database (issue 12). PGlite has no server to arbitrate between processes:
// two of them on one DATA_DIR both start, and one's acknowledged writes vanish. The first takes an
// exclusive lock next to the database (DATA_DIR/pg.lock, made atomically with mkdir by proper-lockfile)
// and keeps it fresh; a second one is refused with a message that names the directory.
//
// A process that crashed cannot remove its lock; the lock then goes stale once it has not been
// refreshed for LOCK_STALE_MS, and a restart waits that long at most before taking it over.

/** proper-lockfile refreshes the lock every half of this; a lock older than this is a dead process's. */
export const LOCK_STALE_MS = 10_000;
/** How long a start waits for a lock held by someone else: long enough for a crashed holder's to go stale. */
const LOCK_WAIT_MS = LOCK_STALE_MS + 2000;
const RETRY_EVERY_MS = 500;

export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `Another CampusLoop process is using the embedded database in ${dataDir}. ` +
        'Stop it first, or give this one its own DATA_DIR (or a DATABASE_URL).',
    );
    this.name = 'DataDirInUseError';
  }
}

/**
 * Takes the lock on `databaseDir` (DATA_DIR/pg) for this process; answers its release. `onLost` hears
 * of a lock taken over or removed while held: writing on would risk the data, so the caller stops.
 * `waitMs`: how long to wait for a holder (default: long enough for a crashed one's lock to go stale);
 * 0 refuses a live holder at once and still takes over a stale lock (the backup command).
 */
export async function lockDataDir(
  databaseDir: string,
  onLost: (error: Error) => void,
  waitMs = LOCK_WAIT_MS,
): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(databaseDir, {
      stale: LOCK_STALE_MS,
      realpath: false,
      retries: { retries: Math.ceil(waitMs / RETRY_EVERY_MS), factor: 1, minTimeout: RETRY_EVERY_MS },
      onCompromised: onLost,
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') {
      throw new DataDirInUseError(path.resolve(path.dirname(databaseDir)));
    }
    throw error;
  }
}
