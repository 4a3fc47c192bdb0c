import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../../src/server/adapters/storage/local-storage.ts';
import { systemClock } from '../../src/server/clock.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { paymentStepService } from '../../src/server/features/payment-steps/service.ts';
import { reminderService } from '../../src/server/features/reminders/service.ts';
import { campusPeriods } from '../../src/shared/calendar.ts';
import { CATEGORIES, type Category, CONDITIONS } from '../../src/shared/constants.ts';
import { borrowImpact } from '../../src/shared/impact.ts';
import { stepDeps } from '../helpers/money.ts';
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

    // The demo's payments exist at the built-in provider as its billing rows say (checked after the
    // test too): the reconciliation job finds nothing to show moderators.
    const checked = await paymentStepService.reconcile(stepDeps(t), 1000);
    expect(checked.checked).toBeGreaterThan(10);
    expect(checked.mismatched).toBe(0);

    // Every demo student has a verified e-mail, so each can request, approve and list at once.
    const people = await t.database.db.execute<{ is_verified: boolean }>(sql`select is_verified from users`);
    expect(people.rows.length).toBeGreaterThanOrEqual(6);
    expect(people.rows.every((p) => p.is_verified)).toBe(true);

    // Badges follow the rules once the history is in: everyone is a verified student, and whoever
    // lent something holds 'First Lend'; nobody holds a badge they did not earn.
    const badges = await t.database.db.execute<{ badge_type: string; earned: boolean }>(sql`
      select b.badge_type,
             case b.badge_type
               when 'verified_student' then u.is_verified
               when 'first_lend' then exists (select 1 from reservations r where r.provider_id = u.id and r.status = 'completed')
               else true
             end as earned
      from user_badges b join users u on u.id = b.user_id`);
    expect(badges.rows.filter((b) => b.badge_type === 'verified_student')).toHaveLength(people.rows.length);
    expect(badges.rows.some((b) => b.badge_type === 'first_lend')).toBe(true);
    expect(badges.rows.every((b) => b.earned)).toBe(true);

    // The moderator can sign in, and finds open reports waiting at /admin (decision 009).
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

  it('has weeks of returned borrows on both campuses, counted by the impact ledger', async () => {
    // Runs after the test above has seeded the database.
    const { rows: borrows } = await t.database.db.execute<{
      id: string;
      campus: string;
      category: Category;
      rental_cents: number;
      completed_at: Date;
      start_date: string;
      created_at: Date;
      item_created_at: Date;
      money_saved_cents: number | null;
      co2_saved_grams: number | null;
      waste_reduced_grams: number | null;
    }>(sql`
      select r.id, i.campus, i.category, r.rental_cents, r.completed_at, r.start_date, r.created_at,
             i.created_at as item_created_at, c.money_saved_cents, c.co2_saved_grams, c.waste_reduced_grams
      from reservations r
      join items i on i.id = r.item_id
      left join impact_contributions c on c.reservation_id = r.id
      where r.status = 'completed'
    `);
    expect(borrows.length).toBeGreaterThanOrEqual(40);

    // Every returned borrow was approved first: lenders' profiles count their cancellations against
    // the bookings they approved ("Cancelled 0 of 9 borrows"), so none may be missing its approval.
    const { rows: unapproved } = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from reservations where status = 'completed' and (approved_at is null or approved_at < created_at)`,
    );
    expect(unapproved[0]!.n).toBe(0);

    // Both people reviewed every returned borrow, so profiles and item pages show real reviews.
    const { rows: reviewCounts } = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from reviews r join reservations x on x.id = r.reservation_id where x.status = 'completed'`,
    );
    expect(reviewCounts[0]!.n).toBe(2 * borrows.length);

    // Every returned borrow is in the ledger with what the factors give, and never before its item existed.
    for (const b of borrows) {
      expect(b.money_saved_cents, b.id).not.toBeNull();
      expect({
        moneySavedCents: b.money_saved_cents,
        co2SavedGrams: b.co2_saved_grams,
        wasteReducedGrams: b.waste_reduced_grams,
      }).toEqual(borrowImpact(b.category, b.rental_cents));
      expect(new Date(b.item_created_at).getTime()).toBeLessThan(new Date(b.created_at).getTime());
      expect(new Date(b.completed_at).getTime()).toBeLessThanOrEqual(Date.now());
    }

    // The campus totals are the ledger's sums.
    const { rows: totals } = await t.database.db.execute<{
      campus: string;
      items_shared: number;
      money: string;
      ledger_items: number;
      ledger_money: string;
    }>(sql`
      select t.campus, t.items_shared, t.money_saved_cents::text as money,
             (select count(*)::int from impact_contributions c where c.campus = t.campus) as ledger_items,
             (select sum(money_saved_cents)::text from impact_contributions c where c.campus = t.campus) as ledger_money
      from campus_impact t order by t.campus
    `);
    expect(totals.map((r) => r.campus)).toEqual(['berkeley.edu', 'stanford.edu']);
    for (const row of totals) {
      expect(row.items_shared).toBe(row.ledger_items);
      expect(row.money).toBe(row.ledger_money);
    }

    // Each campus has borrows returned this week, this month (also on the 1st, when the month began
    // hours ago) and last month. Only in a period's first minute can it have none yet.
    const { weekStart, monthStart, lastMonthStart } = campusPeriods('America/Los_Angeles');
    const begunAMinuteAgo = (start: Date) => Date.now() - start.getTime() > 60_000;
    for (const campus of ['stanford.edu', 'berkeley.edu']) {
      const times = borrows.filter((b) => b.campus === campus).map((b) => new Date(b.completed_at));
      expect(times.some((d) => d >= weekStart) || !begunAMinuteAgo(weekStart), `${campus} this week`).toBe(
        true,
      );
      expect(times.some((d) => d >= monthStart) || !begunAMinuteAgo(monthStart), `${campus} this month`).toBe(
        true,
      );
      expect(
        times.some((d) => d >= lastMonthStart && d < monthStart),
        `${campus} last month`,
      ).toBe(true);

      const dashboard = (await t.get(`/api/impact/${campus}/dashboard`)).json();
      expect(dashboard.impact.itemsShared).toBe(times.length);
      expect(dashboard.topContributors.length).toBeGreaterThan(0);
      expect(dashboard.activeSharers.thisMonth).toBeGreaterThan(1);
      expect(dashboard.communityMembers).toBeGreaterThan(4);
    }

    // Maya and Priya never borrowed: the browser journeys show their empty borrowing lists.
    const { rows: borrowed } = await t.database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from reservations r join users u on u.id = r.borrower_id
      where u.email in ('maya.chen@stanford.edu', 'priya.patel@stanford.edu')
    `);
    expect(borrowed[0]!.n).toBe(0);
  });
  it('shows every reminder in Diego’s notifications, dated when the job sent it, and sends none twice', async () => {
    // Runs after the first test has seeded the database.
    const { rows } = await t.database.db.execute<{ type: string; title: string; created_at: Date }>(sql`
      select n.type, n.title, n.created_at from notifications n join users u on u.id = n.user_id
      where u.email = 'diego.ramirez@stanford.edu'
        and n.type in ('pickup_reminder', 'return_reminder', 'request_expiring')
    `);
    expect(new Set(rows.map((r) => r.type))).toEqual(
      new Set(['pickup_reminder', 'return_reminder', 'request_expiring']),
    );
    // The evening before is always past, so 'tomorrow' is what Diego read then (and 'today' after 8 am).
    expect(rows.map((r) => r.title)).toEqual(
      expect.arrayContaining(['Handover tomorrow', 'Return due tomorrow', 'Request expires soon']),
    );
    // Dated at the job's hour, never at the load: a handover's or a return's reminder on the campus's
    // whole hour (evening or morning), the expiring request's six hours ago. A reminder whose hour came
    // seconds before the load is dated then, so nothing is required of its age.
    for (const row of rows) {
      const at = new Date(row.created_at).getTime();
      expect(at).toBeLessThanOrEqual(Date.now());
      if (row.type === 'request_expiring') expect(at).toBeLessThan(Date.now() - 60 * 60_000);
      else expect(at % 3_600_000, `${row.title} at ${new Date(at).toISOString()}`).toBe(0);
    }

    // The request about to expire waits in his Pending tab, as any request would.
    const { rows: requests } = await t.database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from notifications n join users u on u.id = n.user_id
      join reservations r on r.id = n.related_reservation_id
      where u.email = 'diego.ramirez@stanford.edu' and n.type = 'reservation_request' and r.status = 'pending'
    `);
    expect(requests[0]!.n).toBe(1);

    // The job's next round finds them sent: nobody is reminded twice.
    const again = await reminderService.sendDue({
      db: t.database.db,
      clock: systemClock,
      timeZone: 'America/Los_Angeles',
      expiryHours: 48,
    });
    expect(again).toBe(0);

    // Free items only: nothing is held on a card for the demo's current borrows.
    const { rows: current } = await t.database.db.execute<{ status: string; paid: boolean }>(sql`
      select status, stripe_payment_intent_id is not null as paid from reservations
      where status in ('pending', 'approved', 'active') order by status
    `);
    expect(current).toEqual([
      { status: 'active', paid: false },
      { status: 'approved', paid: false },
      { status: 'pending', paid: false },
    ]);
  });
});
