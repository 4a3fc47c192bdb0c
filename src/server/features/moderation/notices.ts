import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ReportReason } from '#shared/constants.ts';
import { REPORT_REASON_LABELS } from '#shared/constants.ts';
import type { NoticeText } from '../../i18n.ts';
import { wording } from '../../wordings.ts';

// The words of moderation: what the reporter is told, and why a decided report cannot be decided again.

/**
 * What the reporter is told of the decision, in their language (called inside notify's text()): what
 * they reported (an item by its title, a person by name) and why, as the Report dialog named it.
 */
export const decisionNotice = wording(
  'moderation.decisionNotice',
  (
    status: 'resolved' | 'dismissed',
    report: { item: { title: string } | null; user: { fullName: string } | null; reason: string },
  ): NoticeText => {
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
  },
  (status, report) => [
    status,
    {
      item: report.item && { title: report.item.title },
      user: report.user && { fullName: report.user.fullName },
      reason: report.reason,
    },
  ],
);

/**
 * What the asker is told when a moderator unhides their ask. Only an open ask within its days returns to
 * the board; a closed or past one is told it is no longer hidden but stays off.
 */
export const unhiddenAskNotice = wording(
  'moderation.unhiddenAsk',
  (ask: { title: string; status: string; endDate: string }, today: string): NoticeText => {
    const title = ask.title;
    if (ask.status !== 'open') {
      return {
        title: msg`Your ask is no longer hidden`,
        message: msg`“${title}” is no longer hidden after a review by CampusLoop's moderators. It stays off your campus board because it is closed.`,
      };
    }
    if (ask.endDate < today) {
      return {
        title: msg`Your ask is no longer hidden`,
        message: msg`“${title}” is no longer hidden after a review by CampusLoop's moderators. It stays off your campus board because its dates have passed.`,
      };
    }
    return {
      title: msg`Your ask is visible again`,
      message: msg`“${title}” is back on your campus board after a review by CampusLoop's moderators.`,
    };
  },
  (ask, today) => [{ title: ask.title, status: ask.status, endDate: ask.endDate }, today],
);

/** A report decided already, by what became of it. */
export function alreadyDecided(status: string | undefined): MessageDescriptor {
  if (status === 'resolved') return msg`This report has already been resolved.`;
  if (status === 'dismissed') return msg`This report has already been dismissed.`;
  return msg`This report has already been decided.`;
}
