// @ts-check
// `npm run build`: the web app (dist/web, with its service worker, manifest and icons), its
// pre-rendering entry (dist/server/entry-server.js), and the server bundled into dist/server/main.js
// and dist/server/backup.js, which run on plain `node` with the production dependencies only. Beside
// them go the files the server reads at run time, in the layout src/server has
// (src/server/server-dir.ts): the SQL migrations and the university directory.
//
//   node scripts/build.mjs                 build into dist
//   node scripts/build.mjs --out-dir <dir> build into another folder (the production-bundle test)
//   node scripts/build.mjs --if-stale      build only when dist is missing or older than the sources
//                                          (`npm start`); returns at once otherwise
//   node scripts/build.mjs --check         exit 0 when dist is complete and current, else 1 saying why
//
// Plain JavaScript, not TypeScript: `npm start` runs it before every start, where tsx's loader would
// cost more than the check itself, and it must run in an install without dev dependencies (it then
// only checks; building needs vite and esbuild).

import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What the bundle may carry from packages that are not dependencies: the demo photos' icon shapes, and
 * the e-mail template's react-email components with the React that renders them to static HTML
 * (decision 032), compiled in, so a production install has no React package.
 */
const BUNDLED_DEV_PACKAGES = new Set([
  // Lingui's run time and its message compiler (decision 035): compiled in, so a production install
  // does not bring its Babel macro along (an optional peer of @lingui/core that npm installs with it).
  '@lingui/core',
  '@lingui/message-utils',
  '@messageformat/parser',
  'moo',
  'lucide-react',
  'react',
  'react-dom',
  'scheduler',
  '@react-email/body',
  '@react-email/button',
  '@react-email/container',
  '@react-email/head',
  '@react-email/html',
  '@react-email/link',
  '@react-email/preview',
  '@react-email/section',
  '@react-email/text',
]);

/**
 * The demo photos draw lucide's icon shapes (src/server/demo/icons.ts). Each icon module also makes its
 * React component, which would bring React into the server; the component maker is replaced by a stub.
 * @type {import('esbuild').Plugin}
 */
const iconShapesOnly = {
  name: 'icon-shapes-only',
  setup(build) {
    build.onResolve({ filter: /\/createLucideIcon\.mjs$/ }, () => ({
      path: 'createLucideIcon',
      namespace: 'icon-shapes-only',
    }));
    build.onLoad({ filter: /.*/, namespace: 'icon-shapes-only' }, () => ({
      contents: 'export default function createLucideIcon() { return undefined; }',
      loader: 'js',
    }));
  },
};

/**
 * Lingui's macros in the server's code (its error messages, notifications and e-mails, decision 035).
 * @type {import('esbuild').Plugin}
 */
const linguiMacros = {
  name: 'lingui-macros',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, async (args) => {
      const source = readFileSync(args.path, 'utf8');
      const { transformLinguiMacros } = await import('./lingui-macro.mjs');
      const result = await transformLinguiMacros(source, args.path);
      if (!result) return undefined;
      return { contents: result.code, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

/** Files that change what the build makes; tests do not. */
const INPUTS = [
  'src',
  'vite.config.ts',
  'lingui.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'scripts/build.mjs',
  // The installable app's icons are drawn by it (vite.config.ts).
  'scripts/pwa-icons.ts',
];

/** Everything a complete build has; one missing means building again. */
export const OUTPUTS = [
  'web/index.html',
  // The installable app (vite-plugin-pwa): the service worker and the web app manifest.
  'web/sw.js',
  'web/manifest.webmanifest',
  'server/entry-server.js',
  'server/main.js',
  'server/backup.js',
  'server/embedded-thread.js',
  'server/db/migrations/meta/_journal.json',
  'server/data/us-universities.json',
  'build.json',
];

/** The newest modification time among the build's inputs (0 when there are no sources, as in an image). */
function newestInput() {
  let newest = 0;
  const visit = (file) => {
    if (!existsSync(file)) return;
    const stat = statSync(file);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (!/\.test\.tsx?$/.test(file)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const input of INPUTS) visit(path.join(root, input));
  return newest;
}

/** Why `outDir` needs building, or undefined when it is complete and newer than every source. */
export function staleness(outDir = path.join(root, 'dist')) {
  const missing = OUTPUTS.find((file) => !existsSync(path.join(outDir, file)));
  if (missing) return `${path.relative(root, path.join(outDir, missing))} is missing`;
  const builtAt = statSync(path.join(outDir, 'build.json')).mtimeMs;
  if (newestInput() > builtAt) return 'the sources changed since the last build';
  return undefined;
}

/** The bundled server's settings: our code in one file each, every dependency loaded from node_modules. */
async function bundleServer(outDir) {
  const esbuild = await import('esbuild');
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      main: 'src/server/main.ts',
      backup: 'src/server/backup.ts',
      // The embedded database's thread, which the server starts from beside its own file.
      'embedded-thread': 'src/server/db/embedded-thread.ts',
    },
    outdir: path.join(outDir, 'server'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Dependencies stay packages: the native and WebAssembly ones (sharp, @node-rs/argon2, PGlite and
    // its extensions' files) must, and the others then load as they were tested.
    external: Object.keys(pkg.dependencies ?? {}),
    // A CommonJS module compiled into the bundle may still call require().
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    // Class and function names as written: errors and logs name them.
    keepNames: true,
    // Stack traces point into src/ with NODE_OPTIONS=--enable-source-maps.
    sourcemap: 'linked',
    sourcesContent: false,
    plugins: [iconShapesOnly, linguiMacros],
    metafile: true,
    logLevel: 'warning',
  });
  const bundled = new Set();
  for (const input of Object.keys(result.metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match?.[1]) bundled.add(match[1]);
  }
  const unexpected = [...bundled].filter((name) => !BUNDLED_DEV_PACKAGES.has(name));
  if (unexpected.length) {
    throw new Error(
      `The server imports ${unexpected.join(', ')}, which ${unexpected.length > 1 ? 'are' : 'is'} not in ` +
        '"dependencies": move it there (a production install leaves dev dependencies out).',
    );
  }
}

/** The files the server reads at run time, where src/server/server-dir.ts finds them from the bundle. */
function copyRuntimeFiles(outDir) {
  const server = path.join(outDir, 'server');
  cpSync(path.join(root, 'src/server/db/migrations'), path.join(server, 'db/migrations'), {
    recursive: true,
  });
  mkdirSync(path.join(server, 'data'), { recursive: true });
  for (const file of ['us-universities.json', 'us-universities.LICENSE-hipo.txt']) {
    cpSync(path.join(root, 'src/server/data', file), path.join(server, 'data', file));
  }
}

export async function build(outDir = path.join(root, 'dist')) {
  const started = performance.now();
  rmSync(path.join(outDir, 'build.json'), { force: true });
  // A production build whoever calls it: Vite and its React plugin take NODE_ENV over the build mode,
  // and a build started from a test (vitest sets NODE_ENV=test) compiled JSX for React's development
  // runtime, whose jsxDEV the production React in the render entry does not have: the pre-rendering
  // entry then failed to load and every page was the bare shell (tests/api/production-bundle.test.ts).
  process.env.NODE_ENV = 'production';
  const { createBuilder } = await import('vite');
  const builder = await createBuilder(
    {
      configFile: path.join(root, 'vite.config.ts'),
      build: { outDir: path.join(outDir, 'web') },
      environments: { ssr: { build: { outDir: path.join(outDir, 'server') } } },
    },
    null,
  );
  await builder.buildApp();
  const webBuilt = performance.now();
  await bundleServer(outDir);
  copyRuntimeFiles(outDir);
  // Written last: its time is the build's, and a build that failed half-way has none.
  writeFileSync(
    path.join(outDir, 'build.json'),
    `${JSON.stringify({ builtAt: new Date().toISOString() }, null, 2)}\n`,
  );
  const seconds = (from, to = performance.now()) => `${((to - from) / 1000).toFixed(1)} s`;
  console.log(
    `CampusLoop built into ${path.relative(process.cwd(), outDir) || '.'} in ${seconds(started)} ` +
      `(web app ${seconds(started, webBuilt)}, server bundle ${seconds(webBuilt)})`,
  );
}

async function hasBuildTools() {
  try {
    await import('vite');
    await import('esbuild');
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out-dir');
  const outDir = outIndex >= 0 ? path.resolve(args[outIndex + 1] ?? 'dist') : path.join(root, 'dist');
  // Vite's config names its folders relative to the project.
  process.chdir(root);
  try {
    if (args.includes('--check')) {
      const reason = staleness(outDir);
      if (reason) console.log(`CampusLoop needs building: ${reason}.`);
      process.exit(reason ? 1 : 0);
    }
    if (args.includes('--if-stale')) {
      const reason = staleness(outDir);
      if (reason) {
        if (!(await hasBuildTools())) {
          console.error(
            `CampusLoop needs building (${reason}), and building needs the dev dependencies: ` +
              'run `npm ci`, then `npm run build`.',
          );
          process.exit(1);
        }
        console.log(`Building CampusLoop: ${reason}.`);
        await build(outDir);
      }
    } else {
      await build(outDir);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
