import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { linguiMacros } from './scripts/lingui-macro.mjs';
import { PWA_ICONS, pwaIcons, SHORTCUT_ICON } from './scripts/pwa-icons.ts';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every built script, style sheet and SVG, once, at
 * the highest levels: the server sends the smallest one the browser accepts (composition/web.ts), without
 * compressing anything per request. On a slow phone network this is most of the page's load time.
 */
function precompress(): Plugin {
  return {
    name: 'campusloop:precompress',
    apply: 'build',
    // The browser's files only: the server's render bundle (dist/server) is read from disk by Node.
    applyToEnvironment: (environment) => environment.name === 'client',
    writeBundle(options, bundle) {
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css|svg|html)$/.test(file)) continue;
        const target = path.join(options.dir!, file);
        const data = readFileSync(target);
        if (data.length < 1024) continue;
        writeFileSync(
          `${target}.br`,
          brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(`${target}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * Forwards the API's paths to the API server with the browser's own Host header. Vite's string shorthand
 * (`'/api': 'http://…'`) sets `changeOrigin: true`, which rewrites Host to the API's 127.0.0.1:5001
 * while the browser's Origin stays http://localhost:5000; the API's same-origin rule (Origin must
 * equal the request's own origin, http/security.ts) then refused every sign-in with 403
 * CROSS_ORIGIN. Keeping Host lets the API see the request as the browser sent it, so the rule is the
 * same in development as in production, with no extra origin allowed. tests/api/dev-proxy.test.ts.
 */
function devProxy(api: string): Record<string, ProxyOptions> {
  return {
    '/api': { target: `http://${api}`, changeOrigin: false },
    '/uploads': { target: `http://${api}`, changeOrigin: false },
    '/ws': { target: `ws://${api}`, ws: true, changeOrigin: false },
  };
}

/** The brand green of the header, the favicon and the browser's bar (app.css --color-brand-700). */
const THEME_COLOR = '#047857';

/**
 * The installable app (issue 19): the web app manifest, icons drawn from the favicon at build time
 * (scripts/pwa-icons.ts), and the service worker src/web/sw.ts, which vite-plugin-pwa builds with
 * Workbox's precache list of the hashed files injected (injectManifest). The worker is registered by
 * pwa/update-prompt.tsx, which asks before a new version takes over (registerType 'prompt'). The
 * server sends sw.js and the manifest with `Cache-Control: no-cache` (composition/web.ts), so a deploy is
 * seen at the next visit.
 */
function installableApp() {
  const icon = (src: string, size: number, purpose: string) => ({
    src: `/${src}`,
    sizes: `${size}x${size}`,
    type: 'image/png',
    purpose,
  });
  const shortcut = (name: string, description: string, url: string) => ({
    name,
    short_name: name,
    description,
    url,
    icons: [icon(SHORTCUT_ICON, 96, 'any')],
  });
  const plugins = VitePWA({
    strategies: 'injectManifest',
    srcDir: '.',
    filename: 'sw.ts',
    registerType: 'prompt',
    // Registered by the app's own code with workbox-window (pwa/update-prompt.tsx), never by an inline
    // script (the CSP).
    injectRegister: false,
    manifestFilename: 'manifest.webmanifest',
    manifest: {
      id: '/',
      name: 'CampusLoop',
      short_name: 'CampusLoop',
      description: "Borrow what you need, lend what you don't: a lending marketplace for your campus.",
      lang: 'en',
      dir: 'ltr',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      orientation: 'any',
      theme_color: THEME_COLOR,
      // app.css --color-surface: the splash screen matches the page that follows it.
      background_color: '#fafaf9',
      categories: ['education', 'shopping', 'lifestyle'],
      icons: PWA_ICONS.map((i) => icon(i.fileName, i.size, i.purpose)),
      shortcuts: [
        shortcut('Browse', 'Find something to borrow', '/browse'),
        shortcut('List', 'Lend something of yours', '/list-item'),
        shortcut('Chat', 'Your conversations', '/chat'),
      ],
    },
    injectManifest: {
      // What the build names by content, plus the icons and the manifest. Not the HTML: pages always
      // come from the server (pre-rendered, with its headers); the offline page is made by the worker.
      globPatterns: ['**/*.{js,css,svg,png,webmanifest}'],
      globIgnores: ['**/*.br', '**/*.gz', '.vite/**', 'sw.js'],
      // The worker writes the offline page in the app's language (pwa/offline-page.ts): its own build
      // compiles Lingui's macros too (a plugin instance of its own, as vite-plugin-pwa asks).
      buildPlugins: { vite: [linguiMacros()] },
    },
  });
  // The browser's build only: the server's render entry has no use for a manifest or a worker.
  return plugins.map(
    (plugin): Plugin => ({ ...plugin, applyToEnvironment: (environment) => environment.name === 'client' }),
  );
}

// The web app lives in src/web and builds to dist/web, which the server serves. `vite build` builds both
// environments (`builder`): the browser's app, and in dist/server the render entry with which the server
// pre-renders Home and Browse for visitors (entry-server.tsx, composition/web-render.ts).
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [
    linguiMacros(),
    react(),
    tailwindcss(),
    precompress(),
    pwaIcons(fileURLToPath(new URL('./src/web/public/favicon.svg', import.meta.url))),
    installableApp(),
  ],
  builder: {},
  environments: {
    ssr: {
      // One self-contained file: React and the rest bundled in (they are dev dependencies, the browser's
      // code), production React whatever NODE_ENV the server runs with.
      resolve: { noExternal: true },
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir: '../../dist/server',
        emptyOutDir: true,
        ssr: true,
        // Minified: the server runs under tsx, whose loader transforms every module it imports, and
        // transforming the 2 MB readable bundle held ~150 MB of the server's memory (docs/performance.md).
        minify: true,
        manifest: false,
        copyPublicDir: false,
        rolldownOptions: {
          input: { 'entry-server': 'entry-server.tsx' },
          output: { codeSplitting: false },
        },
      },
    },
  },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    // Which chunk holds each page, so the server can hint a pre-rendered page's chunk
    // (src/server/composition/web-render.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        // Everything the first page needs in one file: the bundler would otherwise split the modules
        // that lazy pages share with it into small chunks, each one more request before anything shows
        // (six connections per host over HTTP/1.1; on a slow phone network every round trip counts).
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'] },
            // What every Radix overlay shares (dismissal, focus trap, portal, scroll lock), in one file
            // instead of three: none of it is in the first script any more (no page's first screen has an
            // open overlay), and the item page's dialog frames need all of it at once.
            // The icons the first script does not hold, in one file: lucide makes each icon a module, and
            // a page showing ten of them asked for ten files of about 1 KB, each a round trip before the
            // page could be painted on a slow phone network. All of them together are fewer bytes than
            // the requests' own overhead.
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/ },
            {
              name: 'overlay',
              test: /node_modules[\\/](@radix-ui[\\/](primitive|react-(primitive|context|use-[a-z-]+|presence|dismissable-layer|portal|id|focus-scope|focus-guards))|tslib|react-remove-scroll|react-remove-scroll-bar|use-callback-ref|use-sidecar|get-nonce|react-style-singleton|aria-hidden)[\\/]/,
            },
          ],
        },
      },
    },
  },
  // `npm run dev` (scripts/dev.ts): the API listens on API_PORT and Vite forwards it the API's paths.
  server: {
    port: Number(process.env.PORT ?? 5000),
    strictPort: true,
    proxy: devProxy(`127.0.0.1:${process.env.API_PORT ?? 5001}`),
  },
});
