import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { asks } from '../../db/schema/asks.ts';
import { reports } from '../../db/schema/community.ts';
import { items } from '../../db/schema/items.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries about the reports people file (the moderators' side is in
// features/moderation).

/** A person's own reports are few; the cap only guards the response size. */
const LIST_LIMIT = 100;

export const reportColumns = {
  id: reports.id,
  reporterId: reports.reporterId,
  reportedUserId: reports.reportedUserId,
  reportedItemId: reports.reportedItemId,
  reportedAskId: reports.reportedAskId,
  reason: reports.reason,
  description: reports.description,
  status: reports.status,
  reviewedAt: reports.reviewedAt,
  createdAt: reports.createdAt,
};
export type ReportRow = {
  id: string;
  reporterId: string;
  reportedUserId: string | null;
  reportedItemId: string | null;
  reportedAskId: string | null;
  reason: string;
  description: string;
  status: string;
  reviewedAt: Date | null;
  createdAt: Date;
};

/** What a report about an item needs to know of it, deleted, hidden or not (the service decides). */
export async function findReportableItem(db: Db, itemId: string) {
  const [row] = await db
    .select({
      id: items.id,
      userId: items.userId,
      deletedAt: items.deletedAt,
      hiddenAt: items.hiddenAt,
      ownerSuspendedAt: users.suspendedAt,
    })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(eq(items.id, itemId))
    .limit(1);
  return row;
}

/** What a report about an ask needs to know of it, hidden or not (the service decides). */
export async function findReportableAsk(db: Db, askId: string) {
  const [row] = await db
    .select({
      id: asks.id,
      userId: asks.userId,
      campus: asks.campus,
      hiddenAt: asks.hiddenAt,
      authorSuspendedAt: users.suspendedAt,
    })
    .from(asks)
    .innerJoin(users, eq(users.id, asks.userId))
    .where(eq(asks.id, askId))
    .limit(1);
  return row;
}

/** The reporter's campus: only its students see an ask, so only they may report it. */
export async function campusOf(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ campus: users.campus }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.campus;
}

export async function userExists(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  return Boolean(row);
}

export async function insertReport(
  db: Db,
  values: {
    reporterId: string;
    reportedUserId: string;
    reportedItemId: string | null;
    reportedAskId: string | null;
    reason: string;
    description: string;
  },
): Promise<ReportRow> {
  const [row] = await db.insert(reports).values(values).returning(reportColumns);
  return row!;
}

export function listByReporter(db: Db, reporterId: string): Promise<ReportRow[]> {
  return db
    .select(reportColumns)
    .from(reports)
    .where(eq(reports.reporterId, reporterId))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(LIST_LIMIT);
}
