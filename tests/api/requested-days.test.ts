import { describe, expect, it } from 'vitest';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { createItem, createSignedInUser } from '../factories.ts';
import { day } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Days a request asks for that the lender has not answered (decision 050): the availability answer names
// them apart from booked ones, without who asked; others may still request them (the lender decides),
// and may wait for them: when the request is declined, taken back or expires, the first in line is told.
// Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.

const t = setupTestApp();
const db = () => t.database.db;

/** A free item (no money moves) with one pending request for days 3–5 and one approved booking for 8–9. */
async function requestedItem() {
  const lender = await createSignedInUser(db(), { fullName: 'Maya Chen' });
  const requester = await createSignedInUser(db(), { fullName: 'Jordan Lee' });
  const item = await createItem(db(), { userId: lender.user.id, title: 'Film camera' });
  const [pending] = await db()
    .insert(reservations)
    .values([
      {
        itemId: item.id,
        borrowerId: requester.user.id,
        providerId: lender.user.id,
        startDate: day(3),
        endDate: day(5),
        status: 'pending',
      },
      {
        itemId: item.id,
        borrowerId: requester.user.id,
        providerId: lender.user.id,
        startDate: day(8),
        endDate: day(9),
        status: 'approved',
      },
    ])
    .returning();
  return { lender, requester, item, pending: pending! };
}

describe('requested days', () => {
  it('the availability names requested days apart from booked ones, and nothing of the requester', async () => {
    const { item } = await requestedItem();
    const response = await t.get(`/api/items/${item.id}/availability`);
    expect(response.statusCode).toBe(200);
    const availability = response.json();
    expect(availability.booked).toEqual([{ startDate: day(8), endDate: day(9) }]);
    expect(availability.requested).toEqual([{ startDate: day(3), endDate: day(5) }]);
    // Only the days: no ids, names or statuses of anyone's request.
    expect(Object.keys(availability.requested[0]).sort()).toEqual(['endDate', 'startDate']);
  });

  it('declined, taken-back and past requests are no longer shown as requested', async () => {
    const { item, requester, pending } = await requestedItem();
    await db()
      .insert(reservations)
      .values([
        { ...base(item.id, pending), startDate: day(-5), endDate: day(-1), status: 'pending' },
        { ...base(item.id, pending), startDate: day(11), endDate: day(12), status: 'declined' },
        { ...base(item.id, pending), startDate: day(13), endDate: day(14), status: 'cancelled' },
      ]);
    const taken = await t.put(`/api/reservations/${pending.id}`, { status: 'cancelled' }, requester.cookie);
    expect(taken.statusCode, taken.body).toBe(200);
    const availability = (await t.get(`/api/items/${item.id}/availability`)).json();
    expect(availability.requested).toEqual([]);
  });

  it('another student may still request them: the lender decides', async () => {
    const { item } = await requestedItem();
    const other = await createSignedInUser(db());
    const second = await t.post(
      '/api/reservations',
      { itemId: item.id, startDate: day(4), endDate: day(6) },
      other.cookie,
    );
    expect(second.statusCode, second.body).toBe(201);
    const availability = (await t.get(`/api/items/${item.id}/availability`)).json();
    expect(availability.requested).toEqual([
      { startDate: day(3), endDate: day(5) },
      { startDate: day(4), endDate: day(6) },
    ]);
  });

  it('they can be waited for, and the first in line is told when the lender declines', async () => {
    const { item, lender, pending } = await requestedItem();
    const waiting = await createSignedInUser(db());
    const joined = await t.post(
      `/api/items/${item.id}/waitlist`,
      { startDate: day(4), endDate: day(5) },
      waiting.cookie,
    );
    expect(joined.statusCode, joined.body).toBe(201);
    // Days nobody asked for are still free to reserve now.
    const free = await t.post(
      `/api/items/${item.id}/waitlist`,
      { startDate: day(6), endDate: day(7) },
      waiting.cookie,
    );
    expect(free.json()).toMatchObject({ code: 'DATES_AVAILABLE' });

    const declined = await t.post(`/api/reservations/${pending.id}/decline`, {}, lender.cookie);
    expect(declined.statusCode, declined.body).toBe(200);
    const notices = (await t.get('/api/notifications', waiting.cookie)).json().notifications as {
      type: string;
      relatedItemId: string;
    }[];
    expect(
      notices.filter((n) => n.type === 'waitlist_available' && n.relatedItemId === item.id),
    ).toHaveLength(1);
  });
});

function base(itemId: string, pending: { borrowerId: string; providerId: string }) {
  return { itemId, borrowerId: pending.borrowerId, providerId: pending.providerId };
}
