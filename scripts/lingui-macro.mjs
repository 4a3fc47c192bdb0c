// @ts-check
// Lingui's macros (`<Trans>`, t`…`, msg`…`) become message descriptors at build time, through Babel.
// @vitejs/plugin-react 6 no longer runs Babel and esbuild never did, so one transform serves every
// place our code is compiled: Vite (the web app and its tests), esbuild (the server bundle) and the
// development server's loader (scripts/lingui-loader.mjs). Only files that import a macro pay for it.
// Decision 035.

const MACRO_IMPORT = /from\s*['"]@lingui\/(?:core|react)\/macro['"]/;

/**
 * @param {string} code TypeScript source
 * @param {string} filename its path (.ts or .tsx decides whether JSX is parsed)
 * @returns {Promise<{ code: string, map: any } | null>} null when the file uses no macro
 */
export async function transformLinguiMacros(code, filename) {
  if (!MACRO_IMPORT.test(code)) return null;
  const { transformAsync } = await import('@babel/core');
  const tsx = /\.[cm]?[jt]sx$/.test(filename);
  const result = await transformAsync(code, {
    filename,
    babelrc: false,
    configFile: false,
    sourceMaps: true,
    parserOpts: { plugins: tsx ? ['typescript', 'jsx'] : ['typescript'] },
    generatorOpts: { retainLines: true },
    // The English text stays in the code: it is the source locale's message, so English needs no
    // catalogue at run time (the Spanish one is loaded only by those who read Spanish).
    plugins: [['@lingui/babel-plugin-lingui-macro', { stripMessageField: false }]],
  });
  return result?.code ? { code: result.code, map: result.map } : null;
}

/**
 * The same transform as a Vite plugin, before Vite's own TypeScript step (vite.config.ts, vitest.config.ts).
 * @returns {import('vite').Plugin}
 */
export function linguiMacros() {
  return {
    name: 'campusloop:lingui-macros',
    enforce: 'pre',
    async transform(code, id) {
      if (!/\.[cm]?tsx?$/.test(id.split('?')[0] ?? '') || id.includes('/node_modules/')) return null;
      return transformLinguiMacros(code, id.split('?')[0] ?? id);
    },
  };
}
