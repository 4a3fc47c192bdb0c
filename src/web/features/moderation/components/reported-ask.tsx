import { Trans, useLingui } from '@lingui/react/macro';
import { ExternalLink, Eye } from 'lucide-react';
import { Link } from 'react-router';
import { campusToday } from '#shared/calendar.ts';
import { DEFAULT_CAMPUS_TIME_ZONE } from '#shared/constants.ts';
import type { ModeratedAsk } from '#shared/schemas/moderation.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useTimeLabels } from '../../../lib/time-labels.ts';
import { paths } from '../../../paths.ts';
import { dayRange } from '../../reservations/api.ts';
import { ConfirmHide } from './confirm-action.tsx';
import { Section } from './report-section.tsx';
import { useTarget } from './reported-target.tsx';

// An ask on a campus board, as a moderator acts on a report about it: what the board shows of it (the
// asker by first name), and "Hide ask" or, once hidden, "Unhide ask", with the moderator's note, as for a
// reported item (reported-target.tsx). Unhidden, a closed ask or one past its last day stays off the board,
// and the toast says so.

export function ReportedAskCard({
  ask,
  reportId,
  note,
  onDone,
}: {
  ask: ModeratedAsk;
  reportId: string;
  note: string;
  onDone: () => void;
}) {
  const { t } = useLingui();
  const { formatTime, relativeTime } = useTimeLabels();
  const { run, busy } = useTarget(reportId, note, onDone);
  const title = ask.title;
  const asker = ask.askerFirstName;
  const asked = relativeTime(ask.createdAt);
  const days = dayRange(ask.startDate, ask.endDate);
  const hiddenSince = ask.hiddenAt ? formatTime(ask.hiddenAt, 'date') : '';
  const unhidden = () => {
    if (ask.status !== 'open') {
      return t`It is no longer hidden, but stays off the campus board: it is closed. The asker has been notified.`;
    }
    if (ask.endDate < campusToday(DEFAULT_CAMPUS_TIME_ZONE).date) {
      return t`It is no longer hidden, but stays off the campus board: its dates have passed. The asker has been notified.`;
    }
    return t`It is back on the campus board. The asker has been notified.`;
  };
  return (
    <Section title={t`Reported ask`}>
      <div className="rounded-xl border border-line p-4">
        <Link
          to={paths.asks}
          className="inline-flex items-center gap-1 break-words font-semibold text-brand-700 hover:underline"
        >
          {ask.title}
          <ExternalLink className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
          <span className="sr-only">{t`(on the “Asked for” board)`}</span>
        </Link>
        <p className="text-sm text-muted">
          <Trans>
            Asked {asked} by {asker} · for {days}
          </Trans>
        </p>
        {ask.note && <p className="mt-1 line-clamp-3 break-words text-sm text-stone-700">{ask.note}</p>}
        {ask.status !== 'open' && !ask.hiddenAt && (
          <p className="mt-2 text-sm text-stone-700">
            <Trans>Closed: it is no longer on the board.</Trans>
          </p>
        )}
        <div className="mt-3 flex flex-wrap items-center gap-2">
          {ask.hiddenAt ? (
            <>
              <span className="text-sm font-semibold text-red-900">
                <Trans context="an ask">Hidden since {hiddenSince}</Trans>
              </span>
              <Button
                variant="outline"
                disabled={busy}
                onClick={() =>
                  void run('unhideAsk', ask.id, { title: t`Ask visible again`, description: unhidden() })
                }
              >
                <Eye className="h-4 w-4" aria-hidden="true" />
                <Trans>Unhide ask</Trans>
              </Button>
            </>
          ) : (
            <ConfirmHide
              label={t`Hide ask`}
              title={t`Hide “${title}”?`}
              description={t`It leaves the campus board and can get no more offers. The asker is notified. You can unhide it later.`}
              busy={busy}
              onConfirm={() =>
                run('hideAsk', ask.id, {
                  title: t`Ask hidden`,
                  description: t`It is no longer on the campus board. The asker has been notified.`,
                })
              }
            />
          )}
        </div>
      </div>
    </Section>
  );
}
