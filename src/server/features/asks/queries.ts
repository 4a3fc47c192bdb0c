import { and, desc, eq, gte, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { askEmailDays, askMatchesTold, askOffers, asks } from '../../db/schema/asks.ts';
import { items } from '../../db/schema/items.ts';
import { notificationPreferences, users } from '../../db/schema/users.ts';

// The only Drizzle code of asks: the board, offers, what closes an ask, who hears of it.

export type AskRow = typeof asks.$inferSelect & { authorName: string };
export type OfferRow = {
  id: string;
  askId: string;
  itemId: string;
  userId: string;
  conversationId: string | null;
  createdAt: Date;
  itemTitle: string;
  itemImages: string[];
  rentalPriceCents: number | null;
  rentalPeriod: string | null;
  lenderName: string;
};

const askColumns = {
  id: asks.id,
  userId: asks.userId,
  campus: asks.campus,
  title: asks.title,
  category: asks.category,
  note: asks.note,
  startDate: asks.startDate,
  endDate: asks.endDate,
  maxPriceCents: asks.maxPriceCents,
  status: asks.status,
  closeReason: asks.closeReason,
  closedAt: asks.closedAt,
  reservationId: asks.reservationId,
  hiddenAt: asks.hiddenAt,
  createdAt: asks.createdAt,
  authorName: users.fullName,
};

/** Serialises one person's asking: the five-open limit holds when two asks arrive at once. */
export async function lockAsker(tx: Db, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`asks:${userId}`}))`);
}

export async function countOpen(db: Db, userId: string, today: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(asks)
    .where(and(eq(asks.userId, userId), eq(asks.status, 'open'), gte(asks.endDate, today)));
  return row?.n ?? 0;
}

export async function insertAsk(db: Db, values: typeof asks.$inferInsert): Promise<string> {
  const [row] = await db.insert(asks).values(values).returning({ id: asks.id });
  return row!.id;
}

export async function findAsk(db: Db, id: string): Promise<AskRow | undefined> {
  const [row] = await db
    .select(askColumns)
    .from(asks)
    .innerJoin(users, eq(users.id, asks.userId))
    .where(eq(asks.id, id));
  return row;
}

/** The ask's row, locked: an offer and a close of one ask go one after the other. */
export async function lockAsk(tx: Db, id: string) {
  const [row] = await tx
    .select({ id: asks.id, status: asks.status })
    .from(asks)
    .where(eq(asks.id, id))
    .for('update');
  return row;
}

/** A campus's board: open, not hidden, not past, newest first; authors who left or were suspended out. */
export async function listBoard(db: Db, campus: string, today: string, limit: number): Promise<AskRow[]> {
  return db
    .select(askColumns)
    .from(asks)
    .innerJoin(users, eq(users.id, asks.userId))
    .where(
      and(
        eq(asks.campus, campus),
        eq(asks.status, 'open'),
        isNull(asks.hiddenAt),
        gte(asks.endDate, today),
        isNull(users.suspendedAt),
        isNull(users.deletedAt),
      ),
    )
    .orderBy(desc(asks.createdAt), desc(asks.id))
    .limit(limit);
}

/** One person's own asks, open or not, newest first. */
export async function listOwn(db: Db, userId: string, limit: number): Promise<AskRow[]> {
  return db
    .select(askColumns)
    .from(asks)
    .innerJoin(users, eq(users.id, asks.userId))
    .where(eq(asks.userId, userId))
    .orderBy(desc(asks.createdAt), desc(asks.id))
    .limit(limit);
}

export async function offersOf(db: Db, askIds: string[]): Promise<OfferRow[]> {
  if (!askIds.length) return [];
  return (
    db
      .select({
        id: askOffers.id,
        askId: askOffers.askId,
        itemId: askOffers.itemId,
        userId: askOffers.userId,
        conversationId: askOffers.conversationId,
        createdAt: askOffers.createdAt,
        itemTitle: items.title,
        itemImages: items.images,
        rentalPriceCents: items.rentalPriceCents,
        rentalPeriod: items.rentalPeriod,
        lenderName: users.fullName,
      })
      .from(askOffers)
      .innerJoin(items, eq(items.id, askOffers.itemId))
      .innerJoin(users, eq(users.id, askOffers.userId))
      // An offered item that was since deleted, hidden, or whose owner was suspended is no offer.
      .where(
        and(
          inArray(askOffers.askId, askIds),
          isNull(items.deletedAt),
          isNull(items.hiddenAt),
          isNull(users.suspendedAt),
        ),
      )
      .orderBy(askOffers.createdAt, askOffers.id)
  );
}

/** The item an offer names, as the offer's rules need it. */
export async function findOfferedItem(db: Db, itemId: string) {
  const [row] = await db
    .select({
      id: items.id,
      userId: items.userId,
      title: items.title,
      campus: items.campus,
      isAvailable: items.isAvailable,
      deletedAt: items.deletedAt,
      hiddenAt: items.hiddenAt,
    })
    .from(items)
    .where(eq(items.id, itemId));
  return row;
}

/** Answers the new offer's id, or undefined when the item was offered to the ask already. */
export async function insertOffer(
  db: Db,
  values: { askId: string; itemId: string; userId: string; createdAt: Date },
): Promise<string | undefined> {
  const [row] = await db
    .insert(askOffers)
    .values(values)
    .onConflictDoNothing({ target: [askOffers.askId, askOffers.itemId] })
    .returning({ id: askOffers.id });
  return row?.id;
}

export async function setOfferConversation(db: Db, offerId: string, conversationId: string) {
  await db.update(askOffers).set({ conversationId }).where(eq(askOffers.id, offerId));
}

/** Closes an open ask; answers whether this call closed it (a second close finds it closed). */
export async function close(
  db: Db,
  id: string,
  values: { reason: 'author' | 'reserved'; at: Date; reservationId?: string },
): Promise<boolean> {
  const rows = await db
    .update(asks)
    .set({
      status: 'closed',
      closeReason: values.reason,
      closedAt: values.at,
      reservationId: values.reservationId ?? null,
    })
    .where(and(eq(asks.id, id), eq(asks.status, 'open')))
    .returning({ id: asks.id });
  return rows.length > 0;
}

export async function hide(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(asks)
    .set({ hiddenAt: at })
    .where(and(eq(asks.id, id), isNull(asks.hiddenAt)))
    .returning({ id: asks.id });
  return rows.length > 0;
}

/** Only a hidden ask is unhidden: of two moderators unhiding it at once, one finds it visible already. */
export async function unhide(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(asks)
    .set({ hiddenAt: null })
    .where(and(eq(asks.id, id), isNotNull(asks.hiddenAt)))
    .returning({ id: asks.id });
  return rows.length > 0;
}

/**
 * The borrower's open asks that were offered this item: an approved reservation of it closes them.
 * Locked in id order, so two approvals of one ask close it once.
 */
export async function openAsksOfferedItem(tx: Db, borrowerId: string, itemId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: asks.id })
    .from(asks)
    .innerJoin(askOffers, eq(askOffers.askId, asks.id))
    .where(and(eq(asks.userId, borrowerId), eq(asks.status, 'open'), eq(askOffers.itemId, itemId)))
    .orderBy(asks.id)
    .for('update', { of: asks });
  return rows.map((row) => row.id);
}

/** Listings that could answer an ask, with their owners: same campus and category, other people's. */
export async function candidateListings(db: Db, ask: { campus: string; category: string; userId: string }) {
  return db
    .select({
      ownerId: items.userId,
      campus: items.campus,
      category: items.category,
      title: items.title,
      description: items.description,
      rentalPriceCents: items.rentalPriceCents,
      availableFrom: items.availableFrom,
      availableUntil: items.availableUntil,
      isAvailable: items.isAvailable,
    })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(
      and(
        eq(items.campus, ask.campus),
        eq(items.category, ask.category),
        ne(items.userId, ask.userId),
        isNull(items.deletedAt),
        isNull(items.hiddenAt),
        isNull(users.suspendedAt),
        isNull(users.deletedAt),
      ),
    );
}

/** Marks a lender told of an ask; answers false when they were told already (a job run twice). */
export async function markMatchTold(db: Db, askId: string, userId: string): Promise<boolean> {
  const rows = await db
    .insert(askMatchesTold)
    .values({ askId, userId })
    .onConflictDoNothing()
    .returning({ askId: askMatchesTold.askId });
  return rows.length > 0;
}

/** The campus's open asks created in [from, to), for the digest. */
export async function asksCreatedBetween(db: Db, from: Date, to: Date, today: string) {
  return db
    .select(askColumns)
    .from(asks)
    .innerJoin(users, eq(users.id, asks.userId))
    .where(
      and(
        eq(asks.status, 'open'),
        isNull(asks.hiddenAt),
        gte(asks.endDate, today),
        gte(asks.createdAt, from),
        sql`${asks.createdAt} < ${to}`,
        isNull(users.suspendedAt),
      ),
    )
    .orderBy(desc(asks.createdAt));
}

/** Everyone on these campuses who turned the asks digest on, with their language. */
export async function digestReaders(db: Db, campuses: string[]) {
  if (!campuses.length) return [];
  return db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      campus: users.campus,
      locale: users.locale,
    })
    .from(users)
    .innerJoin(
      notificationPreferences,
      and(eq(notificationPreferences.userId, users.id), eq(notificationPreferences.kind, 'asks')),
    )
    .where(
      and(
        inArray(users.campus, campuses),
        eq(notificationPreferences.email, true),
        isNull(users.deletedAt),
        isNull(users.suspendedAt),
        eq(users.isVerified, true),
      ),
    );
}

/** Claims the day's asks e-mail for a person; false when one went already (or is going) today. */
export async function claimEmailDay(db: Db, userId: string, day: string): Promise<boolean> {
  const rows = await db
    .insert(askEmailDays)
    .values({ userId, day })
    .onConflictDoNothing()
    .returning({ userId: askEmailDays.userId });
  return rows.length > 0;
}

export async function releaseEmailDay(db: Db, userId: string, day: string) {
  await db.delete(askEmailDays).where(and(eq(askEmailDays.userId, userId), eq(askEmailDays.day, day)));
}

/** For the impact dashboard: asks that got an offer, and borrows that came from asks. */
export async function answeredCounts(db: Db, campus?: string) {
  const where = campus ? eq(asks.campus, campus) : undefined;
  // A join, not a correlated subquery: inside a one-table select Drizzle writes columns unqualified,
  // and a bare "id" in the subquery would name the offer's id, never the ask's.
  const [row] = await db
    .select({
      answered: sql<number>`count(distinct ${askOffers.askId})::int`,
      borrowed: sql<number>`count(distinct ${asks.reservationId})::int`,
    })
    .from(asks)
    .leftJoin(askOffers, eq(askOffers.askId, asks.id))
    .where(where);
  return { answered: row?.answered ?? 0, borrowed: row?.borrowed ?? 0 };
}

export async function fullNameOf(db: Db, userId: string): Promise<string> {
  const [row] = await db.select({ fullName: users.fullName }).from(users).where(eq(users.id, userId));
  return row?.fullName ?? '';
}
