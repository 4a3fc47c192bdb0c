// @ts-check
// Node module hooks for the development server (`npm run dev`, scripts/dev.ts), which runs src/server
// through tsx: Lingui's macros in our own files are turned into message descriptors as they load, as
// Vite and esbuild do in tests and builds (scripts/lingui-macro.mjs, decision 035).
import { transformLinguiMacros } from './lingui-macro.mjs';

/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  // tsx may add a query to the URLs it resolves ('…/footer.tsx?tsx-namespace=…').
  const file = url.split('?')[0] ?? url;
  if (!file.startsWith('file:') || file.includes('/node_modules/') || !/\/src\/.*\.tsx?$/.test(file)) {
    return result;
  }
  if (result.source == null) return result;
  const source =
    typeof result.source === 'string' ? result.source : Buffer.from(result.source).toString('utf8');
  const transformed = await transformLinguiMacros(source, new URL(file).pathname);
  return transformed ? { ...result, source: transformed.code } : result;
}
