import { defineConfig } from 'drizzle-kit';

// Generates SQL migrations from the Drizzle schema; the same folder runs on PGlite and PostgreSQL.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/index.ts',
  out: './src/server/db/migrations',
});
