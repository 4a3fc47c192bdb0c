import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft, CheckCircle2, StickyNote, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { LIMITS } from '#shared/constants.ts';
import type { ReportDetail } from '#shared/schemas/moderation.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useTimeLabels } from '../../../lib/time-labels.ts';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../paths.ts';
import { REPORT_REASON_NAMES } from '../../reports/api.ts';
import { useAddNote, useDecideReport, useReportDetail } from '../api.ts';
import { Decision, HistoryEntry, OtherReport } from './report-history.tsx';
import { StatusBadge, TargetLabel } from './report-queue.tsx';
import { Section, useFailureToast } from './report-section.tsx';
import { ReportedAskCard } from './reported-ask.tsx';
import { ReportedItemCard, ReportedUserCard } from './reported-target.tsx';

// One report as a moderator works on it: what was reported and by whom, the reported item, ask or person,
// the other reports about them, what moderators did so far, a note, and the actions.

export function ReportDetailPanel({ reportId, backTo }: { reportId: string; backTo: string }) {
  const { t } = useLingui();
  const detail = useReportDetail(reportId);

  if (detail.isPending) {
    return (
      <Card className="space-y-4 p-5" aria-busy="true">
        <span className="sr-only" role="status">
          <Trans>Loading report…</Trans>
        </span>
        <Skeleton className="h-6 w-40" />
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-24 w-full" />
      </Card>
    );
  }
  if (detail.isError) {
    return (
      <Card className="p-6 text-center">
        <BackToQueue to={backTo} />
        <h2 className="mt-2 text-lg font-bold text-ink">
          <Trans>Failed to load the report</Trans>
        </h2>
        <p className="mt-1 text-sm text-muted">{errorMessage(detail.error, t`Please try again.`)}</p>
        <Button
          className="mt-4"
          variant="outline"
          onClick={() => void detail.refetch()}
          disabled={detail.isFetching}
        >
          <Trans>Try again</Trans>
        </Button>
      </Card>
    );
  }
  return <ReportView detail={detail.data} backTo={backTo} />;
}

function BackToQueue({ to }: { to: string }) {
  return (
    <Link
      to={to}
      className="inline-flex min-h-11 items-center gap-2 rounded-lg text-sm font-semibold text-brand-700 hover:text-brand-800 lg:hidden"
    >
      <ArrowLeft className="rtl:-scale-x-100 h-4 w-4" aria-hidden="true" />
      <Trans>Back to reports</Trans>
    </Link>
  );
}

function ReportView({ detail, backTo }: { detail: ReportDetail; backTo: string }) {
  const { t, i18n } = useLingui();
  const { formatTime } = useTimeLabels();
  const { report, item, ask, user } = detail;
  const reportedOn = formatTime(report.createdAt, 'dateTime');
  const reporter = report.reporter.fullName;
  const noteMax = LIMITS.moderationNoteMax;
  const otherCount = detail.otherReports.length;
  const [note, setNote] = useState('');
  const noteTooLong = note.trim().length > LIMITS.moderationNoteMax;

  return (
    <Card role="region" aria-label={t`Selected report`} className="space-y-6 p-4 sm:p-6">
      <div>
        <BackToQueue to={backTo} />
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={report.status} />
          <span className="rounded-full bg-stone-100 px-2.5 py-0.5 text-xs font-bold text-stone-800">
            {i18n._(REPORT_REASON_NAMES[report.reason])}
          </span>
        </div>
        <h2 className="mt-3 text-xl font-bold text-ink">
          <TargetLabel target={report.target} />
        </h2>
        <p className="mt-1 text-sm text-muted">
          <Trans>
            Reported by{' '}
            <Link
              to={paths.profile(report.reporter.id)}
              className="font-semibold text-brand-700 hover:underline"
            >
              {reporter}
            </Link>{' '}
            on <time dateTime={report.createdAt}>{reportedOn}</time>
          </Trans>
        </p>
      </div>

      <Section title={t`What they wrote`}>
        <p className="whitespace-pre-line break-words rounded-xl bg-stone-50 p-4 text-stone-800">
          {report.description}
        </p>
        {report.status !== 'pending' && (
          <div className="mt-3 rounded-xl border border-line p-4 text-sm">
            <p className="font-semibold text-ink">
              <Decision
                resolved={report.status === 'resolved'}
                by={report.reviewedBy?.fullName}
                at={report.reviewedAt ?? undefined}
              />
            </p>
            <p className="mt-1 whitespace-pre-line break-words text-stone-700">
              {report.adminNotes ?? t`No notes.`}
            </p>
          </div>
        )}
      </Section>

      {item && <ReportedItemCard item={item} reportId={report.id} note={note} onDone={() => setNote('')} />}
      {ask && <ReportedAskCard ask={ask} reportId={report.id} note={note} onDone={() => setNote('')} />}
      {user && (
        <ReportedUserCard
          user={user}
          title={item ? t`Owner` : ask ? t`Asker` : t`Reported user`}
          reportId={report.id}
          note={note}
          onDone={() => setNote('')}
        />
      )}

      <Section title={t`Notes and decision`}>
        <Field
          id="moderator-note"
          label={t`Moderator notes`}
          error={noteTooLong ? t`Notes can be at most ${noteMax} characters` : undefined}
          hint={t`Add it to the history as a note, or keep it with your decision or action.`}
        >
          <Textarea
            id="moderator-note"
            rows={3}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            aria-invalid={noteTooLong || undefined}
            aria-describedby={noteTooLong ? 'moderator-note-error' : 'moderator-note-hint'}
          />
        </Field>
        <DecisionButtons
          reportId={report.id}
          pending={report.status === 'pending'}
          note={note}
          disabled={noteTooLong}
          onDone={() => setNote('')}
        />
      </Section>

      {detail.otherReports.length > 0 && (
        <Section
          title={
            item
              ? t`Other reports about this item or its owner (${otherCount})`
              : ask
                ? t`Other reports about this ask or its asker (${otherCount})`
                : t`Other reports about this user (${otherCount})`
          }
        >
          <ul className="divide-y divide-line rounded-xl border border-line">
            {detail.otherReports.map((other) => (
              <OtherReport key={other.id} report={other} />
            ))}
          </ul>
        </Section>
      )}

      <Section title={t`History`}>
        {detail.history.length === 0 ? (
          <p className="text-sm text-muted">
            <Trans>No moderator has acted on this yet.</Trans>
          </p>
        ) : (
          <ol className="space-y-3">
            {detail.history.map((entry) => (
              <HistoryEntry key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
      </Section>
    </Card>
  );
}

function DecisionButtons({
  reportId,
  pending,
  note,
  disabled,
  onDone,
}: {
  reportId: string;
  pending: boolean;
  note: string;
  disabled: boolean;
  onDone: () => void;
}) {
  const { t } = useLingui();
  const addNote = useAddNote(reportId);
  const decide = useDecideReport(reportId);
  const failed = useFailureToast();
  const busy = addNote.isPending || decide.isPending;
  const text = note.trim();

  const onNote = () =>
    addNote.mutate(text, {
      onSuccess: () => {
        toast({ title: t`Note added`, description: t`It is in the history for every moderator.` });
        onDone();
      },
      onError: failed,
    });
  const onDecide = (decision: 'resolve' | 'dismiss') =>
    decide.mutate(
      { decision, ...(text ? { adminNotes: text } : {}) },
      {
        onSuccess: () => {
          toast({
            title: decision === 'resolve' ? t`Report resolved` : t`Report dismissed`,
            description: t`The reporter has been notified.`,
          });
          onDone();
        },
        onError: failed,
      },
    );

  return (
    <div className="mt-3 flex flex-wrap gap-2">
      <Button variant="outline" onClick={onNote} disabled={busy || disabled || !text}>
        <StickyNote className="h-4 w-4" aria-hidden="true" />
        <Trans>Add note</Trans>
      </Button>
      {pending && (
        <>
          <Button onClick={() => onDecide('resolve')} disabled={busy || disabled}>
            <CheckCircle2 className="h-4 w-4" aria-hidden="true" />
            <Trans>Resolve</Trans>
          </Button>
          <Button variant="secondary" onClick={() => onDecide('dismiss')} disabled={busy || disabled}>
            <XCircle className="h-4 w-4" aria-hidden="true" />
            <Trans>Dismiss</Trans>
          </Button>
        </>
      )}
    </div>
  );
}
