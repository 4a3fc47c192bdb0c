import { Trans, useLingui } from '@lingui/react/macro';
import { Inbox, Megaphone, Package, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import type { ReportQueueFilter, ReportSummary } from '#shared/schemas/moderation.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { cn } from '../../../lib/cn.ts';
import { useTimeLabels } from '../../../lib/time-labels.ts';
import { paths } from '../../../paths.ts';
import { REPORT_REASON_NAMES } from '../../reports/api.ts';
import { useReportQueue } from '../api.ts';
import { EMPTY_QUEUE, STATUS_CLASSES, STATUS_LABELS } from './moderation-labels.ts';

/** The reports of one tab, each a link that opens it beside (or, on a phone, instead of) the list. */
export function ReportQueueList({ status, selectedId }: { status: ReportQueueFilter; selectedId?: string }) {
  const { t, i18n } = useLingui();
  const queue = useReportQueue(status);

  if (queue.isPending) {
    return (
      <div className="space-y-3" aria-busy="true">
        <span className="sr-only" role="status">
          <Trans>Loading reports…</Trans>
        </span>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-28 w-full rounded-2xl" />
        ))}
      </div>
    );
  }
  if (queue.isError) {
    return (
      <Card className="p-6 text-center">
        <h3 className="font-bold text-ink">
          <Trans>Failed to load reports</Trans>
        </h3>
        <p className="mt-1 text-sm text-muted">{errorMessage(queue.error, t`Please try again.`)}</p>
        <Button
          className="mt-4"
          variant="outline"
          onClick={() => void queue.refetch()}
          disabled={queue.isFetching}
        >
          <Trans>Try again</Trans>
        </Button>
      </Card>
    );
  }

  const reports = queue.data.pages.flatMap((p) => p.reports);
  if (reports.length === 0) {
    const empty = EMPTY_QUEUE[status];
    return (
      <Card className="flex flex-col items-center px-6 py-12 text-center">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <Inbox className="h-6 w-6" aria-hidden="true" />
        </span>
        <h3 className="mt-3 font-bold text-ink">{i18n._(empty.title)}</h3>
        <p className="mt-1 max-w-sm text-sm text-muted">{i18n._(empty.text)}</p>
      </Card>
    );
  }

  return (
    <div>
      <ul className="space-y-3">
        {reports.map((report) => (
          <li key={report.id}>
            <QueueEntry report={report} status={status} selected={report.id === selectedId} />
          </li>
        ))}
      </ul>
      {queue.hasNextPage && (
        <div className="mt-4 flex justify-center">
          <Button
            variant="outline"
            onClick={() => void queue.fetchNextPage()}
            disabled={queue.isFetchingNextPage}
          >
            {queue.isFetchingNextPage ? t`Loading...` : t`Load more reports`}
          </Button>
        </div>
      )}
    </div>
  );
}

const TARGET_ICONS = { item: Package, ask: Megaphone, user: UserRound } as const;

/**
 * 'Cordless drill' (an item), 'Party speaker · asked by Rosa' (an ask) or 'Jordan Lee' (a person), with
 * what has been done to it.
 */
export function TargetLabel({ target }: { target: ReportSummary['target'] }) {
  const { t } = useLingui();
  const Icon = TARGET_ICONS[target.kind];
  const { kind, name, asker, flags } =
    target.kind === 'item'
      ? {
          kind: t`Item: `,
          name: target.item.title,
          asker: null,
          flags: [
            target.item.hidden && t`Hidden`,
            target.item.deleted && t`Deleted`,
            target.user?.suspended && t`Owner suspended`,
          ],
        }
      : target.kind === 'ask'
        ? {
            kind: t`Ask: `,
            name: target.ask.title,
            asker: target.ask.askerFirstName,
            flags: [
              target.ask.hidden && t({ message: 'Hidden', context: 'an ask' }),
              target.user.suspended && t`Asker suspended`,
            ],
          }
        : {
            kind: t`User: `,
            name: target.user.fullName,
            asker: null,
            flags: [target.user.suspended && t`Suspended`],
          };
  return (
    <span className="break-words">
      <Icon
        className="me-1.5 inline-block h-[1em] w-[1em] align-[-0.125em] text-stone-600"
        aria-hidden="true"
      />
      <span className="sr-only">{kind}</span>
      <span className="font-semibold text-ink">{name}</span>
      {asker && (
        <span className="font-normal text-muted">
          {' '}
          <Trans>· asked by {asker}</Trans>
        </span>
      )}
      {flags.filter(Boolean).map((flag) => (
        <span
          key={String(flag)}
          className="ms-2 inline-block rounded-full bg-red-100 px-2 py-0.5 align-middle text-xs font-semibold text-red-900"
        >
          {flag}
        </span>
      ))}
    </span>
  );
}

export function StatusBadge({ status }: { status: ReportSummary['status'] }) {
  const { i18n } = useLingui();
  return (
    <span className={cn('rounded-full px-2.5 py-0.5 text-xs font-bold', STATUS_CLASSES[status])}>
      {i18n._(STATUS_LABELS[status])}
    </span>
  );
}

function QueueEntry({
  report,
  status,
  selected,
}: {
  report: ReportSummary;
  status: ReportQueueFilter;
  selected: boolean;
}) {
  const { i18n } = useLingui();
  const { relativeTime } = useTimeLabels();
  const reporter = report.reporter.fullName;
  const ago = relativeTime(report.createdAt);
  return (
    <Link
      to={paths.admin({ status, report: report.id })}
      aria-current={selected ? 'true' : undefined}
      className={cn(
        'block rounded-2xl border bg-white p-4 shadow-sm transition hover:border-brand-200 hover:shadow-md',
        selected ? 'border-brand-600 ring-2 ring-brand-600' : 'border-line',
      )}
    >
      <span className="flex flex-wrap items-center justify-between gap-2">
        <span className="rounded-full bg-stone-100 px-2.5 py-0.5 text-xs font-bold text-stone-800">
          {i18n._(REPORT_REASON_NAMES[report.reason])}
        </span>
        {status === 'all' && <StatusBadge status={report.status} />}
      </span>
      <span className="mt-2 block">
        <TargetLabel target={report.target} />
      </span>
      <span className="mt-1 line-clamp-2 block break-words text-sm text-stone-700">{report.description}</span>
      <span className="mt-2 block text-xs text-muted">
        <Trans>
          By {reporter} · <time dateTime={report.createdAt}>{ago}</time>
        </Trans>
      </span>
    </Link>
  );
}
