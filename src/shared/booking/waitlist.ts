import { type CalendarAvailability, type DayRange, isBookableRange, overlaps } from './availability.ts';

// The waitlist: who is told when booked or unavailable dates free up. The one home of
// the rule; the server applies it under the item's lock (features/waitlist), this module only decides.

export const WAITLIST_STATUSES = ['waiting', 'notified'] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/**
 * The first student told about some dates has them to themselves this long: others waiting for days
 * that overlap are told only if the dates are still free afterwards (the job's round looks again).
 * Telling everyone at once would send them all racing for one booking.
 */
export const WAITLIST_HEAD_START_HOURS = 12;

/** The most dates one person may wait for on one item at a time. */
export const WAITLIST_ENTRIES_PER_ITEM = 5;

export interface WaitingEntry extends DayRange {
  id: string;
}

/**
 * Which waiting entries to tell now, in joining order (`waiting` must come oldest first): each whose
 * dates the calendar would let them book, unless an entry told earlier (in this pass, or within the
 * head start: `held`) wants a day of them.
 */
export function entriesToTell(
  waiting: readonly WaitingEntry[],
  calendar: CalendarAvailability,
  held: readonly DayRange[],
): string[] {
  const taken: DayRange[] = [...held];
  const told: string[] = [];
  for (const entry of waiting) {
    if (!isBookableRange(entry, calendar)) continue;
    if (taken.some((range) => overlaps(range, entry))) continue;
    told.push(entry.id);
    taken.push(entry);
  }
  return told;
}
