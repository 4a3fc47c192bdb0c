import type { ModerationAction, ReportStatus } from '#shared/constants.ts';
import type { ReportQueueFilter } from '#shared/schemas/moderation.ts';

// The moderators' screen in words.

export const QUEUE_TABS: { value: ReportQueueFilter; label: string }[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'dismissed', label: 'Dismissed' },
  { value: 'all', label: 'All' },
];

export const STATUS_LABELS: Record<ReportStatus, string> = {
  pending: 'Pending',
  resolved: 'Resolved',
  dismissed: 'Dismissed',
};

/** Badge colours that pass WCAG AA on their background. */
export const STATUS_CLASSES: Record<ReportStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  resolved: 'bg-brand-100 text-brand-900',
  dismissed: 'bg-stone-200 text-stone-800',
};

export const ACTION_LABELS: Record<ModerationAction, string> = {
  note: 'Added a note',
  resolve: 'Resolved the report',
  dismiss: 'Dismissed the report',
  hide_item: 'Hid the item',
  unhide_item: 'Made the item visible again',
  suspend_user: 'Suspended the user',
  unsuspend_user: 'Lifted the suspension',
};

export const EMPTY_QUEUE: Record<ReportQueueFilter, { title: string; text: string }> = {
  pending: {
    title: 'No reports waiting',
    text: 'The queue is clear. New reports from students will appear here.',
  },
  resolved: { title: 'No resolved reports', text: 'Reports you resolve will be listed here.' },
  dismissed: { title: 'No dismissed reports', text: 'Reports you dismiss will be listed here.' },
  all: { title: 'No reports yet', text: 'Nobody has reported an item or a user so far.' },
};
