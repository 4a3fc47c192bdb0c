import { Trans, useLingui } from '@lingui/react/macro';
import { Ban, ExternalLink, Eye, UserCheck } from 'lucide-react';
import { Link } from 'react-router';
import { CATEGORY_LABELS, type Category } from '#shared/constants.ts';
import type { ModeratedItem, ModeratedUser } from '#shared/schemas/moderation.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useTimeLabels } from '../../../lib/time-labels.ts';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../paths.ts';
import { coverImage } from '../../items/api.ts';
import { type TargetAction, useTargetAction } from '../api.ts';
import { ConfirmAction, ConfirmHide } from './confirm-action.tsx';
import { Section, useFailureToast } from './report-section.tsx';

// What a report is about, as a moderator acts on it: the reported item (hide, unhide) and the person
// (suspend, unsuspend), each action with the moderator's note. The reported ask: reported-ask.tsx.

/** Runs a hide/unhide/suspend/unsuspend with the note, toasting the outcome. */
export function useTarget(reportId: string, note: string, onDone: () => void) {
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

export function ReportedItemCard({
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
              <ConfirmHide
                label={t`Hide item`}
                title={t`Hide “${title}”?`}
                description={t`It disappears from browse, search and its page for everyone but its owner and the moderators, and cannot be reserved. The owner is notified. You can unhide it later.`}
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

export function ReportedUserCard({
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
