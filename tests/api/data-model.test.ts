import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { conversations } from '../../src/server/db/schema/chat.ts';
import { reviews } from '../../src/server/db/schema/community.ts';
import type { items } from '../../src/server/db/schema/items.ts';
import { billingHistory, savedPaymentMethods } from '../../src/server/db/schema/payments.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { sessions } from '../../src/server/db/schema/users.ts';
import { createItem, createUser } from '../factories.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The database itself refuses what the spec forbids (§3), whatever code writes to it.

const t = setupTestApp();
const db = () => t.database.db;

/** An item of `userId`'s, as the factory makes it, with overrides. */
const item = (userId: string, overrides: Partial<typeof items.$inferInsert> = {}) =>
  createItem(db(), { userId, ...overrides });

async function reservation(
  itemId: string,
  borrowerId: string,
  providerId: string,
  overrides: Partial<typeof reservations.$inferInsert> = {},
) {
  const [row] = await db()
    .insert(reservations)
    .values({ itemId, borrowerId, providerId, startDate: '2026-12-01', endDate: '2026-12-05', ...overrides })
    .returning();
  return row!;
}

/** The Postgres error behind a Drizzle failure, whichever driver raised it. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause ?? error;
    return (cause as { code?: string }).code ?? String(error);
  }
  throw new Error('the database accepted it');
}

describe('data model constraints', () => {
  it('applies the defaults of spec §3', async () => {
    // isVerified left out, so the column's own default applies.
    const owner = await createUser(db(), { isVerified: undefined });
    const row = await item(owner.id);
    expect(row).toMatchObject({ images: [], availableDays: [0, 1, 2, 3, 4, 5, 6], isAvailable: true });
    expect(owner.isVerified).toBe(false);
  });

  it('refuses values outside the spec’s enums and ranges (check violations)', async () => {
    const owner = await createUser(db());
    expect(await refusal(item(owner.id, { category: 'weapons' }))).toBe('23514');
    expect(await refusal(item(owner.id, { condition: 'broken' }))).toBe('23514');
    expect(await refusal(item(owner.id, { depositCents: -1 }))).toBe('23514');
    expect(await refusal(item(owner.id, { availableDays: [] }))).toBe('23514');
    expect(await refusal(item(owner.id, { availableDays: [7] }))).toBe('23514');
    expect(await refusal(item(owner.id, { availableFrom: '2026-05-01', availableUntil: '2026-04-01' }))).toBe(
      '23514',
    );
    const borrower = await createUser(db());
    const it1 = await item(owner.id);
    expect(await refusal(reservation(it1.id, borrower.id, owner.id, { status: 'lost' }))).toBe('23514');
    expect(await refusal(reservation(it1.id, borrower.id, owner.id, { endDate: '2026-11-30' }))).toBe(
      '23514',
    );
    expect(await refusal(reservation(it1.id, owner.id, owner.id))).toBe('23514');
    const done = await reservation(it1.id, borrower.id, owner.id);
    const review = (rating: number) =>
      db().insert(reviews).values({
        reservationId: done.id,
        reviewerId: borrower.id,
        revieweeId: owner.id,
        itemId: it1.id,
        rating,
        comment: 'Great',
        reviewType: 'borrower_to_lender',
      });
    expect(await refusal(review(6))).toBe('23514');
    expect(await refusal(review(0))).toBe('23514');
    await review(5);
    expect(await refusal(review(4))).toBe('23505'); // one review per reviewer and reservation
  });

  it('keeps e-mails and usernames unique whatever their letter case', async () => {
    await createUser(db(), { email: 'unique.case@stanford.edu', username: 'UniqueCase' });
    expect(await refusal(createUser(db(), { email: 'UNIQUE.case@stanford.edu' }))).toBe('23505');
    expect(await refusal(createUser(db(), { username: 'uniquecase' }))).toBe('23505');
  });

  it('allows one conversation per item, borrower and lender; one default card per user', async () => {
    const [owner, buyer] = [await createUser(db()), await createUser(db())];
    const it1 = await item(owner.id);
    await db().insert(conversations).values({ itemId: it1.id, buyerId: buyer.id, sellerId: owner.id });
    expect(
      await refusal(
        db().insert(conversations).values({ itemId: it1.id, buyerId: buyer.id, sellerId: owner.id }),
      ),
    ).toBe('23505');

    const card = (id: string, isDefault: boolean) =>
      db().insert(savedPaymentMethods).values({ userId: buyer.id, stripePaymentMethodId: id, isDefault });
    await card('pm_1', true);
    await card('pm_2', false);
    expect(await refusal(card('pm_3', true))).toBe('23505');
    expect(await refusal(card('pm_1', false))).toBe('23505');
  });

  it('never lets two approved or active reservations of one item overlap', async () => {
    const [owner, a, b] = [await createUser(db()), await createUser(db()), await createUser(db())];
    const it1 = await item(owner.id);
    await reservation(it1.id, a.id, owner.id, {
      status: 'approved',
      startDate: '2026-12-01',
      endDate: '2026-12-05',
    });
    // Pending requests may overlap: the lender chooses among them.
    await reservation(it1.id, b.id, owner.id, {
      status: 'pending',
      startDate: '2026-12-03',
      endDate: '2026-12-04',
    });
    expect(
      await refusal(
        reservation(it1.id, b.id, owner.id, {
          status: 'active',
          startDate: '2026-12-05',
          endDate: '2026-12-06',
        }),
      ),
    ).toBe('23P01');
    // The day after is free.
    await reservation(it1.id, b.id, owner.id, {
      status: 'approved',
      startDate: '2026-12-06',
      endDate: '2026-12-08',
    });
  });

  it('cascades as the spec says: an owner’s items and sessions go with them; billing keeps its rows', async () => {
    const [owner, borrower] = [await createUser(db()), await createUser(db())];
    const it1 = await item(owner.id);
    await db()
      .insert(sessions)
      .values({ tokenHash: `h${owner.id}`, userId: owner.id, expiresAt: new Date(Date.now() + 1e6) });
    const r = await reservation(it1.id, borrower.id, owner.id);
    const [bill] = await db()
      .insert(billingHistory)
      .values({
        userId: borrower.id,
        reservationId: r.id,
        amountCents: 1500,
        status: 'completed',
        description: 'Rental',
      })
      .returning();
    await db().execute(sql`delete from reservations where id = ${r.id}`);
    const kept = await db().execute<{ reservation_id: string | null }>(
      sql`select reservation_id from billing_history where id = ${bill!.id}`,
    );
    expect(kept.rows).toEqual([{ reservation_id: null }]);

    await db().execute(sql`delete from users where id = ${owner.id}`);
    const left = await db().execute<{ n: number }>(
      sql`select (select count(*) from items where user_id = ${owner.id})::int + (select count(*) from sessions where user_id = ${owner.id})::int as n`,
    );
    expect(left.rows[0]!.n).toBe(0);
  });

  it('has an index for each list, filter and count the screens need', async () => {
    const { rows } = await db().execute<{ indexname: string }>(
      sql`select indexname from pg_indexes where schemaname = 'public'`,
    );
    const names = rows.map((r) => r.indexname);
    expect(names).toEqual(
      expect.arrayContaining([
        'items_campus_created_idx',
        'items_category_created_idx',
        'items_user_created_idx',
        'item_search_vector_idx',
        'reservations_borrower_created_idx',
        'reservations_provider_created_idx',
        'reservations_item_status_idx',
        'notifications_user_created_idx',
        'notifications_user_unread_idx',
        'conversations_buyer_last_idx',
        'conversations_seller_last_idx',
        'messages_conversation_seq_idx',
        'messages_unread_idx',
        'billing_history_user_created_idx',
        'reviews_reviewee_created_idx',
        'reviews_item_created_idx',
        'reports_status_created_idx',
        'users_email_lower_unique',
        'users_username_lower_unique',
      ]),
    );
  });
});
