import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { items } from '../../src/server/db/schema/items.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { availableNowCondition } from '../../src/server/features/items/queries.ts';
import { addDays, availableOn, BOOKED_STATUSES, weekdayOf } from '../../src/shared/booking/availability.ts';
import { campusToday } from '../../src/shared/calendar.ts';
import { DEFAULT_CAMPUS_TIME_ZONE, RESERVATION_STATUSES } from '../../src/shared/constants.ts';
import { createItem, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Availability has one home, src/shared/availability.ts. The SQL cannot import it, so
// these hold the SQL to it: the database's exclusion constraint takes the same statuses' days, and the
// "available now" filter answers what `availableOn` answers, item by item.

const t = setupTestApp();
const db = () => t.database.db;

describe('availability: the SQL says what the shared rule says', () => {
  it('the exclusion constraint refuses overlaps among exactly the booked statuses', async () => {
    const { rows } = await db().execute<{ def: string }>(
      sql`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'reservations_no_overlap'`,
    );
    const def = rows[0]!.def;
    const named = RESERVATION_STATUSES.filter((s) => def.includes(`'${s}'`));
    expect([...named].sort()).toEqual([...BOOKED_STATUSES].sort());
  });

  it('"available now" in SQL matches availableOn for every kind of item', async () => {
    const today = campusToday(DEFAULT_CAMPUS_TIME_ZONE);
    const lender = await createUser(db());
    const borrower = await createUser(db());
    const allDays = [0, 1, 2, 3, 4, 5, 6];
    const notToday = allDays.filter((d) => d !== today.weekday);
    const windows = [
      { availableFrom: addDays(today.date, -10), availableUntil: null },
      { availableFrom: today.date, availableUntil: today.date },
      { availableFrom: addDays(today.date, 1), availableUntil: null },
      { availableFrom: addDays(today.date, -10), availableUntil: addDays(today.date, -1) },
    ];
    const cases: { id: string; expected: boolean }[] = [];
    for (const window of windows) {
      for (const availableDays of [allDays, notToday]) {
        for (const isAvailable of [true, false]) {
          for (const holder of [null, ...RESERVATION_STATUSES] as const) {
            const item = await createItem(db(), {
              userId: lender.id,
              ...window,
              availableDays,
              isAvailable,
            });
            if (holder) {
              await db()
                .insert(reservations)
                .values({
                  itemId: item.id,
                  borrowerId: borrower.id,
                  providerId: lender.id,
                  startDate: addDays(today.date, -1),
                  endDate: addDays(today.date, 1),
                  status: holder,
                });
            }
            cases.push({
              id: item.id,
              expected: availableOn(
                { ...window, availableDays, isAvailable, outWithBorrower: holder === 'active' },
                today.date,
              ),
            });
          }
        }
      }
    }
    expect(weekdayOf(today.date)).toBe(today.weekday);
    const found = await db()
      .select({ id: items.id })
      .from(items)
      .where(
        sql`${inArray(
          items.id,
          cases.map((c) => c.id),
        )} and ${availableNowCondition(today)}`,
      );
    const available = new Set(found.map((r) => r.id));
    expect(cases.filter((c) => c.expected).length).toBeGreaterThan(0);
    for (const c of cases) expect(available.has(c.id), c.id).toBe(c.expected);
  });
});
