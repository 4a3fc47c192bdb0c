import { useTimeLabels } from '../../../lib/time-labels.ts';

/** Spec §2 Notifications: absolute time 'MMM d, yyyy • h:mm a' and a relative one. */
export function NotificationTime({ createdAt, compact = false }: { createdAt: string; compact?: boolean }) {
  const { formatTime, relativeTime } = useTimeLabels();
  const relative = relativeTime(createdAt);
  const absolute = formatTime(createdAt, 'dateTime');
  if (compact) {
    return (
      <time dateTime={createdAt} title={absolute} className="text-xs text-muted">
        {relative}
      </time>
    );
  }
  return (
    <p className="text-xs text-muted">
      <time dateTime={createdAt}>{absolute}</time>
      <span aria-hidden="true"> · </span>
      <span>{relative}</span>
    </p>
  );
}
