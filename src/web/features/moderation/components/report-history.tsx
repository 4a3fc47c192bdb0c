import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ModerationAction } from '#shared/constants.ts';
import type { ModerationEntry, ReportSummary } from '#shared/schemas/moderation.ts';
import { useTimeLabels } from '../../../lib/time-labels.ts';
import { paths } from '../../../paths.ts';
import { REPORT_REASON_NAMES } from '../../reports/api.ts';
import { StatusBadge } from './report-queue.tsx';

// What has happened to a report and around it: the decision taken, the other reports about the same
// item or person, and each moderator's step in the history.

/** 'Resolved by Morgan Reyes on Mar 5, 2026 • 3:04 PM', with as much as is known. */
export function Decision({ resolved, by, at }: { resolved: boolean; by?: string; at?: string }) {
  const { formatTime } = useTimeLabels();
  const on = at && <time dateTime={at}>{formatTime(at, 'dateTime')}</time>;
  if (resolved) {
    if (by && on)
      return (
        <Trans>
          Resolved by {by} on {on}
        </Trans>
      );
    if (by) return <Trans>Resolved by {by}</Trans>;
    if (on) return <Trans>Resolved on {on}</Trans>;
    return <Trans>Resolved</Trans>;
  }
  if (by && on)
    return (
      <Trans>
        Dismissed by {by} on {on}
      </Trans>
    );
  if (by) return <Trans>Dismissed by {by}</Trans>;
  if (on) return <Trans>Dismissed on {on}</Trans>;
  return <Trans>Dismissed</Trans>;
}

export function OtherReport({ report }: { report: ReportSummary }) {
  const { i18n } = useLingui();
  const { relativeTime } = useTimeLabels();
  const reporter = report.reporter.fullName;
  const ago = relativeTime(report.createdAt);
  return (
    <li>
      <Link
        to={paths.admin({ status: 'all', report: report.id })}
        className="block p-3 text-sm hover:bg-stone-50"
      >
        <span className="flex flex-wrap items-center gap-2">
          <StatusBadge status={report.status} />
          <span className="font-semibold text-ink">{i18n._(REPORT_REASON_NAMES[report.reason])}</span>
          <span className="text-muted">
            <Trans>
              by {reporter}, {ago}
            </Trans>
          </span>
        </span>
        <span className="mt-1 line-clamp-2 block break-words text-stone-700">{report.description}</span>
      </Link>
    </li>
  );
}

export function HistoryEntry({ entry }: { entry: ModerationEntry }) {
  const { t } = useLingui();
  const { formatTime } = useTimeLabels();
  const who = <span className="font-semibold">{entry.admin?.fullName ?? t`A former moderator`}</span>;
  return (
    <li className="border-s-2 border-brand-200 ps-3 text-sm">
      <p className="text-ink">
        <ActionSentence action={entry.action} who={who} />
      </p>
      <p className="text-xs text-muted">
        <time dateTime={entry.createdAt}>{formatTime(entry.createdAt, 'dateTime')}</time>
      </p>
      {entry.note && <p className="mt-1 whitespace-pre-line break-words text-stone-700">{entry.note}</p>}
    </li>
  );
}

/** One line of the history: 'Morgan Reyes hid the item'. */
function ActionSentence({ action, who }: { action: ModerationAction; who: ReactNode }) {
  switch (action) {
    case 'note':
      return <Trans>{who} added a note</Trans>;
    case 'resolve':
      return <Trans>{who} resolved the report</Trans>;
    case 'dismiss':
      return <Trans>{who} dismissed the report</Trans>;
    case 'hide_item':
      return <Trans>{who} hid the item</Trans>;
    case 'hide_ask':
      return <Trans>{who} hid the ask</Trans>;
    case 'unhide_item':
      return <Trans>{who} made the item visible again</Trans>;
    case 'unhide_ask':
      return <Trans>{who} made the ask visible again</Trans>;
    case 'suspend_user':
      return <Trans>{who} suspended the user</Trans>;
    case 'unsuspend_user':
      return <Trans>{who} lifted the suspension</Trans>;
  }
}
