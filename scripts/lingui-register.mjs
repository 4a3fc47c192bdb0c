// `node --import ./scripts/lingui-register.mjs`: Lingui's macros for code run outside Vite (scripts/dev.ts).
import { register } from 'node:module';

register('./lingui-hooks.mjs', import.meta.url);
