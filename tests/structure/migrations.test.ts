import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Drizzle's migrator applies a migration only when its journal time (`when`) is later than the last one
// the database has applied: a migration whose time is earlier than an applied one is skipped for ever
// on every existing database (a fresh one still gets it, so nothing else would notice). Branches that
// each add a migration and are merged in another order make exactly that; this holds the journal to it.

const DIR = path.resolve('src/server/db/migrations');
const journal = JSON.parse(readFileSync(path.join(DIR, 'meta/_journal.json'), 'utf8')) as {
  entries: { idx: number; when: number; tag: string }[];
};

describe('the migrations journal', () => {
  it('numbers its migrations in order, each with its SQL and its snapshot', () => {
    journal.entries.forEach((entry, i) => {
      expect(entry.idx).toBe(i);
      expect(entry.tag.startsWith(String(i).padStart(4, '0'))).toBe(true);
      expect(existsSync(path.join(DIR, `${entry.tag}.sql`)), entry.tag).toBe(true);
      expect(existsSync(path.join(DIR, 'meta', `${entry.tag.slice(0, 4)}_snapshot.json`)), entry.tag).toBe(
        true,
      );
    });
  });

  it('gives each a later time than the one before (else existing databases skip it)', () => {
    const late = journal.entries.filter((entry, i) => i > 0 && entry.when <= journal.entries[i - 1]!.when);
    expect(late.map((entry) => entry.tag)).toEqual([]);
  });

  it('chains the snapshots: each one follows the one before', () => {
    let previous: string | undefined;
    for (const entry of journal.entries) {
      const snapshot = JSON.parse(
        readFileSync(path.join(DIR, 'meta', `${entry.tag.slice(0, 4)}_snapshot.json`), 'utf8'),
      ) as { id: string; prevId: string };
      if (previous) expect(snapshot.prevId, entry.tag).toBe(previous);
      previous = snapshot.id;
    }
  });
});
