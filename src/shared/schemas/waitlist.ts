import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { WAITLIST_STATUSES } from '../booking/waitlist.ts';
import { calendarDayOf } from './fields.ts';

// The waitlist: "Notify me when available" for chosen dates of an item.

export const waitlistInput = z.object({
  startDate: calendarDayOf(() => t`Please choose a start date`),
  endDate: calendarDayOf(() => t`Please choose an end date`),
});
export type WaitlistInput = z.input<typeof waitlistInput>;

export const waitlistEntry = z.object({
  id: z.uuid(),
  itemId: z.uuid(),
  startDate: z.string(),
  endDate: z.string(),
  /** waiting: not told yet; notified: told once that the dates freed up (the entry is then closed). */
  status: z.enum(WAITLIST_STATUSES),
  notifiedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntry>;

export const waitlistEntryResponse = z.object({ entry: waitlistEntry });
export const waitlistList = z.object({ entries: z.array(waitlistEntry) });
export const waitlistEntryIdParams = z.object({ id: z.uuid({ error: () => t`Waitlist entry not found` }) });
