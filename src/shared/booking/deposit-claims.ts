import { campusMidnight, campusToday } from '../calendar.ts';
import { addDays } from './availability.ts';

// The times of a deposit claim, in one place for the server's checks, the job
// and the reservation card. Pure, so the boundaries are tested without a database.

/** After the borrower's "Item Returned", the lender has this long to confirm or report a problem. */
export const CLAIM_WINDOW_HOURS = 48;
/** A borrow overdue this long lets its lender claim from the deposit (the item may never come back). */
export const OVERDUE_CLAIM_AFTER_HOURS = 24;

const HOUR = 3600_000;

/** Until when the lender may answer a return; unanswered, the deposit is released then. */
export function confirmBy(returnedAt: Date): Date {
  return new Date(returnedAt.getTime() + CLAIM_WINDOW_HOURS * HOUR);
}

/** When an active borrow becomes overdue: the campus midnight that ends its last day. */
export function overdueSince(endDate: string, timeZone: string): Date {
  return campusMidnight(addDays(endDate, 1), timeZone);
}

/** Derived, not a status: still out with the borrower after its end date (campus calendar). */
export function isOverdue(
  r: { status: string; endDate: string },
  timeZone: string,
  now: Date = new Date(),
): boolean {
  return r.status === 'active' && r.endDate < campusToday(timeZone, now).date;
}

/** From when the lender of an overdue borrow may claim from the deposit. */
export function overdueClaimFrom(endDate: string, timeZone: string): Date {
  return new Date(overdueSince(endDate, timeZone).getTime() + OVERDUE_CLAIM_AFTER_HOURS * HOUR);
}

/**
 * Why the lender may not report a problem now (null when they may): the status is the rules table's to
 * check; this is the time. A returned item within its window; an active one 24 h after it became overdue.
 */
export function claimTimeProblem(
  r: { status: string; endDate: string; returnedAt: Date | null },
  timeZone: string,
  now: Date,
): string | null {
  if (r.status === 'returned') {
    if (r.returnedAt && now.getTime() >= confirmBy(r.returnedAt).getTime()) {
      return `The ${CLAIM_WINDOW_HOURS}-hour window to report a problem has closed; the deposit was released.`;
    }
    return null;
  }
  if (r.status === 'active') {
    if (now.getTime() < overdueClaimFrom(r.endDate, timeZone).getTime()) {
      return `A problem can be reported once the item is returned, or ${OVERDUE_CLAIM_AFTER_HOURS} hours after it is overdue.`;
    }
    return null;
  }
  return null;
}
