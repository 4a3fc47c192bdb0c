import { existsSync } from 'node:fs';
import path from 'node:path';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { BackupError, backupDataDir, restoreDataDir } from './db/embedded-backup.ts';

// `npm run backup` and `npm run restore`: the embedded database and its photos, with the server stopped
// (db/embedded-backup.ts, docs/deploy.md). Bundled into dist/server/backup.js beside the server.
//
//   npm run backup [-- --to <folder>]     DATA_DIR → <folder>/campusloop-<time>/ (default ./backups)
//   npm run restore -- <backup folder>    the backup → DATA_DIR, which must have no database yet

const USAGE = 'Usage: npm run backup [-- --to <folder>]  |  npm run restore -- <backup folder>';

async function main(args: string[]): Promise<number> {
  // The same settings as the server: a .env file beside package.json fills in what the environment lacks.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const dataDir = path.resolve(process.env.DATA_DIR || './data');
  const [command, ...rest] = args;
  if (command !== 'backup' && command !== 'restore') {
    console.error(USAGE);
    return 2;
  }
  if (process.env.DATABASE_URL) {
    console.error(
      'This CampusLoop uses PostgreSQL (DATABASE_URL): back it up with pg_dump and restore it with ' +
        'pg_restore (docs/deploy.md). npm run backup copies the embedded database only.',
    );
    return 1;
  }
  try {
    if (command === 'backup') {
      const to = rest[0] === '--to' && rest[1] ? rest[1] : rest[0] === undefined ? './backups' : undefined;
      if (!to) {
        console.error(USAGE);
        return 2;
      }
      const { folder, manifest } = await backupDataDir({ dataDir, toDir: to });
      console.log(
        `Backed up ${dataDir} (${manifest.users} accounts${manifest.uploads ? ', photos' : ''}) to ${folder}`,
      );
      return 0;
    }
    const from = rest[0];
    if (!from) {
      console.error(USAGE);
      return 2;
    }
    const { users } = await restoreDataDir({ from, dataDir });
    console.log(`Restored ${from} into ${dataDir} (${users} accounts). Start the server to use it.`);
    return 0;
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      console.error(
        `A CampusLoop server is running on ${dataDir}: stop it first. The embedded database is copied with ` +
          'the server stopped, so that the copy is consistent. (A crashed server’s lock is taken over ' +
          'once it is 10 s old.)',
      );
      return 1;
    }
    if (error instanceof BackupError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error('CampusLoop backup failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
