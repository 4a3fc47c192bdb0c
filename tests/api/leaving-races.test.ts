import { and, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { items } from '../../src/server/db/schema/items.ts';
import { reservations } from '../../src/server/db/schema/reservations.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { sqlState } from '../../src/server/db/transaction.ts';
import { createItem, createSignedInUser, createUser, freeListing, TEST_PASSWORD } from '../factories.ts';
import { day } from '../helpers/reservation-fixtures.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// Decision 037: deleting an account while its own requests are still on their way. A request that
// passed the session check just before the deletion must not write after it: its listing, request or
// message is either written before (and the deletion cleans it up) or refused with a clear 4xx.

const t = setupTestApp();
const db = () => t.database.db;

const listing = (title: string) =>
  freeListing({ title, category: 'tools', description: 'A listing written while its owner was leaving.' });

describe('deleting an account while its own requests are in flight', () => {
  it('leaves no live listing or pending request, and answers every racing write 2xx or 401/403', async () => {
    const leaver = await createSignedInUser(db());
    const lender = await createSignedInUser(db());
    // Free items, one per request, so no request waits for another's dates or for a card.
    const free = await Promise.all(
      Array.from({ length: 60 }, (_, i) => createItem(db(), { userId: lender.user.id, title: `Free ${i}` })),
    );
    const chat = await t.post('/api/conversations', { itemId: free[0]!.id }, leaver.cookie);
    expect(chat.statusCode).toBe(200);
    const conversationId = chat.json().conversation.id as string;

    const answers: { what: string; status: number; body: string }[] = [];
    let next = 0;
    const wave = () =>
      Promise.all(
        [
          () =>
            t.post('/api/items', listing(`Racing ${next}`), leaver.cookie).then((r) => ['item', r] as const),
          () =>
            t.post('/api/items', listing(`Racing ${next}b`), leaver.cookie).then((r) => ['item', r] as const),
          () =>
            t
              .post(
                '/api/reservations',
                { itemId: free[next++ % free.length]!.id, startDate: day(3), endDate: day(4) },
                leaver.cookie,
              )
              .then((r) => ['request', r] as const),
          () =>
            t
              .post('/api/conversations', { itemId: free[next % free.length]!.id }, leaver.cookie)
              .then((r) => ['conversation', r] as const),
          () =>
            t
              .post(
                `/api/conversations/${conversationId}/messages`,
                { content: 'Still there?' },
                leaver.cookie,
              )
              .then((r) => ['message', r] as const),
        ].map(async (send) => {
          const [what, response] = await send();
          answers.push({ what, status: response.statusCode, body: response.body });
        }),
      );

    let deleted = false;
    const deletion = t.post('/api/account/delete', { currentPassword: TEST_PASSWORD }, leaver.cookie);
    void deletion.finally(() => {
      deleted = true;
    });
    // Waves of writes until the deletion has answered, and one more after it.
    for (let waves = 0; !deleted; waves++) {
      if (waves > 200) throw new Error(`the deletion never answered: ${JSON.stringify(answers.slice(-5))}`);
      await wave();
      // A wave of refusals can be all promise callbacks: let the deletion's own I/O run between waves.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await wave();
    expect((await deletion).statusCode).toBe(200);

    for (const answer of answers) {
      expect([200, 201, 401, 403], `${answer.what}: ${answer.body}`).toContain(answer.status);
    }
    // The race was run: some writes got in before the deletion, some were refused after it.
    expect(answers.some((a) => a.status < 300)).toBe(true);
    expect(answers.some((a) => a.status === 401)).toBe(true);

    const live = await db()
      .select({ id: items.id, title: items.title })
      .from(items)
      .where(and(eq(items.userId, leaver.user.id), isNull(items.deletedAt)));
    expect(live).toEqual([]);
    const pending = await db()
      .select({ id: reservations.id })
      .from(reservations)
      .where(and(eq(reservations.borrowerId, leaver.user.id), eq(reservations.status, 'pending')));
    expect(pending).toEqual([]);
    const [row] = await db()
      .select({ deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.id, leaver.user.id));
    expect(row!.deletedAt).not.toBeNull();
  });

  it('is refused by the database itself for a deleted or suspended author, whoever writes', async () => {
    const deleted = await createUser(db(), { deletedAt: new Date() });
    const suspended = await createUser(db(), { suspendedAt: new Date() });
    const refusal = (userId: string) =>
      createItem(db(), { userId }).then(
        () => undefined,
        (error: unknown) => sqlState(error),
      );
    expect(await refusal(deleted.id)).toBe('CLGON');
    expect(await refusal(suspended.id)).toBe('CLSUS');
    const { rows } = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from items where user_id in (${deleted.id}, ${suspended.id})`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});
