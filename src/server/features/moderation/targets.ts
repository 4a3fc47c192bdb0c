import { msg } from '@lingui/core/macro';
import type { Db } from '../../db/client.ts';
import { badRequest, notFound } from '../../errors.ts';
import { ownCase, refuseOwnCase } from './own-case.ts';
import * as queries from './queries.ts';

// What a moderator's action names must exist (404 otherwise), be what the report is about, and not be
// the moderator's own case (own-case.ts).

export async function requireReport(db: Db, id: string) {
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
export async function requireOthersReport(db: Db, moderatorId: string, id: string) {
  const report = await requireReport(db, id);
  refuseOwnCase(moderatorId, partiesOf(report));
  return report;
}

/**
 * Refuses an action on an item or a person in which the moderator is a party: their own item or account,
 * someone they reported, or one named by a report they are a party to.
 */
export async function refuseOwnTarget(
  db: Db,
  moderatorId: string,
  target: { itemId?: string; userId: string; reportId?: string },
) {
  refuseOwnCase(moderatorId, [target.userId]);
  if (target.reportId) await requireOthersReport(db, moderatorId, target.reportId);
  if (await queries.hasReported(db, moderatorId, target)) throw ownCase();
}

/** An action's report, when one is named, must be about that item or person. */
export async function checkReportFor(
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

export async function requireItem(db: Db, id: string) {
  const item = await queries.findItem(db, id);
  if (!item || item.deletedAt) throw notFound(msg`Item not found.`);
  return item;
}

export async function requireAccount(db: Db, id: string) {
  const user = await queries.findUser(db, id);
  if (!user) throw notFound(msg`User not found.`);
  return user;
}
