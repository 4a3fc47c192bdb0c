import { Trans, useLingui } from '@lingui/react/macro';
import { BellRing, Check, CheckCheck, Inbox, X } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { type ReactNode, useId, useState } from 'react';
import { Link } from 'react-router';
import type { Notification } from '#shared/schemas/notifications.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { inputClasses } from '../components/ui/input.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useMarkAllRead, useMarkRead, useNotifications } from '../features/notifications/api.ts';
import { NotificationTime } from '../features/notifications/components/notification-time.tsx';
import { notificationLink } from '../features/notifications/notification-link.ts';
import { usePayoutsNeeded } from '../features/payouts/api.ts';
import { ReservationStatusBadge } from '../features/reservations/components/reservation-card.tsx';
import {
  requestState,
  useRequestDecision,
} from '../features/reservations/components/use-request-decision.ts';
import { useReservations } from '../features/reservations/queries.ts';
import { cn } from '../lib/cn.ts';
import { toast } from '../lib/toast.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

export default function NotificationsRoute() {
  return (
    <AuthGuard>
      <NotificationsPage />
    </AuthGuard>
  );
}

// A tab's words may wrap on a phone ('Solicitudes (0)' is wider than a third of 375 px), centred.
const tabClasses =
  'min-h-11 min-w-0 rounded-lg px-1.5 py-1.5 text-center text-sm leading-tight font-semibold text-stone-700 break-words sm:px-3 sm:whitespace-nowrap data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow-sm';

type Tab = 'pending' | 'all' | 'unread';

/** The page opens on the first tab with something in it (the spec's Pending when none has). */
function firstTabWithSomething(pending: number, unread: number, all: number): Tab {
  if (pending > 0) return 'pending';
  if (unread > 0) return 'unread';
  if (all > 0) return 'all';
  return 'pending';
}

/**
 * A tab's long word: on phones it is left to screen readers ('Pending (2)' shows, 'Pending Requests (2)'
 * is read) so the three tabs fit a 375 px screen.
 */
const wideOnly = 'sr-only sm:not-sr-only';

function NotificationsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Notifications`);
  const { data, isPending, isError, refetch, isFetching } = useNotifications();
  const notifications = data ?? [];
  const markAllRead = useMarkAllRead();
  const pending = notifications.filter((n) => n.type === 'reservation_request');
  const unread = notifications.filter((n) => !n.isRead);
  const pendingCount = pending.length;
  const allCount = notifications.length;
  const unreadCount = unread.length;
  // Until the list arrives the tabs show no count: "(0)" would be untrue, and the page would jump when
  // the real figures and the mark-all button appear.
  const counted = data !== undefined;
  // Chosen once, when the list first arrives; from then on the student's own choice.
  const [tab, setTab] = useState<Tab | null>(null);
  if (tab === null && data !== undefined) {
    setTab(firstTabWithSomething(pending.length, unread.length, notifications.length));
  }
  // Which requests still wait for an answer (spec §2: the buttons go once it is decided).
  const { data: reservations } = useReservations(
    notifications.some((n) => n.type === 'reservation_request' && n.relatedReservationId),
  );

  const onMarkAll = () =>
    markAllRead.mutate(undefined, {
      onSuccess: () =>
        toast({
          title: t`All notifications marked as read`,
          description: t`Your notifications have been cleared.`,
        }),
    });

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-ink">
            <Trans>Notifications</Trans>
          </h1>
          <p className="mt-1 text-muted">
            <Trans>Manage your reservation requests and updates</Trans>
          </p>
        </div>
        {unread.length > 0 && (
          <Button variant="outline" onClick={onMarkAll} disabled={markAllRead.isPending}>
            <CheckCheck className="h-4 w-4" aria-hidden="true" />
            <Trans>Mark all as read ({unreadCount})</Trans>
          </Button>
        )}
      </div>

      {isError && data === undefined ? (
        // Spec: 'Failed to fetch notifications', never an empty list that looks like "nothing new".
        <Card role="alert" className="mt-6 p-6 text-center">
          <p className="font-semibold text-ink">
            <Trans>Failed to fetch notifications</Trans>
          </p>
          <p className="mt-1 text-sm text-muted">
            <Trans>Check your connection and try again.</Trans>
          </p>
          <Button variant="outline" className="mt-4" onClick={() => void refetch()} disabled={isFetching}>
            <Trans>Try again</Trans>
          </Button>
        </Card>
      ) : (
        <Tabs.Root value={tab ?? 'pending'} onValueChange={(value) => setTab(value as Tab)} className="mt-6">
          <Tabs.List
            aria-label={t`Notification lists`}
            className="grid w-full grid-cols-3 gap-1 rounded-xl bg-stone-100 p-1 sm:inline-flex sm:w-auto"
          >
            <Tabs.Trigger value="pending" className={tabClasses}>
              {counted ? (
                <Trans>
                  Pending<span className={wideOnly}> Requests</span> ({pendingCount})
                </Trans>
              ) : (
                <Trans>
                  Pending<span className={wideOnly}> Requests</span>
                </Trans>
              )}
            </Tabs.Trigger>
            <Tabs.Trigger value="all" className={tabClasses}>
              {counted ? (
                <Trans>
                  All<span className={wideOnly}> Notifications</span> ({allCount})
                </Trans>
              ) : (
                <Trans>
                  All<span className={wideOnly}> Notifications</span>
                </Trans>
              )}
            </Tabs.Trigger>
            <Tabs.Trigger value="unread" className={tabClasses}>
              {counted ? <Trans>Unread ({unreadCount})</Trans> : <Trans>Unread</Trans>}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="pending" className="mt-4">
            <NotificationList
              loading={isPending}
              reservations={reservations}
              notifications={pending}
              empty={
                <Empty icon={<Inbox />} title={t`No pending requests`}>
                  <Trans>You don't have any pending reservation requests to review.</Trans>
                </Empty>
              }
            />
          </Tabs.Content>
          <Tabs.Content value="all" className="mt-4">
            <NotificationList
              loading={isPending}
              reservations={reservations}
              notifications={notifications}
              empty={
                <Empty icon={<BellRing />} title={t`No notifications yet`}>
                  <Trans>
                    You'll see notifications here when users request your items or when your requests are
                    responded to.
                  </Trans>
                </Empty>
              }
            />
          </Tabs.Content>
          <Tabs.Content value="unread" className="mt-4">
            <NotificationList
              loading={isPending}
              reservations={reservations}
              notifications={unread}
              empty={
                <Empty icon={<CheckCheck />} title={t`All caught up!`}>
                  <Trans>You have no unread notifications.</Trans>
                </Empty>
              }
            />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </div>
  );
}

function NotificationList({
  loading,
  notifications,
  reservations,
  empty,
}: {
  loading: boolean;
  notifications: Notification[];
  reservations: Reservation[] | undefined;
  empty: ReactNode;
}) {
  if (loading) {
    return (
      <div className="space-y-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-28 w-full rounded-2xl" />
        ))}
      </div>
    );
  }
  if (notifications.length === 0) return empty;
  return (
    <ul className="space-y-3">
      {notifications.map((n) => (
        <li key={n.id}>
          <NotificationCard notification={n} reservations={reservations} />
        </li>
      ))}
    </ul>
  );
}

function NotificationCard({
  notification: n,
  reservations,
}: {
  notification: Notification;
  reservations: Reservation[] | undefined;
}) {
  const { i18n } = useLingui();
  const markRead = useMarkRead();
  const request = requestState(n, reservations);
  const payoutsNeeded = usePayoutsNeeded(Boolean(request?.pending && request.paid));
  const link = notificationLink(n, { payoutsNeeded });
  return (
    // The title and message take the card's whole width; the actions share a row below them that wraps
    // (on a phone, in Spanish, 'Marcar como leída' beside the text left the title three words a line).
    <Card className={cn('p-4 sm:p-5', !n.isRead && 'border-brand-200 bg-brand-50/60')}>
      <h2 className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold leading-snug text-ink break-words">
        <span className="min-w-0">{n.title}</span>
        {!n.isRead && (
          <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">
            <Trans>New</Trans>
          </span>
        )}
      </h2>
      <p className="mt-1 text-stone-700 break-words">{n.message}</p>
      <div className="mt-2">
        <NotificationTime createdAt={n.createdAt} />
      </div>
      {(link || !n.isRead) && (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          {link && (
            <Button asChild variant="outline">
              <Link
                to={link.to}
                onClick={() => {
                  if (!n.isRead) markRead.mutate(n.id);
                }}
              >
                {i18n._(link.label)}
              </Link>
            </Button>
          )}
          {!n.isRead && (
            <Button variant="ghost" onClick={() => markRead.mutate(n.id)} disabled={markRead.isPending}>
              <Trans>Mark as read</Trans>
            </Button>
          )}
        </div>
      )}
      {request &&
        (request.pending ? (
          <RequestDecision reservationId={request.reservationId} />
        ) : (
          request.status && (
            <p className="mt-3 flex items-center gap-2 text-sm text-stone-700">
              <Trans>
                Request status: <ReservationStatusBadge status={request.status} />
              </Trans>
            </p>
          )
        ))}
    </Card>
  );
}

/** Spec §2: 'Approve Request', 'Decline' and an optional reason the borrower sees. */
function RequestDecision({ reservationId }: { reservationId: string }) {
  const { t } = useLingui();
  const { busy, approve, decline } = useRequestDecision();
  const [reason, setReason] = useState('');
  const id = useId();
  return (
    <div className="mt-4 space-y-3 border-t border-line pt-4">
      <div className="space-y-1.5">
        <label htmlFor={id} className="block text-sm font-semibold text-ink">
          <Trans>
            Decline reason <span className="font-normal text-muted">(optional)</span>
          </Trans>
        </label>
        <textarea
          id={id}
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          placeholder={t`Optional: Add a reason for declining (visible to borrower)`}
          className={cn(inputClasses.replace('h-11 ', ''), 'min-h-20 py-2 leading-relaxed')}
        />
      </div>
      <div className="flex flex-wrap gap-2 [&>*]:flex-1 sm:[&>*]:flex-none">
        <Button onClick={() => approve(reservationId)} disabled={busy}>
          <Check className="h-4 w-4" aria-hidden="true" />
          <Trans>Approve Request</Trans>
        </Button>
        <Button
          variant="outline"
          className="border-red-300 text-danger hover:bg-red-50"
          onClick={() => decline(reservationId, reason, () => setReason(''))}
          disabled={busy}
        >
          <X className="h-4 w-4" aria-hidden="true" />
          <Trans>Decline</Trans>
        </Button>
      </div>
    </div>
  );
}

function Empty({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card className="flex flex-col items-center px-6 py-12 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700 [&_svg]:h-6 [&_svg]:w-6">
        {icon}
      </span>
      <h2 className="mt-3 text-lg font-semibold text-ink">{title}</h2>
      <p className="mt-1 max-w-sm text-muted">{children}</p>
    </Card>
  );
}
