import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OUTPUTS, staleness } from '../../scripts/build.mjs';

// `npm run lint` ends with the language check, which extracts and compiles the catalogues under src/;
// a build made before it must still be current after it, or the next `npm start` builds for nothing.

const root = path.resolve(import.meta.dirname, '../..');
const outDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-built-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('a build made before the language check', () => {
  it('is still current after it: the check writes no catalogue whose text stays the same', () => {
    // A complete build as --if-stale sees one: every output there, build.json written last, now.
    for (const file of OUTPUTS) {
      mkdirSync(path.dirname(path.join(outDir, file)), { recursive: true });
      writeFileSync(path.join(outDir, file), '');
    }
    expect(staleness(outDir)).toBeUndefined();

    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/i18n/check-strings.ts'], {
        cwd: root,
        stdio: 'pipe',
      });
    } catch {
      // Whether the strings pass is the lint's business; here only what the check wrote matters.
    }
    expect(staleness(outDir)).toBeUndefined();
  }, 180_000);
});
