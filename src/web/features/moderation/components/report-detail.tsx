import { Trans, useLingui } from '@lingui/react/macro';
import {
  ArrowLeft,
  Ban,
  CheckCircle2,
  ExternalLink,
  Eye,
  EyeOff,
  StickyNote,
  UserCheck,
  XCircle,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { CATEGORY_LABELS, type Category, LIMITS, type ModerationAction } from '#shared/constants.ts';
import type {
  ModeratedItem,
  ModeratedUser,
  ModerationEntry,
  ReportDetail,
  ReportSummary,
} from '#shared/schemas/moderation.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useTimeLabels } from '../../../lib/time-labels.ts';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../paths.ts';
import { coverImage } from '../../items/api.ts';
import { REPORT_REASON_NAMES } from '../../reports/api.ts';
import { type TargetAction, useAddNote, useDecideReport, useReportDetail, useTargetAction } from '../api.ts';
import { ConfirmAction } from './confirm-action.tsx';
import { StatusBadge, TargetLabel } from './report-queue.tsx';

// One report as a moderator works on it: what was reported and by whom, the reported item or person,
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
  const { report, item, user } = detail;
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

      {item && <ItemCard item={item} reportId={report.id} note={note} onDone={() => setNote('')} />}
      {user && (
        <UserCard
          user={user}
          title={item ? t`Owner` : t`Reported user`}
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

/** 'Resolved by Morgan Reyes on Mar 5, 2026 • 3:04 PM', with as much as is known. */
function Decision({ resolved, by, at }: { resolved: boolean; by?: string; at?: string }) {
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

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h3 className="mb-2 text-sm font-bold uppercase tracking-wide text-stone-600">{title}</h3>
      {children}
    </section>
  );
}

function useFailureToast() {
  const { t } = useLingui();
  return (error: unknown) =>
    toast({
      variant: 'destructive',
      title: t`Action failed`,
      description: errorMessage(error, t`Please try again.`),
    });
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

/** Runs a hide/unhide/suspend/unsuspend with the note, toasting the outcome. */
function useTarget(reportId: string, note: string, onDone: () => void) {
  const action = useTargetAction();
  const failed = useFailureToast();
  const run = (kind: TargetAction, targetId: string, success: { title: string; description: string }) => {
    const text = note.trim();
    return action
      .mutateAsync({ action: kind, targetId, reportId, ...(text ? { note: text } : {}) })
      .then(() => {
        toast(success);
        onDone();
      })
      .catch(failed);
  };
  return { run, busy: action.isPending };
}

function ItemCard({
  item,
  reportId,
  note,
  onDone,
}: {
  item: ModeratedItem;
  reportId: string;
  note: string;
  onDone: () => void;
}) {
  const { t } = useLingui();
  const { formatTime, relativeTime } = useTimeLabels();
  const { run, busy } = useTarget(reportId, note, onDone);
  const cover = coverImage(item.images);
  const category = CATEGORY_LABELS[item.category as Category] ?? item.category;
  const listed = relativeTime(item.createdAt);
  const hiddenSince = item.hiddenAt ? formatTime(item.hiddenAt, 'date') : '';
  const title = item.title;
  const owner = item.owner.fullName;
  return (
    <Section title={t`Reported item`}>
      <div className="rounded-xl border border-line p-4">
        <div className="flex gap-4">
          {cover ? (
            <img src={cover} alt="" className="h-20 w-20 shrink-0 rounded-lg object-cover" />
          ) : (
            <span className="h-20 w-20 shrink-0 rounded-lg bg-stone-100" aria-hidden="true" />
          )}
          <div className="min-w-0">
            {item.deletedAt ? (
              <p className="break-words font-semibold text-ink">{item.title}</p>
            ) : (
              <Link
                to={paths.item(item.id)}
                className="inline-flex items-center gap-1 break-words font-semibold text-brand-700 hover:underline"
              >
                {item.title}
                <ExternalLink className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
              </Link>
            )}
            <p className="text-sm text-muted">
              <Trans>
                {category} · listed {listed} by{' '}
                <Link
                  to={paths.profile(item.owner.id)}
                  className="font-semibold text-brand-700 hover:underline"
                >
                  {owner}
                </Link>
              </Trans>
            </p>
            <p className="mt-1 line-clamp-3 break-words text-sm text-stone-700">{item.description}</p>
          </div>
        </div>
        {item.deletedAt ? (
          <p className="mt-3 text-sm font-semibold text-stone-700">
            <Trans>Deleted by its owner.</Trans>
          </p>
        ) : (
          <div className="mt-3 flex flex-wrap items-center gap-2">
            {item.hiddenAt ? (
              <>
                <span className="text-sm font-semibold text-red-900">
                  <Trans>Hidden since {hiddenSince}</Trans>
                </span>
                <Button
                  variant="outline"
                  disabled={busy}
                  onClick={() =>
                    void run('unhide', item.id, {
                      title: t`Item visible again`,
                      description: t`It is back in browse and search. The owner has been notified.`,
                    })
                  }
                >
                  <Eye className="h-4 w-4" aria-hidden="true" />
                  <Trans>Unhide</Trans>
                </Button>
              </>
            ) : (
              <ConfirmAction
                trigger={
                  <>
                    <EyeOff className="h-4 w-4" aria-hidden="true" />
                    <Trans>Hide item</Trans>
                  </>
                }
                title={t`Hide “${title}”?`}
                description={t`It disappears from browse, search and its page for everyone but its owner and the moderators, and cannot be reserved. The owner is notified. You can unhide it later.`}
                confirmLabel={t`Hide item`}
                busy={busy}
                onConfirm={() =>
                  run('hide', item.id, {
                    title: t`Item hidden`,
                    description: t`It no longer appears in browse or search. The owner has been notified.`,
                  })
                }
              />
            )}
          </div>
        )}
      </div>
    </Section>
  );
}

function UserCard({
  user,
  title,
  reportId,
  note,
  onDone,
}: {
  user: ModeratedUser;
  title: string;
  reportId: string;
  note: string;
  onDone: () => void;
}) {
  const { t } = useLingui();
  const { formatTime } = useTimeLabels();
  const { run, busy } = useTarget(reportId, note, onDone);
  const name = user.fullName;
  const joined = formatTime(user.createdAt, 'month');
  const suspendedSince = user.suspendedAt ? formatTime(user.suspendedAt, 'date') : '';
  return (
    <Section title={title}>
      <div className="rounded-xl border border-line p-4">
        <div className="flex gap-3">
          <Avatar name={user.fullName} src={user.profileImage} />
          <div className="min-w-0 text-sm">
            <Link
              to={paths.profile(user.id)}
              className="break-words text-base font-semibold text-brand-700 hover:underline"
            >
              {user.fullName}
            </Link>
            <p className="text-muted">
              @{user.username} · {user.campusName}
            </p>
            <p className="break-all text-stone-700">{user.email}</p>
            <p className="text-muted">
              {user.isVerified ? (
                <Trans>Joined {joined} · verified</Trans>
              ) : (
                <Trans>Joined {joined} · not verified</Trans>
              )}
            </p>
          </div>
        </div>
        <div className="mt-3 flex flex-wrap items-center gap-2">
          {user.suspendedAt ? (
            <>
              <span className="text-sm font-semibold text-red-900">
                <Trans>Suspended since {suspendedSince}</Trans>
              </span>
              <Button
                variant="outline"
                disabled={busy}
                onClick={() =>
                  void run('unsuspend', user.id, {
                    title: t`Suspension lifted`,
                    description: t`${name} can sign in again.`,
                  })
                }
              >
                <UserCheck className="h-4 w-4" aria-hidden="true" />
                <Trans>Unsuspend</Trans>
              </Button>
            </>
          ) : (
            <ConfirmAction
              trigger={
                <>
                  <Ban className="h-4 w-4" aria-hidden="true" />
                  <Trans>Suspend user</Trans>
                </>
              }
              title={t`Suspend ${name}?`}
              description={t`They are signed out everywhere at once and cannot sign in again; their listings leave browse. You can lift the suspension later.`}
              confirmLabel={t`Suspend user`}
              busy={busy}
              onConfirm={() =>
                run('suspend', user.id, {
                  title: t`User suspended`,
                  description: t`${name} has been signed out everywhere.`,
                })
              }
            />
          )}
        </div>
      </div>
    </Section>
  );
}

function OtherReport({ report }: { report: ReportSummary }) {
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

function HistoryEntry({ entry }: { entry: ModerationEntry }) {
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
    case 'unhide_item':
      return <Trans>{who} made the item visible again</Trans>;
    case 'suspend_user':
      return <Trans>{who} suspended the user</Trans>;
    case 'unsuspend_user':
      return <Trans>{who} lifted the suspension</Trans>;
  }
}
