import { and, count, desc, eq, inArray, isNotNull, isNull, ne, not, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { ModerationAction, ReportStatus } from '#shared/constants.ts';
import type { Db } from '../../db/client.ts';
import { asks } from '../../db/schema/asks.ts';
import { moderationActions, reports } from '../../db/schema/community.ts';
import { items } from '../../db/schema/items.ts';
import { users } from '../../db/schema/users.ts';

// The only place with Drizzle queries for the moderators: the report queue, a report's target and
// history, and the hide/suspend switches.

const reporter = alias(users, 'reporter');
const targetUser = alias(users, 'target_user');
const reviewer = alias(users, 'reviewer');
const admin = alias(users, 'admin');

const summaryColumns = {
  id: reports.id,
  reason: reports.reason,
  description: reports.description,
  status: reports.status,
  createdAt: reports.createdAt,
  reviewedAt: reports.reviewedAt,
  reporter: { id: reporter.id, fullName: reporter.fullName, username: reporter.username },
  item: { id: items.id, title: items.title, hiddenAt: items.hiddenAt, deletedAt: items.deletedAt },
  ask: { id: asks.id, title: asks.title, hiddenAt: asks.hiddenAt },
  user: {
    id: targetUser.id,
    fullName: targetUser.fullName,
    username: targetUser.username,
    suspendedAt: targetUser.suspendedAt,
    deletedAt: targetUser.deletedAt,
  },
};

export type ReportSummaryRow = {
  id: string;
  reason: string;
  description: string;
  status: string;
  createdAt: Date;
  reviewedAt: Date | null;
  reporter: { id: string; fullName: string; username: string };
  item: { id: string; title: string; hiddenAt: Date | null; deletedAt: Date | null } | null;
  ask: { id: string; title: string; hiddenAt: Date | null } | null;
  user: {
    id: string;
    fullName: string;
    username: string;
    suspendedAt: Date | null;
    deletedAt: Date | null;
  } | null;
};

/** Reports with their reporter, reported item or ask and reported person, for any filter. */
function selectSummaries(db: Db) {
  return db
    .select(summaryColumns)
    .from(reports)
    .innerJoin(reporter, eq(reporter.id, reports.reporterId))
    .leftJoin(items, eq(items.id, reports.reportedItemId))
    .leftJoin(asks, eq(asks.id, reports.reportedAskId))
    .leftJoin(targetUser, eq(targetUser.id, reports.reportedUserId));
}

/**
 * Reports the moderator is no party to: neither the reporter, nor the reported person, nor the owner of
 * the reported item. No one decides their own case, so their own cases go to the other moderators.
 */
function notAPartyTo(moderatorId: string): SQL {
  return and(
    ne(reports.reporterId, moderatorId),
    or(isNull(reports.reportedUserId), ne(reports.reportedUserId, moderatorId)),
    sql`not exists (select 1 from ${items} where ${items.id} = ${reports.reportedItemId} and ${items.userId} = ${moderatorId})`,
  )!;
}

/**
 * One page of the queue. Pending reports oldest first (whoever waited longest is next, on the
 * status+created index); decided ones newest first.
 */
export async function listReports(
  db: Db,
  filter: { moderatorId: string; status?: ReportStatus; limit: number; offset: number },
): Promise<{ rows: ReportSummaryRow[]; total: number }> {
  const where = and(
    notAPartyTo(filter.moderatorId),
    filter.status ? eq(reports.status, filter.status) : undefined,
  );
  const order =
    filter.status === 'pending'
      ? [reports.createdAt, reports.id]
      : [desc(reports.createdAt), desc(reports.id)];
  const [rows, [totalRow]] = await Promise.all([
    selectSummaries(db)
      .where(where)
      .orderBy(...order)
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ n: count() }).from(reports).where(where),
  ]);
  return { rows: rows as ReportSummaryRow[], total: Number(totalRow?.n ?? 0) };
}

export async function countByStatus(db: Db, moderatorId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: reports.status, n: count() })
    .from(reports)
    .where(notAPartyTo(moderatorId))
    .groupBy(reports.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Pending reports the moderator is a party to: left to the other moderators. */
export async function countOwnPending(db: Db, moderatorId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(reports)
    .where(and(eq(reports.status, 'pending'), not(notAPartyTo(moderatorId))));
  return Number(row?.n ?? 0);
}

/** Whether the moderator reported this item or this person (a report of any status). */
export async function hasReported(
  db: Db,
  moderatorId: string,
  target: { itemId?: string; userId: string },
): Promise<boolean> {
  const about = target.itemId
    ? or(eq(reports.reportedItemId, target.itemId), eq(reports.reportedUserId, target.userId))
    : eq(reports.reportedUserId, target.userId);
  const [row] = await db
    .select({ id: reports.id })
    .from(reports)
    .where(and(eq(reports.reporterId, moderatorId), about))
    .limit(1);
  return Boolean(row);
}

/**
 * Moderators with an account other than this one (moderators are set by ADMIN_EMAILS; a suspended or
 * deleted account decides nothing).
 */
export async function countOtherModerators(db: Db, emails: readonly string[], moderatorId: string) {
  if (emails.length === 0) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(
      and(
        inArray(sql`lower(${users.email})`, [...emails]),
        ne(users.id, moderatorId),
        isNull(users.suspendedAt),
        isNull(users.deletedAt),
      ),
    );
  return Number(row?.n ?? 0);
}

export async function findReport(db: Db, id: string) {
  const [row] = await db
    .select({
      ...summaryColumns,
      adminNotes: reports.adminNotes,
      reportedItemId: reports.reportedItemId,
      reportedAskId: reports.reportedAskId,
      reportedUserId: reports.reportedUserId,
      reportedItemOwnerId: items.userId,
      reviewedBy: { id: reviewer.id, fullName: reviewer.fullName, username: reviewer.username },
    })
    .from(reports)
    .innerJoin(reporter, eq(reporter.id, reports.reporterId))
    .leftJoin(items, eq(items.id, reports.reportedItemId))
    .leftJoin(asks, eq(asks.id, reports.reportedAskId))
    .leftJoin(targetUser, eq(targetUser.id, reports.reportedUserId))
    .leftJoin(reviewer, eq(reviewer.id, reports.reviewedBy))
    .where(eq(reports.id, id))
    .limit(1);
  return row as
    | (ReportSummaryRow & {
        adminNotes: string | null;
        reportedItemId: string | null;
        reportedAskId: string | null;
        reportedUserId: string | null;
        reportedItemOwnerId: string | null;
        reviewedBy: { id: string; fullName: string; username: string } | null;
      })
    | undefined;
}
export type ReportRow = NonNullable<Awaited<ReturnType<typeof findReport>>>;

/** Other reports about the same item or the same person, newest first. */
export async function listRelatedReports(
  db: Db,
  target: { reportId: string; itemId: string | null; userId: string | null },
): Promise<ReportSummaryRow[]> {
  const about: SQL[] = [];
  if (target.itemId) about.push(eq(reports.reportedItemId, target.itemId));
  if (target.userId) about.push(eq(reports.reportedUserId, target.userId));
  if (about.length === 0) return [];
  const rows = await selectSummaries(db)
    .where(and(ne(reports.id, target.reportId), or(...about)))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(20);
  return rows as ReportSummaryRow[];
}

/** What moderators did about a report, an item or a person, newest first. */
export function listHistory(
  db: Db,
  target: { reportId: string; itemId: string | null; userId: string | null },
) {
  const about: SQL[] = [eq(moderationActions.reportId, target.reportId)];
  if (target.itemId) about.push(eq(moderationActions.targetItemId, target.itemId));
  if (target.userId) about.push(eq(moderationActions.targetUserId, target.userId));
  return db
    .select({
      id: moderationActions.id,
      action: moderationActions.action,
      note: moderationActions.note,
      reportId: moderationActions.reportId,
      targetUserId: moderationActions.targetUserId,
      targetItemId: moderationActions.targetItemId,
      createdAt: moderationActions.createdAt,
      admin: { id: admin.id, fullName: admin.fullName, username: admin.username },
    })
    .from(moderationActions)
    .leftJoin(admin, eq(admin.id, moderationActions.adminId))
    .where(or(...about))
    .orderBy(desc(moderationActions.createdAt), desc(moderationActions.id))
    .limit(100);
}

/** An item as moderators see it: deleted and hidden ones too. */
export async function findItem(db: Db, id: string) {
  const [row] = await db
    .select({
      id: items.id,
      title: items.title,
      description: items.description,
      category: items.category,
      images: items.images,
      hiddenAt: items.hiddenAt,
      deletedAt: items.deletedAt,
      createdAt: items.createdAt,
      owner: { id: users.id, fullName: users.fullName, username: users.username },
    })
    .from(items)
    .innerJoin(users, eq(users.id, items.userId))
    .where(eq(items.id, id))
    .limit(1);
  return row;
}
export type ModeratedItemRow = NonNullable<Awaited<ReturnType<typeof findItem>>>;

export async function findUser(db: Db, id: string) {
  const [row] = await db
    .select({
      id: users.id,
      fullName: users.fullName,
      username: users.username,
      email: users.email,
      campus: users.campus,
      profileImage: users.profileImage,
      isVerified: users.isVerified,
      suspendedAt: users.suspendedAt,
      deletedAt: users.deletedAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}
export type ModeratedUserRow = NonNullable<Awaited<ReturnType<typeof findUser>>>;

/** Decides a pending report; answers false when it is no longer pending (someone decided first). */
export async function decideReport(
  db: Db,
  id: string,
  decision: { status: 'resolved' | 'dismissed'; reviewedBy: string; adminNotes: string | null },
): Promise<boolean> {
  const rows = await db
    .update(reports)
    .set({ ...decision, reviewedAt: new Date() })
    .where(and(eq(reports.id, id), eq(reports.status, 'pending')))
    .returning({ id: reports.id });
  return rows.length > 0;
}

/** Hides or shows a live item; answers false when it was already so (or is deleted). */
export async function setItemHidden(db: Db, id: string, hidden: boolean): Promise<boolean> {
  const rows = await db
    .update(items)
    .set({ hiddenAt: hidden ? new Date() : null })
    .where(
      and(
        eq(items.id, id),
        isNull(items.deletedAt),
        hidden ? isNull(items.hiddenAt) : isNotNull(items.hiddenAt),
      ),
    )
    .returning({ id: items.id });
  return rows.length > 0;
}

/** Suspends or reinstates a person; answers false when they already were. */
export async function setUserSuspended(db: Db, id: string, suspended: boolean): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ suspendedAt: suspended ? new Date() : null })
    .where(and(eq(users.id, id), suspended ? isNull(users.suspendedAt) : isNotNull(users.suspendedAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function insertAction(
  db: Db,
  values: {
    adminId: string;
    action: ModerationAction;
    reportId?: string | null;
    targetUserId?: string | null;
    targetItemId?: string | null;
    note?: string | null;
  },
) {
  await db.insert(moderationActions).values(values);
}
