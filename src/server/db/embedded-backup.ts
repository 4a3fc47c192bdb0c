import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openPglite } from './client.ts';
import { DataDirInUseError } from './data-dir-lock.ts';

// Backups of the embedded database (DATA_DIR/pg) and the photos beside it (DATA_DIR/uploads), taken with
// the server stopped (decision 017). The server holds DATA_DIR's lock while it runs; taking the same lock
// here, without waiting, refuses a backup while a server runs, and no server can start during one. So the
// copy is of a database nobody is writing: PGlite's own dump of its data directory, which loads back as it
// was. PostgreSQL deployments use pg_dump instead (docs/deploy.md).

/** What a backup folder holds besides the files themselves. */
export interface BackupManifest {
  app: 'campusloop';
  format: 1;
  createdAt: string;
  /** The PGlite data directory as a gzipped tarball (PGlite's dumpDataDir). */
  database: string;
  /** Whether the folder has the photos (uploads/); a DATA_DIR whose photos are on S3 has none. */
  uploads: boolean;
  /** Accounts in the database when it was copied: a restore checks it finds as many. */
  users: number;
}

const MANIFEST = 'backup.json';
const DATABASE_FILE = 'database.tar.gz';

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

function hasDatabase(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'pg', 'PG_VERSION'));
}

function countUsers(database: Awaited<ReturnType<typeof openPglite>>): Promise<number> {
  return database.db
    .execute<{ n: number }>(sql`select count(*)::int as n from users`)
    .then((result) => result.rows[0]?.n ?? 0);
}

function stamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
}

/**
 * Copies DATA_DIR's database and photos into a new folder under `toDir`; answers its path and manifest.
 * Throws DataDirInUseError (data-dir-lock.ts) while a server uses DATA_DIR.
 */
export async function backupDataDir(opts: {
  dataDir: string;
  toDir: string;
  now?: Date;
}): Promise<{ folder: string; manifest: BackupManifest }> {
  const dataDir = path.resolve(opts.dataDir);
  if (!hasDatabase(dataDir)) throw new BackupError(`There is no embedded database in ${dataDir}.`);
  const createdAt = opts.now ?? new Date();
  const folder = path.join(path.resolve(opts.toDir), `campusloop-${stamp(createdAt)}`);
  if (existsSync(folder)) throw new BackupError(`${folder} exists already.`);
  const database = await openPglite(dataDir, undefined, { lockWaitMs: 0 });
  // Written under a temporary name and renamed when complete: a folder with the final name is whole.
  const partial = `${folder}.partial`;
  try {
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    const users = await countUsers(database);
    const dump = await database.pglite!.dumpDataDir('gzip');
    writeFileSync(path.join(partial, DATABASE_FILE), Buffer.from(await dump.arrayBuffer()));
    // Still under the lock: no server is storing photos meanwhile.
    const uploads = path.join(dataDir, 'uploads');
    const hasUploads = existsSync(uploads);
    if (hasUploads) cpSync(uploads, path.join(partial, 'uploads'), { recursive: true });
    const manifest: BackupManifest = {
      app: 'campusloop',
      format: 1,
      createdAt: createdAt.toISOString(),
      database: DATABASE_FILE,
      uploads: hasUploads,
      users,
    };
    writeFileSync(path.join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    renameSync(partial, folder);
    return { folder, manifest };
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  } finally {
    await database.close();
  }
}

/**
 * Loads a backup folder into `dataDir`, which must have no database yet (a restore never overwrites
 * one: move the old DATA_DIR aside first). The server migrates it on its next start, as after an upgrade.
 */
export async function restoreDataDir(opts: {
  from: string;
  dataDir: string;
}): Promise<{ manifest: BackupManifest; users: number }> {
  const from = path.resolve(opts.from);
  const dataDir = path.resolve(opts.dataDir);
  const manifestFile = path.join(from, MANIFEST);
  if (!existsSync(manifestFile))
    throw new BackupError(`${from} is not a CampusLoop backup (no ${MANIFEST}).`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
  if (manifest.app !== 'campusloop' || manifest.format !== 1) {
    throw new BackupError(`${from} is not a backup this version of CampusLoop can restore.`);
  }
  const pgDir = path.join(dataDir, 'pg');
  if (existsSync(pgDir) && readdirSync(pgDir).length > 0) {
    throw new BackupError(
      `${dataDir} has a database already. Restore into an empty DATA_DIR (move this one aside first).`,
    );
  }
  const uploads = path.join(dataDir, 'uploads');
  if (manifest.uploads && existsSync(uploads) && readdirSync(uploads).length > 0) {
    throw new BackupError(`${uploads} has files already. Restore into an empty DATA_DIR.`);
  }

  const tarball = new Blob([readFileSync(path.join(from, manifest.database))]);
  let database: Awaited<ReturnType<typeof openPglite>> | undefined;
  try {
    database = await openPglite(dataDir, tarball, { lockWaitMs: 0 });
    const users = await countUsers(database);
    if (users !== manifest.users) {
      throw new BackupError(`The restored database has ${users} accounts; the backup had ${manifest.users}.`);
    }
    if (manifest.uploads) cpSync(path.join(from, 'uploads'), uploads, { recursive: true });
    return { manifest, users };
  } catch (error) {
    // Another process holds DATA_DIR (a server started meanwhile): its files are not ours to remove.
    if (error instanceof DataDirInUseError) throw error;
    // Nothing half-restored stays behind to be mistaken for a database.
    await database?.close();
    database = undefined;
    rmSync(pgDir, { recursive: true, force: true });
    throw error;
  } finally {
    await database?.close();
  }
}
