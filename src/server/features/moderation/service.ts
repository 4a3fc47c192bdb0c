import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ReportReason, ReportStatus } from '#shared/constants.ts';
import { REPORT_REASON_LABELS } from '#shared/constants.ts';
import type {
  ModeratedItem,
  ModeratedUser,
  ModerationEntry,
  ReportDetail,
  ReportQueue,
  ReportQueueFilter,
  ReportSummary,
} from '#shared/schemas/moderation.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { endTokensOfSuspension } from '../../db/token-lifetimes.ts';
import { transaction } from '../../db/transaction.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { endAllSessions, isAdminEmail } from '../auth/service.ts';
import { notificationService } from '../notifications/service.ts';
import { universityService } from '../universities/service.ts';
import { ownCase, ownCasesOf, refuseOwnCase } from './own-case.ts';
import * as queries from './queries.ts';

// Moderation (issue 6): the moderators' queue and what they may do about a report. Every action is
// one transaction with its moderation_actions row and the notification it sends, so the history never
// tells of an action that did not happen, or the reverse.

export interface ModerationDeps {
  db: Db;
  config: Pick<Config, 'adminEmails'>;
}

/** An action taken from a report, or straight from a target, with an optional note. */
interface ActionInput {
  reportId?: string;
  note?: string;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toSummary(row: queries.ReportSummaryRow): ReportSummary {
  const user = row.user
    ? {
        id: row.user.id,
        fullName: row.user.fullName,
        username: row.user.username,
        suspended: row.user.suspendedAt !== null,
        deleted: row.user.deletedAt !== null,
      }
    : null;
  const base = {
    id: row.id,
    reason: row.reason as ReportReason,
    description: row.description,
    status: row.status as ReportStatus,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: iso(row.reviewedAt),
    reporter: row.reporter,
  };
  if (row.item) {
    return {
      ...base,
      target: {
        kind: 'item',
        item: {
          id: row.item.id,
          title: row.item.title,
          hidden: row.item.hiddenAt !== null,
          deleted: row.item.deletedAt !== null,
        },
        user,
      },
    };
  }
  // The reports_target_check constraint guarantees a person when there is no item.
  return { ...base, target: { kind: 'user', user: user! } };
}

function toItem(row: queries.ModeratedItemRow): ModeratedItem {
  return {
    ...row,
    hiddenAt: iso(row.hiddenAt),
    deletedAt: iso(row.deletedAt),
    createdAt: row.createdAt.toISOString(),
  };
}

function toUser(row: queries.ModeratedUserRow): ModeratedUser {
  const { campus, ...rest } = row;
  return {
    ...rest,
    campusName: universityService.campusName(campus),
    suspendedAt: iso(row.suspendedAt),
    deletedAt: iso(row.deletedAt),
    createdAt: row.createdAt.toISOString(),
  };
}

async function requireReport(db: Db, id: string) {
  const report = await queries.findReport(db, id);
  if (!report) throw notFound(msg`Report not found.`);
  return report;
}

/** The people a report is about or from: none of them may decide it. */
const partiesOf = (report: queries.ReportRow) => [
  report.reporter.id,
  report.reportedUserId,
  report.reportedItemOwnerId,
];

/** A report the moderator may look into and decide: they are no party to it. */
async function requireOthersReport(db: Db, moderatorId: string, id: string) {
  const report = await requireReport(db, id);
  refuseOwnCase(moderatorId, partiesOf(report));
  return report;
}

/**
 * Refuses an action on an item or a person in which the moderator is a party: their own item or account,
 * someone they reported, or one named by a report they are a party to.
 */
async function refuseOwnTarget(
  db: Db,
  moderatorId: string,
  target: { itemId?: string; userId: string; reportId?: string },
) {
  refuseOwnCase(moderatorId, [target.userId]);
  if (target.reportId) await requireOthersReport(db, moderatorId, target.reportId);
  if (await queries.hasReported(db, moderatorId, target)) throw ownCase();
}

/** An action's report, when one is named, must be about that item or person. */
async function checkReportFor(
  db: Db,
  reportId: string | undefined,
  target: { itemId?: string; userId: string },
) {
  if (!reportId) return;
  const report = await requireReport(db, reportId);
  const about = target.itemId
    ? report.reportedItemId === target.itemId
    : report.reportedUserId === target.userId;
  if (!about) {
    const message = target.itemId
      ? msg`That report is not about this item.`
      : msg`That report is not about this user.`;
    throw badRequest(message, [{ path: 'reportId', message }]);
  }
}

async function requireItem(db: Db, id: string) {
  const item = await queries.findItem(db, id);
  if (!item || item.deletedAt) throw notFound(msg`Item not found.`);
  return item;
}

async function requireUser(db: Db, id: string) {
  const user = await queries.findUser(db, id);
  if (!user) throw notFound(msg`User not found.`);
  return user;
}

/**
 * What the reporter is told of the decision, in their language (called inside notify's text()): what
 * they reported (an item by its title, a person by name) and why, as the Report dialog named it.
 */
function decisionNotice(
  status: 'resolved' | 'dismissed',
  report: { item: { title: string } | null; user: { fullName: string } | null; reason: string },
): { title: MessageDescriptor; message: MessageDescriptor } {
  const reason = REPORT_REASON_LABELS[report.reason as ReportReason] ?? report.reason;
  const title = msg`Your report was reviewed`;
  if (report.item) {
    const itemTitle = report.item.title;
    return {
      title,
      message:
        status === 'resolved'
          ? msg`Thank you for reporting “${itemTitle}” (${reason}). Our moderators reviewed your report and took action.`
          : msg`Thank you for reporting “${itemTitle}” (${reason}). Our moderators reviewed your report and found no breach of the community guidelines, so no action was taken.`,
    };
  }
  if (report.user) {
    const name = report.user.fullName;
    return {
      title,
      message:
        status === 'resolved'
          ? msg`Thank you for reporting ${name} (${reason}). Our moderators reviewed your report and took action.`
          : msg`Thank you for reporting ${name} (${reason}). Our moderators reviewed your report and found no breach of the community guidelines, so no action was taken.`,
    };
  }
  return {
    title,
    message:
      status === 'resolved'
        ? msg`Thank you for reporting a user (${reason}). Our moderators reviewed your report and took action.`
        : msg`Thank you for reporting a user (${reason}). Our moderators reviewed your report and found no breach of the community guidelines, so no action was taken.`,
  };
}

/** A report decided already, by what became of it. */
function alreadyDecided(status: string | undefined): MessageDescriptor {
  if (status === 'resolved') return msg`This report has already been resolved.`;
  if (status === 'dismissed') return msg`This report has already been dismissed.`;
  return msg`This report has already been decided.`;
}

export const moderationService = {
  /** For the other queues (claims, payment problems): the same rule and the same notice. */
  refuseOwnCase,
  ownCases: ownCasesOf,

  /** The queue without the reports the moderator is a party to (those are for the other moderators). */
  async queue(
    deps: ModerationDeps,
    moderatorId: string,
    query: { status: ReportQueueFilter; page: number; limit: number },
  ): Promise<ReportQueue> {
    const { db } = deps;
    const [{ rows, total }, counts, withheld] = await Promise.all([
      queries.listReports(db, {
        moderatorId,
        status: query.status === 'all' ? undefined : query.status,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      }),
      queries.countByStatus(db, moderatorId),
      queries.countOwnPending(db, moderatorId),
    ]);
    const pending = counts.pending ?? 0;
    const resolved = counts.resolved ?? 0;
    const dismissed = counts.dismissed ?? 0;
    return {
      reports: rows.map(toSummary),
      total,
      page: query.page,
      limit: query.limit,
      hasMore: query.page * query.limit < total,
      counts: { pending, resolved, dismissed, all: pending + resolved + dismissed },
      ownCases: await ownCasesOf(db, deps.config.adminEmails, moderatorId, withheld),
    };
  },

  /** A report with what it is about, the other reports about the same, and what moderators did. */
  async detail(db: Db, moderatorId: string, id: string): Promise<ReportDetail> {
    const row = await requireOthersReport(db, moderatorId, id);
    const target = { reportId: row.id, itemId: row.reportedItemId, userId: row.reportedUserId };
    const [item, user, related, history] = await Promise.all([
      row.reportedItemId ? queries.findItem(db, row.reportedItemId) : undefined,
      row.reportedUserId ? queries.findUser(db, row.reportedUserId) : undefined,
      queries.listRelatedReports(db, target),
      queries.listHistory(db, target),
    ]);
    const {
      adminNotes,
      reviewedBy,
      reportedItemId: _i,
      reportedUserId: _u,
      reportedItemOwnerId: _o,
      ...summary
    } = row;
    return {
      report: { ...toSummary(summary), adminNotes, reviewedBy },
      item: item ? toItem(item) : null,
      user: user ? toUser(user) : null,
      otherReports: related.map(toSummary),
      history: history.map(
        (h): ModerationEntry => ({
          ...h,
          action: h.action as ModerationEntry['action'],
          createdAt: h.createdAt.toISOString(),
        }),
      ),
    };
  },

  async addNote(db: Db, adminId: string, reportId: string, note: string): Promise<ReportDetail> {
    const report = await requireOthersReport(db, adminId, reportId);
    await queries.insertAction(db, {
      adminId,
      action: 'note',
      reportId,
      targetItemId: report.reportedItemId,
      targetUserId: report.reportedUserId,
      note,
    });
    return moderationService.detail(db, adminId, reportId);
  },

  /** Resolve (action taken) or dismiss (nothing wrong) a pending report, and tell the reporter. */
  async decide(
    db: Db,
    adminId: string,
    reportId: string,
    status: 'resolved' | 'dismissed',
    adminNotes: string | undefined,
  ): Promise<ReportDetail> {
    const report = await requireOthersReport(db, adminId, reportId);
    await transaction(db, async (tx) => {
      const decided = await queries.decideReport(tx, reportId, {
        status,
        reviewedBy: adminId,
        adminNotes: adminNotes ?? null,
      });
      if (!decided) {
        const current = await queries.findReport(tx, reportId);
        throw conflict(alreadyDecided(current?.status), 'REPORT_DECIDED');
      }
      await queries.insertAction(tx, {
        adminId,
        action: status === 'resolved' ? 'resolve' : 'dismiss',
        reportId,
        targetItemId: report.reportedItemId,
        targetUserId: report.reportedUserId,
        note: adminNotes ?? null,
      });
      await notificationService.notify(tx, {
        userId: report.reporter.id,
        type: 'report_update',
        text: () => decisionNotice(status, report),
      });
    });
    return moderationService.detail(db, adminId, reportId);
  },

  /** Hidden: out of browse, search and its page for everyone but its owner and the moderators. */
  async hideItem(db: Db, adminId: string, itemId: string, input: ActionInput): Promise<ModeratedItem> {
    const item = await requireItem(db, itemId);
    await checkReportFor(db, input.reportId, { itemId, userId: item.owner.id });
    await refuseOwnTarget(db, adminId, { itemId, userId: item.owner.id, reportId: input.reportId });
    await transaction(db, async (tx) => {
      if (!(await queries.setItemHidden(tx, itemId, true))) {
        throw conflict(msg`This item is already hidden.`, 'ALREADY_HIDDEN');
      }
      await queries.insertAction(tx, {
        adminId,
        action: 'hide_item',
        reportId: input.reportId ?? null,
        targetItemId: itemId,
        targetUserId: item.owner.id,
        note: input.note ?? null,
      });
      await notificationService.notify(tx, {
        userId: item.owner.id,
        type: 'report_update',
        text: () => {
          const title = item.title;
          return {
            title: msg`Your listing was hidden`,
            message: msg`“${title}” was hidden by CampusLoop's moderators after a report. It no longer appears in browse or search and cannot be reserved. If you think this is a mistake, contact support.`,
          };
        },
        relatedItemId: itemId,
      });
    });
    return toItem((await queries.findItem(db, itemId))!);
  },

  async unhideItem(db: Db, adminId: string, itemId: string, input: ActionInput): Promise<ModeratedItem> {
    const item = await requireItem(db, itemId);
    await checkReportFor(db, input.reportId, { itemId, userId: item.owner.id });
    await refuseOwnTarget(db, adminId, { itemId, userId: item.owner.id, reportId: input.reportId });
    await transaction(db, async (tx) => {
      if (!(await queries.setItemHidden(tx, itemId, false))) {
        throw conflict(msg`This item is not hidden.`, 'NOT_HIDDEN');
      }
      await queries.insertAction(tx, {
        adminId,
        action: 'unhide_item',
        reportId: input.reportId ?? null,
        targetItemId: itemId,
        targetUserId: item.owner.id,
        note: input.note ?? null,
      });
      await notificationService.notify(tx, {
        userId: item.owner.id,
        type: 'report_update',
        text: () => {
          const title = item.title;
          return {
            title: msg`Your listing is visible again`,
            message: msg`“${title}” is back in browse and search after a review by CampusLoop's moderators.`,
          };
        },
        relatedItemId: itemId,
      });
    });
    return toItem((await queries.findItem(db, itemId))!);
  },

  /**
   * Suspended: cannot sign in, every session and pending e-mail change ends now (decision 036), open
   * sockets close, listings leave browse.
   */
  async suspendUser(
    deps: ModerationDeps,
    adminId: string,
    userId: string,
    input: ActionInput,
  ): Promise<ModeratedUser> {
    const { db } = deps;
    const user = await requireUser(db, userId);
    if (userId === adminId) throw badRequest(msg`You cannot suspend your own account.`);
    if (isAdminEmail(deps.config, user.email)) {
      // Moderators are set by configuration; one moderator locking out another would be a dead end.
      throw badRequest(msg`Moderators cannot be suspended. Remove them from ADMIN_EMAILS first.`);
    }
    await checkReportFor(db, input.reportId, { userId });
    await refuseOwnTarget(db, adminId, { userId, reportId: input.reportId });
    await transaction(db, async (tx) => {
      if (!(await queries.setUserSuspended(tx, userId, true))) {
        throw conflict(msg`This user is already suspended.`, 'ALREADY_SUSPENDED');
      }
      await endAllSessions(tx, userId);
      await endTokensOfSuspension(tx, userId);
      await queries.insertAction(tx, {
        adminId,
        action: 'suspend_user',
        reportId: input.reportId ?? null,
        targetUserId: userId,
        note: input.note ?? null,
      });
    });
    return toUser((await queries.findUser(db, userId))!);
  },

  async unsuspendUser(
    deps: ModerationDeps,
    adminId: string,
    userId: string,
    input: ActionInput,
  ): Promise<ModeratedUser> {
    const { db } = deps;
    await requireUser(db, userId);
    await checkReportFor(db, input.reportId, { userId });
    await refuseOwnTarget(db, adminId, { userId, reportId: input.reportId });
    await transaction(db, async (tx) => {
      if (!(await queries.setUserSuspended(tx, userId, false))) {
        throw conflict(msg`This user is not suspended.`, 'NOT_SUSPENDED');
      }
      await queries.insertAction(tx, {
        adminId,
        action: 'unsuspend_user',
        reportId: input.reportId ?? null,
        targetUserId: userId,
        note: input.note ?? null,
      });
      await notificationService.notify(tx, {
        userId,
        type: 'report_update',
        text: () => ({
          title: msg`Your account is active again`,
          message: msg`CampusLoop's moderators lifted the suspension of your account. Welcome back.`,
        }),
      });
    });
    return toUser((await queries.findUser(db, userId))!);
  },
};
