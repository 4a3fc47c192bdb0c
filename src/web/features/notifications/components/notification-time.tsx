import { format, formatDistanceToNow } from 'date-fns';

/** Spec §2 Notifications: absolute time 'MMM d, yyyy • h:mm a' and a relative one. */
export function NotificationTime({ createdAt, compact = false }: { createdAt: string; compact?: boolean }) {
  const date = new Date(createdAt);
  const relative = formatDistanceToNow(date, { addSuffix: true });
  if (compact) {
    return (
      <time dateTime={createdAt} title={format(date, 'MMM d, yyyy • h:mm a')} className="text-xs text-muted">
        {relative}
      </time>
    );
  }
  return (
    <p className="text-xs text-muted">
      <time dateTime={createdAt}>{format(date, 'MMM d, yyyy • h:mm a')}</time>
      <span aria-hidden="true"> · </span>
      <span>{relative}</span>
    </p>
  );
}
