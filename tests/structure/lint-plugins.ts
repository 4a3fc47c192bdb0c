import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// What the project's own Biome plugins (lint/*.grit, listed in biome.json, as `npm run lint` runs them)
// report over a tiny app written for the test: each rule's test plants code the rule must refuse beside
// code it must let through, and compares the places reported.

const root = path.resolve(import.meta.dirname, '../..');
const biome = path.join(root, 'node_modules/.bin/biome');

/**
 * Lints `files` (path → lines of code) with the project's plugins in a temporary folder; answers each
 * plugin diagnostic as `path:line`, in the order Biome reports them, keeping those whose message
 * `mentions` the given text when it is given.
 */
export async function pluginDiagnostics(
  files: Record<string, readonly string[]>,
  mentions?: string,
): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lint-plugins-'));
  try {
    const config = JSON.parse(await readFile(path.join(root, 'biome.json'), 'utf8')) as { plugins: string[] };
    const plugins = config.plugins.map((plugin) => path.resolve(root, plugin));
    await writeFile(path.join(dir, 'biome.json'), JSON.stringify({ plugins }));
    for (const [file, lines] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), `${lines.join('\n')}\n`);
    }
    const output = await promisify(execFile)(biome, ['lint', '--only=plugin', '--reporter=github', '.'], {
      cwd: dir,
    }).then(
      ({ stdout }) => stdout,
      // Biome exits non-zero when it reports anything: the report is what the test reads.
      (error: { stdout: string }) => error.stdout,
    );
    return output
      .split('\n')
      .filter((line) => line.startsWith('::error title=plugin') && (!mentions || line.includes(mentions)))
      .map((line) => {
        const [, file, at] = /file=([^,]+),line=(\d+)/.exec(line)!;
        return `${path.relative(dir, file!)}:${at}`;
      });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
