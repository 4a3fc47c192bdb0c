import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// Compiles the PO catalogues (src/shared/locales/<locale>/<area>.po) to their TypeScript modules, as
// `lingui compile --typescript` does, but writes a module only when its text changes. Lingui rewrites
// every compiled file on each run; their new times told `node scripts/build.mjs --if-stale` that the
// sources had changed, so a `npm run lint` (whose language check compiles) cost the next `npm start`
// or browser run a whole build. Here Lingui compiles copies of the catalogues in a temporary folder,
// and only the modules that differ are copied back.
//
//   tsx scripts/i18n/compile-catalogues.ts     (`npm run i18n`, after `lingui extract`)

const root = path.resolve(import.meta.dirname, '../..');
const LOCALES = 'src/shared/locales';
const LINGUI = path.join(root, 'node_modules/@lingui/cli/dist/lingui.js');

/** Compiles every catalogue; answers the compiled modules it changed (paths relative to the project). */
export function compileCatalogues(): string[] {
  const work = mkdtempSync(path.join(os.tmpdir(), 'campusloop-catalogues-'));
  try {
    const locales = path.join(work, 'locales');
    cpSync(path.join(root, LOCALES), locales, {
      recursive: true,
      filter: (source) => !source.endsWith('.ts'),
    });
    // The project's own settings, with the catalogues' folder moved to the copy.
    const config = path.join(work, 'lingui.config.ts');
    writeFileSync(
      config,
      `import config from ${JSON.stringify(pathToFileURL(path.join(root, 'lingui.config.ts')).href)};\n` +
        'export default {\n' +
        '  ...config,\n' +
        `  rootDir: ${JSON.stringify(root)},\n` +
        '  catalogs: config.catalogs.map((catalog) => ({\n' +
        '    ...catalog,\n' +
        `    path: catalog.path.replace('<rootDir>/${LOCALES}', ${JSON.stringify(locales)}),\n` +
        '  })),\n' +
        '};\n',
    );
    execFileSync(process.execPath, [LINGUI, 'compile', '--typescript', '--config', config], {
      cwd: root,
      stdio: 'pipe',
    });
    const changed: string[] = [];
    for (const entry of readdirSync(locales, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const compiled = path.join(entry.parentPath, entry.name);
      const target = path.join(root, LOCALES, path.relative(locales, compiled));
      const text = readFileSync(compiled, 'utf8');
      if (existsSync(target) && readFileSync(target, 'utf8') === text) continue;
      writeFileSync(target, text);
      changed.push(path.relative(root, target));
    }
    return changed;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const changed = compileCatalogues();
  console.log(
    changed.length
      ? `Compiled catalogues written: ${changed.join(', ')}`
      : 'Compiled catalogues: all current, none written.',
  );
}
