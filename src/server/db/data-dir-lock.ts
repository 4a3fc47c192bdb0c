import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

// One process per embedded database. PGlite has no server to arbitrate between processes:
// two of them on one DATA_DIR both start, and one's acknowledged writes vanish. The first takes an
// exclusive lock next to the database (DATA_DIR/pg.lock, made atomically with mkdir by proper-lockfile)
// and keeps it fresh; a second one is refused with a message that names the directory.
//
// A process that crashed cannot remove its lock; the lock then goes stale once it has not been
// refreshed for LOCK_STALE_MS, and a restart waits that long at most before taking it over. Waiting
// is only worth it for a dead holder: the holder writes who it is beside the lock (DATA_DIR/pg.owner),
// and a start that finds that process alive on this machine is refused at once.

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

interface LockOwner {
  pid: number;
  host: string;
}

const ownerFile = (databaseDir: string) => `${databaseDir}.owner`;

/**
 * Whether the lock's holder is known to be running: a process of this machine (same host name) that
 * is not this one and answers signal 0. Anything else (no owner file yet, another machine sharing
 * the folder, another container whose process ids are not ours) is unknown, and unknown waits.
 */
export function lockHolderAlive(databaseDir: string): boolean {
  let owner: LockOwner;
  try {
    owner = JSON.parse(readFileSync(ownerFile(databaseDir), 'utf8')) as LockOwner;
  } catch {
    return false;
  }
  if (owner.host !== os.hostname() || !Number.isInteger(owner.pid) || owner.pid === process.pid) {
    return false;
  }
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Takes the lock on `databaseDir` (DATA_DIR/pg) for this process; answers its release. `onLost` hears
 * of a lock taken over or removed while held: writing on would risk the data, so the caller stops.
 * `waitMs`: how long to wait for a holder that may have died (default: long enough for a crashed
 * one's lock to go stale); a holder known to be alive is refused at once, and 0 refuses any fresh
 * lock at once while still taking over a stale one (the backup command).
 */
export async function lockDataDir(
  databaseDir: string,
  onLost: (error: Error) => void,
  waitMs = LOCK_WAIT_MS,
): Promise<() => Promise<void>> {
  const lock = (retries: number) =>
    lockfile.lock(databaseDir, {
      stale: LOCK_STALE_MS,
      realpath: false,
      retries: { retries, factor: 1, minTimeout: RETRY_EVERY_MS },
      onCompromised: onLost,
    });
  try {
    let release: () => Promise<void>;
    try {
      release = await lock(0);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ELOCKED' || waitMs <= 0 || lockHolderAlive(databaseDir)) {
        throw error;
      }
      release = await lock(Math.ceil(waitMs / RETRY_EVERY_MS));
    }
    const owner: LockOwner = { pid: process.pid, host: os.hostname() };
    writeFileSync(ownerFile(databaseDir), `${JSON.stringify(owner)}\n`);
    return async () => {
      rmSync(ownerFile(databaseDir), { force: true });
      await release();
    };
  } catch (error) {
    if ((error as { code?: string }).code === 'ELOCKED') {
      throw new DataDirInUseError(path.resolve(path.dirname(databaseDir)));
    }
    throw error;
  }
}
