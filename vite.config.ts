import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every built script, style sheet and SVG, once, at
 * the highest levels: the server sends the smallest one the browser accepts (plugins/web.ts), without
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
 * equal the request's own origin, plugins/security.ts) then refused every sign-in with 403
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

// The web app lives in src/web and builds to dist/web, which the server serves. `vite build` builds both
// environments (`builder`): the browser's app, and in dist/server the render entry with which the server
// pre-renders Home and Browse for visitors (entry-server.tsx, plugins/web-render.ts).
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), precompress()],
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
    // Which chunk holds each page, so the server can hint a pre-rendered page's chunk (plugins/web-render.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        // Everything the first page needs in one file: the bundler would otherwise split the modules
        // that lazy pages share with it into small chunks, each one more request before anything shows
        // (six connections per host over HTTP/1.1; on a slow phone network every round trip counts).
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
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
