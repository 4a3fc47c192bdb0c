import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Database, openPglite } from '../../src/server/db/client.ts';
import { DataDirInUseError } from '../../src/server/db/data-dir-lock.ts';
import { BackupError, backupDataDir, restoreDataDir } from '../../src/server/db/embedded-backup.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { createUser } from '../factories.ts';
import { RUN_SOURCES } from '../helpers/server-process.ts';

// `npm run backup` / `npm run restore` (decision 017): a consistent copy of the embedded database and its
// photos, taken with the server stopped. Backed up, restored into a fresh DATA_DIR, and the account and
// the photo are there; never while a server holds DATA_DIR, never over a database.

const root = mkdtempSync(path.join(os.tmpdir(), 'campusloop-backup-'));
const dataDir = path.join(root, 'data');
const backups = path.join(root, 'backups');
const photo = Buffer.from('a photo, as stored');
let email = '';

/** The CLI from source (the bundle runs the same module): exit code and everything it printed. */
function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [...RUN_SOURCES, 'src/server/backup.ts', ...args], {
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** An embedded database in `dir` as a server leaves it: migrated (from the suite's copy when there is one). */
async function openDataDir(dir: string): Promise<Database> {
  const dump = inject('pgliteDump');
  const database = await openPglite(dir, dump ? new Blob([readFileSync(dump)]) : undefined);
  await database.migrate();
  return database;
}

beforeAll(async () => {
  const database = await openDataDir(dataDir);
  email = (await createUser(database.db)).email;
  mkdirSync(path.join(dataDir, 'uploads', 'items'), { recursive: true });
  writeFileSync(path.join(dataDir, 'uploads', 'items', 'mug.jpg'), photo);
  await database.close();
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('backups of the embedded database', () => {
  it('refuses while a server holds DATA_DIR, at once and saying so', async () => {
    const server = await openPglite(dataDir);
    try {
      const started = Date.now();
      await expect(backupDataDir({ dataDir, toDir: backups })).rejects.toBeInstanceOf(DataDirInUseError);
      // No waiting for the lock as a starting server does.
      expect(Date.now() - started).toBeLessThan(5000);
      const refused = await cli(['backup', '--to', backups], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`A CampusLoop server is running on ${dataDir}: stop it first.`);
      expect(existsSync(backups) ? readdirSync(backups) : []).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('backs up, restores into a fresh DATA_DIR, and the account and the photo are there', async () => {
    const backedUp = await cli(['backup', '--to', backups], { DATA_DIR: dataDir });
    expect(backedUp.output).toMatch(/Backed up .* \(1 accounts, photos\) to /);
    expect(backedUp.code).toBe(0);
    const [folder] = readdirSync(backups);
    expect(folder).toMatch(/^campusloop-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    const from = path.join(backups, folder!);
    expect(JSON.parse(readFileSync(path.join(from, 'backup.json'), 'utf8'))).toMatchObject({
      app: 'campusloop',
      format: 1,
      database: 'database.tar.gz',
      uploads: true,
      users: 1,
    });

    const fresh = path.join(root, 'restored');
    const restored = await cli(['restore', from], { DATA_DIR: fresh });
    expect(restored.output).toContain(`Restored ${from} into ${fresh} (1 accounts).`);
    expect(restored.code).toBe(0);

    const database = await openPglite(fresh);
    try {
      // Migrating a restored database changes nothing that is there (the next start does this).
      await database.migrate();
      const found = await database.db.select().from(users).where(eq(users.email, email));
      expect(found).toHaveLength(1);
    } finally {
      await database.close();
    }
    expect(readFileSync(path.join(fresh, 'uploads', 'items', 'mug.jpg'))).toEqual(photo);

    // A restore never writes over a database: the original is still one.
    await expect(restoreDataDir({ from, dataDir })).rejects.toThrow(
      new BackupError(
        `${dataDir} has a database already. Restore into an empty DATA_DIR (move this one aside first).`,
      ),
    );
  }, 120_000);

  it('says what it cannot do: no database to copy, no backup to restore, a PostgreSQL server', async () => {
    const empty = path.join(root, 'empty');
    await expect(backupDataDir({ dataDir: empty, toDir: backups })).rejects.toThrow(
      `There is no embedded database in ${empty}.`,
    );
    await expect(restoreDataDir({ from: root, dataDir: empty })).rejects.toThrow(
      `${root} is not a CampusLoop backup (no backup.json).`,
    );
    const postgres = await cli(['backup'], { DATA_DIR: empty, DATABASE_URL: 'postgres://db/campusloop' });
    expect(postgres.code).toBe(1);
    expect(postgres.output).toContain('back it up with pg_dump');
  });
});
