import { Trans, useLingui } from '@lingui/react/macro';
import { Bell } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Link } from 'react-router';
import { LIMITS } from '#shared/constants.ts';
import type { Notification } from '#shared/schemas/notifications.ts';
import {
  HeaderDropdownTrigger,
  headerDropdownContentClasses,
} from '../../../components/layout/header-dropdown-trigger.tsx';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../paths.ts';
import { usePayoutsNeeded } from '../../payouts/api.ts';
import { requestState, useRequestDecision, useReservations } from '../../reservations/api.ts';
import { useMarkAllRead, useMarkRead, useNotifications, useUnreadNotifications } from '../api.ts';
import { notificationLink } from '../notification-link.ts';
import { NotificationTime } from './notification-time.tsx';

/**
 * Spec §2 Header: the first five notifications, read marks, Approve and Decline on a reservation
 * request, and the unread badge ('9+' above nine).
 */
export function NotificationsDropdown() {
  const { t } = useLingui();
  const { data: all = [] } = useNotifications();
  const { data: unread = [] } = useUnreadNotifications();
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();
  const shown = all.slice(0, LIMITS.dropdownEntries);
  const unreadCount = unread.length;

  return (
    <DropdownMenu.Root modal={false}>
      <HeaderDropdownTrigger icon={Bell} label={t`Notifications`} unread={unreadCount} />
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={8} className={headerDropdownContentClasses}>
          {/* 'Marcar todo como leído' beside the title: it wraps under it rather than squeezing it. */}
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-3 py-2">
            <DropdownMenu.Label className="font-bold text-ink">
              <Trans>Notifications</Trans>
            </DropdownMenu.Label>
            {unreadCount > 0 && (
              <DropdownMenu.Item
                onSelect={(event) => {
                  event.preventDefault();
                  markAllRead.mutate();
                }}
                className="cursor-pointer rounded-md px-2 py-1 text-sm font-semibold text-brand-700 outline-none data-[highlighted]:bg-brand-50"
              >
                <Trans>Mark all read</Trans>
              </DropdownMenu.Item>
            )}
          </div>
          <DropdownMenu.Separator className="h-px bg-line" />
          {shown.length === 0 ? (
            <p className="px-3 py-6 text-center text-sm text-muted">
              <Trans>No notifications yet</Trans>
            </p>
          ) : (
            <NotificationEntries notifications={shown} markRead={(id) => markRead.mutate(id)} />
          )}
          {all.length > LIMITS.dropdownEntries && (
            <>
              <DropdownMenu.Separator className="h-px bg-line" />
              <DropdownMenu.Item asChild>
                <Link
                  to={paths.notifications}
                  className="block rounded-lg px-3 py-2 text-center text-sm font-semibold text-brand-700 outline-none data-[highlighted]:bg-brand-50"
                >
                  <Trans>View all notifications</Trans>
                </Link>
              </DropdownMenu.Item>
            </>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function NotificationEntries({
  notifications,
  markRead,
}: {
  notifications: Notification[];
  markRead: (id: string) => void;
}) {
  const { i18n } = useLingui();
  // The reservations list says which requests are still pending; fetched only when one is shown.
  const { data: reservations } = useReservations(
    notifications.some((n) => n.type === 'reservation_request' && n.relatedReservationId),
  );
  const paidRequestWaits = notifications.some((n) => {
    const request = requestState(n, reservations);
    return Boolean(request?.pending && request.paid);
  });
  const payoutsNeeded = usePayoutsNeeded(paidRequestWaits);
  return notifications.map((n) => {
    const request = requestState(n, reservations);
    const link = notificationLink(n, {
      payoutsNeeded: payoutsNeeded && Boolean(request?.pending && request.paid),
    });
    return (
      <div key={n.id} className={cn('rounded-lg px-3 py-2.5', !n.isRead && 'bg-brand-50')}>
        <p className="text-sm font-semibold leading-snug text-ink break-words">{n.title}</p>
        <p className="mt-0.5 line-clamp-2 text-sm text-stone-700 break-words">{n.message}</p>
        <div className="mt-1 flex flex-wrap items-center justify-between gap-x-2">
          <NotificationTime createdAt={n.createdAt} compact />
          {!n.isRead && (
            <DropdownMenu.Item
              onSelect={(event) => {
                event.preventDefault();
                markRead(n.id);
              }}
              className="cursor-pointer rounded-md px-2 py-1 text-xs font-semibold text-brand-800 outline-none data-[highlighted]:bg-brand-100"
            >
              <Trans>Mark as read</Trans>
            </DropdownMenu.Item>
          )}
        </div>
        {request?.pending && <RequestButtons reservationId={request.reservationId} />}
        {link && (
          <DropdownMenu.Item asChild>
            <Link
              to={link.to}
              onClick={() => {
                if (!n.isRead) markRead(n.id);
              }}
              className="mt-2 flex min-h-11 items-center justify-center rounded-lg border border-brand-200 bg-white px-3 py-1.5 text-center text-sm font-semibold text-brand-800 outline-none data-[highlighted]:bg-brand-100"
            >
              {i18n._(link.label)}
            </Link>
          </DropdownMenu.Item>
        )}
      </div>
    );
  });
}

/** Spec §2 Header: Approve and Decline on a reservation request (the menu stays open). */
function RequestButtons({ reservationId }: { reservationId: string }) {
  const { busy, approve, decline } = useRequestDecision();
  const itemClasses =
    'flex min-h-11 min-w-0 flex-1 cursor-pointer items-center justify-center rounded-lg px-3 py-1.5 text-center text-sm font-semibold outline-none data-[disabled]:cursor-default data-[disabled]:opacity-60';
  return (
    <div className="mt-2 flex gap-2">
      <DropdownMenu.Item
        disabled={busy}
        onSelect={(event) => {
          event.preventDefault();
          approve(reservationId);
        }}
        className={cn(itemClasses, 'bg-brand-700 text-white data-[highlighted]:bg-brand-800')}
      >
        <Trans>Approve</Trans>
      </DropdownMenu.Item>
      <DropdownMenu.Item
        disabled={busy}
        onSelect={(event) => {
          event.preventDefault();
          decline(reservationId);
        }}
        className={cn(itemClasses, 'border border-red-300 bg-white text-danger data-[highlighted]:bg-red-50')}
      >
        <Trans>Decline</Trans>
      </DropdownMenu.Item>
    </div>
  );
}
