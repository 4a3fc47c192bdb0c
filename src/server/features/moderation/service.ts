import { msg } from '@lingui/core/macro';
import { campusToday } from '#shared/calendar.ts';
import type {
  ModeratedItem,
  ModeratedUser,
  ModerationEntry,
  ReportDetail,
  ReportQueue,
  ReportQueueFilter,
} from '#shared/schemas/moderation.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { endTokensOfSuspension } from '../../db/token-lifetimes.ts';
import { transaction } from '../../db/transaction.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { askQueries } from '../asks/service.ts';
import { endAllSessions, isAdminEmail } from '../auth/service.ts';
import { notificationService } from '../notifications/service.ts';
import { alreadyDecided, decisionNotice, unhiddenAskNotice } from './notices.ts';
import { ownCasesOf, refuseOwnCase } from './own-case.ts';
import * as queries from './queries.ts';
import {
  checkReportFor,
  refuseOwnTarget,
  requireAccount,
  requireItem,
  requireOthersReport,
  requireReport,
} from './targets.ts';
import { toAsk, toItem, toSummary, toUser } from './views.ts';

// Moderation: the moderators' queue and what they may do about a report. Every action is
// one transaction with its moderation_actions row and the notification it sends, so the history never
// tells of an action that did not happen, or the reverse.

export interface ModerationDeps {
  db: Db;
  config: Pick<Config, 'adminEmails' | 'campusTimeZone'>;
}

/** An action taken from a report, or straight from a target, with an optional note. */
interface ActionInput {
  reportId?: string;
  note?: string;
}

/**
 * The ask a moderator hides or unhides, after the checks both share: it exists, the report named (if
 * any) is about it, and it is not the moderator's own case.
 */
async function askToModerate(db: Db, adminId: string, askId: string, input: ActionInput) {
  const ask = await askQueries.findAsk(db, askId);
  if (!ask) throw notFound(msg`Ask not found.`);
  if (input.reportId) {
    const report = await requireReport(db, input.reportId);
    if (report.reportedAskId !== askId) {
      const message = msg`That report is not about this ask.`;
      throw badRequest(message, [{ path: 'reportId', message }]);
    }
  }
  await refuseOwnTarget(db, adminId, { userId: ask.userId, reportId: input.reportId });
  return ask;
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
    const [item, ask, user, related, history] = await Promise.all([
      row.reportedItemId ? queries.findItem(db, row.reportedItemId) : undefined,
      row.reportedAskId ? askQueries.findAsk(db, row.reportedAskId) : undefined,
      row.reportedUserId ? queries.findUser(db, row.reportedUserId) : undefined,
      queries.listRelatedReports(db, target),
      queries.listHistory(db, target),
    ]);
    const {
      adminNotes,
      reviewedBy,
      reportedItemId: _i,
      reportedAskId: _a,
      reportedUserId: _u,
      reportedItemOwnerId: _o,
      ...summary
    } = row;
    return {
      report: { ...toSummary(summary), adminNotes, reviewedBy },
      item: item ? toItem(item) : null,
      ask: ask ? toAsk(ask) : null,
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

  /**
   * An ask hidden from a report: off the campus board, no more offers, and its author is told why
   * (a bare DELETE /api/asks/:id by a moderator hides one too, without a report or a notice).
   */
  async hideAsk(db: Db, adminId: string, askId: string, input: ActionInput) {
    const ask = await askToModerate(db, adminId, askId, input);
    await transaction(db, async (tx) => {
      if (!(await askQueries.hide(tx, askId, new Date()))) {
        throw conflict(msg`This ask is already hidden.`, 'ALREADY_HIDDEN');
      }
      await queries.insertAction(tx, {
        adminId,
        action: 'hide_ask',
        reportId: input.reportId ?? null,
        targetUserId: ask.userId,
        note: input.note ?? null,
      });
      await notificationService.notify(tx, {
        userId: ask.userId,
        type: 'report_update',
        text: () => {
          const title = ask.title;
          return {
            title: msg`Your ask was hidden`,
            message: msg`“${title}” is no longer on your campus board after a review by CampusLoop's moderators.`,
          };
        },
      });
    });
    return toAsk((await askQueries.findAsk(db, askId))!);
  },

  /**
   * The way back from hideAsk, for an ask hidden by mistake: the rules of hideAsk, and the asker is told.
   * A closed ask or one past its last day stays off the board, so its notice says so rather than promise
   * it back.
   */
  async unhideAsk(deps: ModerationDeps, adminId: string, askId: string, input: ActionInput) {
    const { db } = deps;
    const ask = await askToModerate(db, adminId, askId, input);
    const today = campusToday(deps.config.campusTimeZone).date;
    await transaction(db, async (tx) => {
      if (!(await askQueries.unhide(tx, askId))) {
        throw conflict(msg`This ask is not hidden.`, 'NOT_HIDDEN');
      }
      await queries.insertAction(tx, {
        adminId,
        action: 'unhide_ask',
        reportId: input.reportId ?? null,
        targetUserId: ask.userId,
        note: input.note ?? null,
      });
      await notificationService.notify(tx, {
        userId: ask.userId,
        type: 'report_update',
        text: () => unhiddenAskNotice(ask, today),
      });
    });
    return toAsk((await askQueries.findAsk(db, askId))!);
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
    const user = await requireAccount(db, userId);
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
    await requireAccount(db, userId);
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
