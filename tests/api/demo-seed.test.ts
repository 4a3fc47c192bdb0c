import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../../src/server/adapters/storage/local-storage.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { CATEGORIES, CONDITIONS } from '../../src/shared/constants.ts';
import { setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();
const uploads = mkdtempSync(path.join(os.tmpdir(), 'campusloop-seed-'));
afterAll(() => rmSync(uploads, { recursive: true, force: true }));

describe('the demo campus', () => {
  it('brings a believable campus into an empty database, once', async () => {
    const storage = new LocalStorage(uploads);
    expect(await seedDemo(t.database.db, storage, 'America/Los_Angeles')).toEqual({ seeded: true });

    const { rows } = await t.database.db.execute<{
      category: string;
      condition: string;
      rental_price_cents: number | null;
      deposit_cents: number | null;
      images: string[];
      user_id: string;
      campus: string;
    }>(
      sql`select category, condition, rental_price_cents, deposit_cents, images, user_id, campus from items`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(40);
    expect(new Set(rows.map((r) => r.category))).toEqual(new Set(CATEGORIES));
    expect(new Set(rows.map((r) => r.condition))).toEqual(new Set(CONDITIONS));
    expect(rows.some((r) => r.rental_price_cents === null)).toBe(true);
    expect(rows.some((r) => (r.rental_price_cents ?? 0) > 0)).toBe(true);
    expect(rows.some((r) => (r.deposit_cents ?? 0) > 0)).toBe(true);
    expect(rows.some((r) => r.deposit_cents === null)).toBe(true);
    expect(new Set(rows.map((r) => r.user_id)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(rows.map((r) => r.campus)).size).toBeGreaterThanOrEqual(2);

    // Every item has photos that exist, with thumbnails, as real JPEGs.
    for (const row of rows) {
      expect(row.images.length).toBeGreaterThan(0);
      for (const url of row.images) {
        const file = path.join(uploads, url.replace('/uploads/', ''));
        expect(existsSync(file)).toBe(true);
        expect(existsSync(file.replace(/\.jpg$/, '-thumb.jpg'))).toBe(true);
      }
    }
    const first = path.join(uploads, rows[0]!.images[0]!.replace('/uploads/', ''));
    expect((await sharp(first).metadata()).format).toBe('jpeg');

    // Every demo student has a verified e-mail, so each can request, approve and list at once.
    const people = await t.database.db.execute<{ is_verified: boolean }>(sql`select is_verified from users`);
    expect(people.rows.length).toBe(6);
    expect(people.rows.every((p) => p.is_verified)).toBe(true);

    // Badges follow the rules: every verified demo student holds 'Verified Student'.
    const holders = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from users u join user_badges b on b.user_id = u.id and b.badge_type = 'verified_student'`,
    );
    expect(holders.rows[0]!.n).toBe(6);

    // A second start leaves the data alone.
    expect(await seedDemo(t.database.db, storage, 'America/Los_Angeles')).toEqual({ seeded: false });
  }, 120_000);
});
