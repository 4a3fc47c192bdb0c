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

    // The moderator can sign in, and finds open reports waiting at /admin (decision 007).
    const moderator = await t.post('/api/auth/login', {
      email: 'moderator@stanford.edu',
      password: 'campusloop',
    });
    expect(moderator.statusCode).toBe(200);
    expect(moderator.json().user).toMatchObject({ isVerified: true, fullName: 'Morgan Reyes' });
    const open = await t.database.db.execute<{ reason: string; item: boolean }>(
      sql`select reason, reported_item_id is not null as item from reports where status = 'pending' order by reason`,
    );
    expect(open.rows).toEqual([
      { reason: 'fake_listing', item: true },
      { reason: 'spam', item: false },
    ]);

    // A second start leaves the data alone.
    expect(await seedDemo(t.database.db, storage, 'America/Los_Angeles')).toEqual({ seeded: false });
  }, 120_000);
});
