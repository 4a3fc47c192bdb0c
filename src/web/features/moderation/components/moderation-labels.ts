import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ReportStatus } from '#shared/constants.ts';
import type { ReportQueueFilter } from '#shared/schemas/moderation.ts';

// The moderators' screen in words (shown with `i18n._`).

export const QUEUE_TABS: { value: ReportQueueFilter; label: MessageDescriptor }[] = [
  { value: 'pending', label: msg({ message: 'Pending', context: 'reports tab' }) },
  { value: 'resolved', label: msg({ message: 'Resolved', context: 'reports tab' }) },
  { value: 'dismissed', label: msg({ message: 'Dismissed', context: 'reports tab' }) },
  { value: 'all', label: msg({ message: 'All', context: 'reports tab' }) },
];

/** Each tab's heading for screen readers ('Pending reports'). */
export const QUEUE_HEADINGS: Record<ReportQueueFilter, MessageDescriptor> = {
  pending: msg`Pending reports`,
  resolved: msg`Resolved reports`,
  dismissed: msg`Dismissed reports`,
  all: msg`All reports`,
};

export const STATUS_LABELS: Record<ReportStatus, MessageDescriptor> = {
  pending: msg({ message: 'Pending', context: 'report status' }),
  resolved: msg({ message: 'Resolved', context: 'report status' }),
  dismissed: msg({ message: 'Dismissed', context: 'report status' }),
};

/** Badge colours that pass WCAG AA on their background. */
export const STATUS_CLASSES: Record<ReportStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  resolved: 'bg-brand-100 text-brand-900',
  dismissed: 'bg-stone-200 text-stone-800',
};

export const EMPTY_QUEUE: Record<ReportQueueFilter, { title: MessageDescriptor; text: MessageDescriptor }> = {
  pending: {
    title: msg`No reports waiting`,
    text: msg`The queue is clear. New reports from students will appear here.`,
  },
  resolved: { title: msg`No resolved reports`, text: msg`Reports you resolve will be listed here.` },
  dismissed: { title: msg`No dismissed reports`, text: msg`Reports you dismiss will be listed here.` },
  all: { title: msg`No reports yet`, text: msg`Nobody has reported an item or a user so far.` },
};
