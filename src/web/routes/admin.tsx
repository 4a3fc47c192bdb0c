import { Trans, useLingui } from '@lingui/react/macro';
import { Tabs } from 'radix-ui';
import { useSearchParams } from 'react-router';
import { REPORT_QUEUE_FILTERS, type ReportQueueFilter } from '#shared/schemas/moderation.ts';
import { Card } from '../components/ui/card.tsx';
import { useReportQueue } from '../features/moderation/api.ts';
import { QUEUE_HEADINGS, QUEUE_TABS } from '../features/moderation/components/moderation-labels.ts';
import { ModerationHeader } from '../features/moderation/components/moderation-nav.tsx';
import { ModeratorsOnly } from '../features/moderation/components/moderators-only.tsx';
import { OwnCasesNotice } from '../features/moderation/components/own-cases-notice.tsx';
import { ReportDetailPanel } from '../features/moderation/components/report-detail.tsx';
import { ReportQueueList } from '../features/moderation/components/report-queue.tsx';
import { cn } from '../lib/cn.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

// /admin (decision 009): the moderators' report queue. Signed-out people go to sign in; everyone who is
// not a moderator (ADMIN_EMAILS) is told this page is not for them.

export default function AdminRoute() {
  return (
    <ModeratorsOnly>
      <ModerationPage />
    </ModeratorsOnly>
  );
}

const tabClasses =
  'min-h-11 flex-1 rounded-lg px-2 text-sm font-semibold text-stone-700 sm:flex-none sm:px-4 data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow-sm';

function isFilter(value: string | null): value is ReportQueueFilter {
  return (REPORT_QUEUE_FILTERS as readonly string[]).includes(value ?? '');
}

function ModerationPage() {
  const { t, i18n } = useLingui();
  useDocumentTitle(t`Moderation`);
  const [params, setParams] = useSearchParams();
  const requested = params.get('status');
  const status: ReportQueueFilter = isFilter(requested) ? requested : 'pending';
  const reportId = params.get('report') ?? undefined;
  // Every page of the queue carries the counts of all four tabs.
  const firstPage = useReportQueue(status).data?.pages[0];
  const counts = firstPage?.counts;

  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <ModerationHeader />
      <OwnCasesNotice ownCases={firstPage?.ownCases} />

      <Tabs.Root
        value={status}
        onValueChange={(next) => setParams(new URLSearchParams(next === 'pending' ? {} : { status: next }))}
        className="mt-6"
      >
        <Tabs.List
          aria-label={t`Reports by status`}
          className="grid w-full grid-cols-2 gap-1 rounded-xl bg-stone-100 p-1 sm:flex sm:w-fit"
        >
          {QUEUE_TABS.map((tab) => (
            <Tabs.Trigger key={tab.value} value={tab.value} className={tabClasses}>
              {i18n._(tab.label)}
              {counts && <span className="font-normal"> ({counts[tab.value]})</span>}
            </Tabs.Trigger>
          ))}
        </Tabs.List>

        {QUEUE_TABS.map((tab) => (
          <Tabs.Content key={tab.value} value={tab.value} className="mt-4">
            <h2 className="sr-only">{i18n._(QUEUE_HEADINGS[tab.value])}</h2>
            <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
              {/* On a phone the open report replaces the list; on a desktop it sits beside it. */}
              <div className={cn(reportId && 'hidden lg:block')}>
                <ReportQueueList status={tab.value} selectedId={reportId} />
              </div>
              <div className={cn(!reportId && 'hidden lg:block')}>
                {reportId ? (
                  <div className="lg:sticky lg:top-20">
                    <ReportDetailPanel key={reportId} reportId={reportId} backTo={paths.admin({ status })} />
                  </div>
                ) : (
                  <Card className="flex min-h-48 items-center justify-center p-8 text-center text-muted">
                    <Trans>Choose a report to read it and act on it.</Trans>
                  </Card>
                )}
              </div>
            </div>
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </div>
  );
}
