import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The folder the server's run-time files are found from (the SQL migrations, the university directory):
// src/server when it runs from source (tsx, vitest), dist/server when it runs from the bundle, which
// scripts/build.mjs writes beside copies of those files in the same layout. This module sits at the top
// of src/server, and the bundle at the top of dist/server, so its own URL names the right folder.
export const serverDir = path.dirname(fileURLToPath(import.meta.url));
