import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_STALE_MS, lockDataDir, lockHolderAlive } from './data-dir-lock.ts';

// The lock on DATA_DIR held by another process: a live holder is refused at once, a dead one's lock is
// taken over once stale.

const root = mkdtempSync(path.join(os.tmpdir(), 'campusloop-lock-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

/** Another process that takes the lock on `databaseDir` and keeps it until killed. */
async function holder(databaseDir: string): Promise<ChildProcess> {
  const lockModule = path.join(import.meta.dirname, 'data-dir-lock.ts');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { lockDataDir } = await import(${JSON.stringify(lockModule)});
       await lockDataDir(${JSON.stringify(databaseDir)}, () => process.exit(3), 0);
       console.log('locked');
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      if (String(d).includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return child;
}

function databaseDir(name: string) {
  const dataDir = path.join(root, name);
  mkdirSync(path.join(dataDir, 'pg'), { recursive: true });
  return path.join(dataDir, 'pg');
}

describe('the lock on DATA_DIR', () => {
  it('refuses at once while its holder runs, without waiting for the lock to go stale', async () => {
    const dir = databaseDir('live');
    await holder(dir);
    const started = performance.now();
    const error = await lockDataDir(dir, () => {}).catch((e: unknown) => e);
    const waited = performance.now() - started;
    expect(error).toBeInstanceOf(DataDirInUseError);
    // Waiting for a stale lock takes LOCK_STALE_MS and more; a refusal that asks the holder takes
    // a file read and a signal 0, far below a fifth of it even on a loaded machine.
    expect(waited).toBeLessThan(LOCK_STALE_MS / 5);
  }, 30_000);

  it('takes over the lock of a holder that died, once it is stale', async () => {
    const dir = databaseDir('dead');
    const child = await holder(dir);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(lockHolderAlive(dir)).toBe(false);
    const release = await lockDataDir(dir, () => {});
    expect(lockHolderAlive(dir)).toBe(false);
    await release();
  }, 30_000);

  it('counts as alive only a running process of this machine other than this one', async () => {
    const dir = databaseDir('owners');
    const owner = (pid: number, host = os.hostname()) =>
      writeFileSync(`${dir}.owner`, JSON.stringify({ pid, host }));
    const live = await holder(databaseDir('owners-live'));
    expect(lockHolderAlive(dir)).toBe(false); // no owner written
    owner(live.pid!);
    expect(lockHolderAlive(dir)).toBe(true);
    owner(live.pid!, `not-${os.hostname()}`);
    expect(lockHolderAlive(dir)).toBe(false);
    owner(process.pid);
    expect(lockHolderAlive(dir)).toBe(false);
    writeFileSync(`${dir}.owner`, 'not json');
    expect(lockHolderAlive(dir)).toBe(false);
  }, 30_000);
});
