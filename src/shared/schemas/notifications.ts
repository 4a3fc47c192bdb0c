import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { NOTIFICATION_TYPES } from '../constants.ts';

export const notification = z.object({
  id: z.uuid(),
  type: z.enum(NOTIFICATION_TYPES),
  title: z.string(),
  message: z.string(),
  relatedReservationId: z.uuid().nullable(),
  relatedItemId: z.uuid().nullable(),
  isRead: z.boolean(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notification>;

export const notificationList = z.object({ notifications: z.array(notification) });
export const notificationIdParams = z.object({ id: z.uuid({ error: () => t`Notification not found` }) });
export const markAllReadResponse = z.object({ success: z.literal(true), count: z.number().int() });
