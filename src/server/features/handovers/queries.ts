import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reservationHandovers } from '../../db/schema/handovers.ts';
import { items } from '../../db/schema/items.ts';
import { reservations } from '../../db/schema/reservations.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about handover records (decision 033).

export type HandoverRow = typeof reservationHandovers.$inferSelect;

/** What the rules need of a reservation: its two people, its status, when it was picked up. */
const reservationColumns = {
  id: reservations.id,
  borrowerId: reservations.borrowerId,
  providerId: reservations.providerId,
  status: reservations.status,
  pickedUpAt: reservations.pickedUpAt,
};

/**
 * The reservation's people, status and pickup time, locked FOR SHARE: no status change (which takes
 * the row FOR UPDATE) can slip between the window's check and the addition's commit, while two
 * additions (the borrower's and the lender's) still run side by side.
 */
export async function lockReservationForHandover(db: Db, reservationId: string) {
  const [row] = await db
    .select(reservationColumns)
    .from(reservations)
    .where(eq(reservations.id, reservationId))
    .for('share');
  return row;
}

/** What the other person's notice says: the item and who added to the record. */
export async function wordingFor(db: Db, reservationId: string, authorId: string) {
  const [row] = await db
    .select({ itemId: items.id, title: items.title, author: users.fullName })
    .from(reservations)
    .innerJoin(items, eq(items.id, reservations.itemId))
    .innerJoin(users, eq(users.id, authorId))
    .where(eq(reservations.id, reservationId));
  return row;
}

/** The same, read without a lock (who may read the records). */
export async function findReservation(db: Db, reservationId: string) {
  const [row] = await db
    .select(reservationColumns)
    .from(reservations)
    .where(eq(reservations.id, reservationId));
  return row;
}

/**
 * This person's record of this stage, made empty if there was none, and locked: a second addition of
 * the same person waits here for the first to commit, then appends to what it wrote.
 */
export async function lockOwnRecord(
  db: Db,
  key: { reservationId: string; stage: string; authorId: string },
): Promise<HandoverRow> {
  await db.insert(reservationHandovers).values(key).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(reservationHandovers)
    .where(
      and(
        eq(reservationHandovers.reservationId, key.reservationId),
        eq(reservationHandovers.stage, key.stage),
        eq(reservationHandovers.authorId, key.authorId),
      ),
    )
    .for('update');
  return row!;
}

export async function updateRecord(
  db: Db,
  id: string,
  values: { photos: HandoverRow['photos']; note: string | null; noteAt: Date | null; updatedAt: Date },
) {
  await db.update(reservationHandovers).set(values).where(eq(reservationHandovers.id, id));
}

/** The records of these reservations, stage by stage, oldest first. */
export async function listFor(db: Db, reservationIds: readonly string[]) {
  if (!reservationIds.length) return [];
  return db
    .select()
    .from(reservationHandovers)
    .where(inArray(reservationHandovers.reservationId, [...reservationIds]))
    .orderBy(
      asc(reservationHandovers.reservationId),
      asc(reservationHandovers.stage),
      asc(reservationHandovers.createdAt),
    );
}
