import type { NotificationType } from './constants.ts';
import type { EmailKind } from './schemas/account.ts';

// Issue 18 item 2: which settings kind a notification belongs to, so the person's e-mail and push
// choices for that kind decide how it reaches them. Types not named here (new ones too) are 'updates'.
const KIND_OF: Partial<Record<NotificationType, EmailKind>> = {
  reservation_request: 'requests',
  reservation_approved: 'approvals',
  reservation_declined: 'approvals',
  reservation_cancelled: 'approvals',
  reservation_expired: 'approvals',
  pickup_reminder: 'reminders',
  return_reminder: 'reminders',
  request_expiring: 'reminders',
};

export function kindOfNotification(type: NotificationType | string): EmailKind {
  return KIND_OF[type as NotificationType] ?? 'updates';
}
