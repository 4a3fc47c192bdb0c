import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/idempotency.ts';

// The only place with Drizzle queries about idempotency keys (decision 039).

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

const where = (userId: string, key: string) =>
  and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

/**
 * Takes the key for a first request: a new row, or one older than `expiredBefore` (forgotten, even if
 * the cleanup has not removed it yet). Answers whether it was taken; one caller wins, whatever the race.
 */
export async function claim(
  db: Db,
  values: { userId: string; key: string; fingerprint: string; lockedUntil: Date; expiredBefore: Date },
): Promise<boolean> {
  const { expiredBefore, ...row } = values;
  const rows = await db
    .insert(idempotencyKeys)
    .values(row)
    .onConflictDoUpdate({
      target: [idempotencyKeys.userId, idempotencyKeys.key],
      set: {
        fingerprint: row.fingerprint,
        committed: false,
        statusCode: null,
        contentType: null,
        body: null,
        lockedUntil: row.lockedUntil,
        createdAt: new Date(),
      },
      setWhere: lt(idempotencyKeys.createdAt, expiredBefore),
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

export async function find(db: Db, userId: string, key: string): Promise<IdempotencyRow | undefined> {
  const [row] = await db.select().from(idempotencyKeys).where(where(userId, key));
  return row;
}

/** A first request whose process died before it answered, and that changed nothing: a retry takes it. */
export async function takeOverAbandoned(
  db: Db,
  userId: string,
  key: string,
  lockedUntil: Date,
): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({ lockedUntil })
    .where(
      and(
        where(userId, key),
        isNull(idempotencyKeys.statusCode),
        eq(idempotencyKeys.committed, false),
        lt(idempotencyKeys.lockedUntil, new Date()),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return rows.length > 0;
}

/** Inside the state change's transaction: it happened, committed with it or not at all. */
export async function markCommitted(tx: Db, userId: string, key: string): Promise<void> {
  await tx.update(idempotencyKeys).set({ committed: true }).where(where(userId, key));
}

export async function storeAnswer(
  db: Db,
  userId: string,
  key: string,
  answer: { statusCode: number; contentType: string | null; body: string },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ ...answer, lockedUntil: null })
    .where(where(userId, key));
}

/** The answer said "try again" and nothing was committed: the key is free for the retry. */
export async function release(db: Db, userId: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(where(userId, key), isNull(idempotencyKeys.statusCode), eq(idempotencyKeys.committed, false)));
}

/** Committed, but the answer was an error: no answer to replay, and no lease to wait for. */
export async function unlock(db: Db, userId: string, key: string): Promise<void> {
  await db.update(idempotencyKeys).set({ lockedUntil: null }).where(where(userId, key));
}

export async function forgetBefore(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}

/** Rows by whether their answer is known (tests). */
export async function countKeys(db: Db): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(idempotencyKeys);
  return row?.count ?? 0;
}
