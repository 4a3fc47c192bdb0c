import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// The guard in a Node process of its own: what Node does with an unhandled rejection (end the process)
// is a property of the process, which a test's own listeners would hide.

const guard = pathToFileURL(path.resolve(import.meta.dirname, 'unhandled-rejections.ts')).href;

function runWith(installGuard: boolean) {
  const script = `
    const { keepServingThroughUnhandledRejections } = await import(${JSON.stringify(guard)});
    let counted = 0;
    if (${installGuard}) {
      keepServingThroughUnhandledRejections(process, {
        log: (reason) => console.error('logged:', reason.message),
        count: () => counted++,
      });
    }
    // What pg-boss 10 does with a job's outcome: a statement nobody awaits, on a connection that was cut.
    Promise.reject(new Error('Connection terminated unexpectedly'));
    setTimeout(() => console.log('still serving, counted', counted), 50);
  `;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('an unhandled rejection', () => {
  it('is logged and counted, and the process keeps running', () => {
    const run = runWith(true);
    expect(run.stderr).toContain('logged: Connection terminated unexpectedly');
    expect(run.stdout).toContain('still serving, counted 1');
    expect(run.status).toBe(0);
  });

  it('ends a process without the guard (what the guard is for)', () => {
    const run = runWith(false);
    expect(run.stdout).not.toContain('still serving');
    expect(run.status).not.toBe(0);
  });
});
