import { msg } from '@lingui/core/macro';
import type { z } from 'zod';
import type { ReportReason, ReportStatus } from '#shared/constants.ts';
import type { Report, reportInput } from '#shared/schemas/reports.ts';
import type { Db } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import * as queries from './queries.ts';

// Reports (spec §2 Report dialog, §5 Report, §7 POST /api/reports): anyone signed in may report
// another person or someone else's item, once while that report is open.

type ReportInput = z.output<typeof reportInput>;

export const ALREADY_REPORTED_ITEM = msg`You have already reported this item. Our team will review your report shortly.`;
export const ALREADY_REPORTED_ASK = msg`You have already reported this ask. Our team will review your report shortly.`;
export const ALREADY_REPORTED_USER = msg`You have already reported this user. Our team will review your report shortly.`;

export function toReport(row: queries.ReportRow): Report {
  return {
    id: row.id,
    reportedUserId: row.reportedUserId,
    reportedItemId: row.reportedItemId,
    reportedAskId: row.reportedAskId,
    reason: row.reason as ReportReason,
    description: row.description,
    status: row.status as ReportStatus,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The partial unique indexes reports_open_item_unique / _ask_unique / _user_unique said no. */
function isOpenReportClash(error: unknown): boolean {
  const e =
    (error as { cause?: { code?: string; constraint?: string } }).cause ??
    (error as { code?: string; constraint?: string });
  return e?.code === '23505' && Boolean(e.constraint?.startsWith('reports_open_'));
}

/**
 * What is reported, checked: an item someone else owns and everyone can see (its owner becomes the
 * reported user), an ask of someone else on the reporter's campus board (its author likewise), or
 * another person who exists.
 */
async function resolveTarget(db: Db, reporterId: string, input: ReportInput) {
  if (input.reportedAskId) return resolveAsk(db, reporterId, input.reportedAskId, input.reportedUserId);
  if (input.reportedItemId) {
    const item = await queries.findReportableItem(db, input.reportedItemId);
    // Already out of sight (deleted, hidden, owner suspended): as good as missing to the reporter.
    if (!item || item.deletedAt || item.hiddenAt || item.ownerSuspendedAt)
      throw notFound(msg`Item not found.`);
    if (item.userId === reporterId) {
      throw badRequest(msg`You cannot report your own item.`, [
        { path: 'reportedItemId', message: msg`You cannot report your own item.` },
      ]);
    }
    if (input.reportedUserId && input.reportedUserId !== item.userId) {
      throw badRequest(msg`That user does not own this item.`, [
        { path: 'reportedUserId', message: msg`That user does not own this item.` },
      ]);
    }
    return { reportedItemId: item.id, reportedAskId: null, reportedUserId: item.userId };
  }
  const userId = input.reportedUserId!;
  if (userId === reporterId) {
    throw badRequest(msg`You cannot report yourself.`, [
      { path: 'reportedUserId', message: msg`You cannot report yourself.` },
    ]);
  }
  if (!(await queries.userExists(db, userId))) throw notFound(msg`User not found.`);
  return { reportedItemId: null, reportedAskId: null, reportedUserId: userId };
}

async function resolveAsk(db: Db, reporterId: string, askId: string, userId: string | null | undefined) {
  const [ask, campus] = await Promise.all([
    queries.findReportableAsk(db, askId),
    queries.campusOf(db, reporterId),
  ]);
  // Off the reporter's board (another campus, hidden, author suspended): as good as missing, as the
  // asks feature answers.
  if (!ask || ask.campus !== campus || ask.hiddenAt || ask.authorSuspendedAt) {
    throw notFound(msg`Ask not found.`);
  }
  if (ask.userId === reporterId) {
    throw badRequest(msg`You cannot report your own ask.`, [
      { path: 'reportedAskId', message: msg`You cannot report your own ask.` },
    ]);
  }
  if (userId && userId !== ask.userId) {
    throw badRequest(msg`That user did not write this ask.`, [
      { path: 'reportedUserId', message: msg`That user did not write this ask.` },
    ]);
  }
  return { reportedItemId: null, reportedAskId: ask.id, reportedUserId: ask.userId };
}

export const reportService = {
  async create(db: Db, reporterId: string, input: ReportInput): Promise<Report> {
    const target = await resolveTarget(db, reporterId, input);
    try {
      const row = await queries.insertReport(db, {
        reporterId,
        ...target,
        reason: input.reason,
        description: input.description,
      });
      return toReport(row);
    } catch (error) {
      // One open report per reporter and target; the database's unique index decides, even under races.
      if (isOpenReportClash(error)) {
        throw conflict(
          target.reportedItemId
            ? ALREADY_REPORTED_ITEM
            : target.reportedAskId
              ? ALREADY_REPORTED_ASK
              : ALREADY_REPORTED_USER,
          'ALREADY_REPORTED',
        );
      }
      throw error;
    }
  },

  /** The caller's own reports, newest first (the Report buttons show which are still open). */
  async listOwn(db: Db, reporterId: string): Promise<Report[]> {
    return (await queries.listByReporter(db, reporterId)).map(toReport);
  },
};
