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
  if (!result?.code) return null;
  // Then each English message is compiled to Lingui's run-time form here, as `lingui compile` does for
  // the Spanish catalogue, so the browser needs no ICU parser (7 KB gzip of the first script).
  const compiled = await transformAsync(result.code, {
    filename,
    babelrc: false,
    configFile: false,
    sourceMaps: true,
    inputSourceMap: result.map ?? undefined,
    parserOpts: { plugins: tsx ? ['typescript', 'jsx'] : ['typescript'] },
    generatorOpts: { retainLines: true },
    plugins: [await precompiledMessages()],
  });
  return compiled?.code ? { code: compiled.code, map: compiled.map } : null;
}

/**
 * A Babel plugin: the `message` of every descriptor the macros wrote (`{ id, message }`, and <Trans
 * id message>) becomes its compiled form (['Hello ', ['name']]), which Lingui's run time interpolates
 * without compiling.
 */
async function precompiledMessages() {
  const { compileMessage } = await import('@lingui/message-utils/compileMessage');
  /** @param {any} t @param {string} message */
  const compiledNode = (t, message) => t.valueToNode(compileMessage(message));
  return (/** @type {any} */ { types: t }) => ({
    visitor: {
      /** @param {any} path */
      ObjectExpression(path) {
        const props = path.node.properties;
        const hasId = props.some((p) => p.type === 'ObjectProperty' && p.key.name === 'id');
        const message = props.find(
          (p) => p.type === 'ObjectProperty' && p.key.name === 'message' && p.value.type === 'StringLiteral',
        );
        if (hasId && message) message.value = compiledNode(t, message.value.value);
      },
      /** @param {any} path */
      JSXOpeningElement(path) {
        const attributes = path.node.attributes;
        const hasId = attributes.some((a) => a.type === 'JSXAttribute' && a.name.name === 'id');
        const message = attributes.find(
          (a) => a.type === 'JSXAttribute' && a.name.name === 'message' && a.value?.type === 'StringLiteral',
        );
        if (hasId && message) message.value = t.jsxExpressionContainer(compiledNode(t, message.value.value));
      },
    },
  });
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
