import { openPostgres } from '../src/server/db/client.ts';
import { itemService } from '../src/server/features/items/service.ts';
import { itemSearchQuery } from '#shared/schemas/items.ts';
const database = openPostgres('postgres://postgres@127.0.0.1:5432/explain_new', 1);
const qs = process.argv.slice(2);
for (let i = 0; i < 6; i++) for (const q of qs) {
  await itemService.search(database.db, itemSearchQuery.parse(Object.fromEntries(new URLSearchParams(q))) as never, 'America/Los_Angeles');
}
await database.close();
