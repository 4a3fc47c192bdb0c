import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compileCatalogues } from './compile-catalogues.ts';
import { findHardCodedStrings } from './hard-coded-strings.ts';
import { untranslated } from './untranslated.ts';

// `npm run lint`'s language check (decision 035):
//   1. no user-facing English outside Lingui's macros (hard-coded-strings.ts);
//   2. the catalogues hold every message of the code (extraction changes nothing), compiled;
//   3. every message has its Spanish.

const root = path.resolve(import.meta.dirname, '../..');
const CODE = ['src/web', 'src/server', 'src/shared'];
const LOCALES_DIR = path.join(root, 'src/shared/locales');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('src/shared/locales/') && !file.includes('/demo/'));
}

function catalogueFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(LOCALES_DIR, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      files.set(file, readFileSync(file, 'utf8'));
    }
  }
  return files;
}

let failed = false;

const findings = CODE.flatMap((dir) => sourceFiles(dir)).flatMap((file) =>
  findHardCodedStrings(file, readFileSync(path.join(root, file), 'utf8')),
);
if (findings.length) {
  failed = true;
  console.error(`Hard-coded user-facing strings (${findings.length}); write them with Lingui's macros:`);
  for (const f of findings) console.error(`  ${f.file}:${f.line}  ${f.rule}: ${JSON.stringify(f.text)}`);
}

const before = catalogueFiles();
execFileSync(
  process.execPath,
  [path.join(root, 'node_modules/@lingui/cli/dist/lingui.js'), 'extract', '--clean'],
  {
    cwd: root,
    stdio: 'pipe',
  },
);
// Compiled without touching a module whose text stays the same: a new time on one would make the next
// `npm start` or browser run build everything again (scripts/build.mjs --if-stale).
compileCatalogues();
const after = catalogueFiles();
const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
  (f) => before.get(f) !== after.get(f),
);
if (changed.length) {
  failed = true;
  console.error('The catalogues were behind the code; `npm run i18n` has now updated them (commit them):');
  for (const f of changed) console.error(`  ${path.relative(root, f)}`);
}

const missing = untranslated(LOCALES_DIR, 'es');
if (missing.length) {
  failed = true;
  console.error(`Messages without Spanish (${missing.length}):`);
  for (const m of missing.slice(0, 50)) console.error(`  ${m.catalogue}: ${JSON.stringify(m.msgid)}`);
}

if (failed) process.exit(1);
console.log('Strings: every user-facing message is in the catalogues, in English and Spanish.');
