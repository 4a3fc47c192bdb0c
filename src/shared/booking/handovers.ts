import { i18n, type MessageDescriptor } from '@lingui/core';
import { LIMITS } from '../constants.ts';

// Decision 033: the condition of the item at handover. Either person of a reservation
// adds photos and a note at pickup and at return; when each stage is open lives here, for the server's
// check and the card's form alike. Pure, so the boundaries are tested without a database.

export const HANDOVER_STAGES = ['pickup', 'return'] as const;
export type HandoverStage = (typeof HANDOVER_STAGES)[number];

/** Photos one person keeps for one stage, all additions together (the listing's limit). */
export const HANDOVER_MAX_PHOTOS = LIMITS.photosPerItem;
export const HANDOVER_NOTE_MAX = 500;
/**
 * After "Picked Up" / "Item Collected", pickup photos may still be added this long: the meetup is
 * often hurried, and a photo taken there is uploaded on the way home. Later ones would be of the item
 * after days of use, which is what the return is for.
 */
export const PICKUP_GRACE_HOURS = 24;

/** Around the return: the meetup (active), the lender's 48 hours (returned) and an open claim. */
const RETURN_STATUSES: readonly string[] = ['active', 'returned', 'claimed'];

/** Until when pickup photos may be added once the item changed hands (null before, or unknown). */
export function pickupOpenUntil(pickedUpAt: Date | null): Date | null {
  return pickedUpAt ? new Date(pickedUpAt.getTime() + PICKUP_GRACE_HOURS * 3600_000) : null;
}

/**
 * Why this stage takes no additions now (null when it does): a descriptor, written in its reader's
 * language (no macros in this module: the database schema imports it, text.ts).
 */
export function handoverIssue(
  stage: HandoverStage,
  r: { status: string; pickedUpAt: Date | null },
  now: Date,
): MessageDescriptor | null {
  if (r.status === 'disputed') {
    return /*i18n*/ {
      id: 'handovers.disputed',
      message: 'The claim is with a moderator now: the handover photos can no longer change.',
    };
  }
  if (stage === 'pickup') {
    if (r.status === 'approved') return null;
    if (r.status === 'active') {
      const until = pickupOpenUntil(r.pickedUpAt);
      if (until && now.getTime() < until.getTime()) return null;
      return /*i18n*/ {
        id: 'handovers.pickup-closed',
        message:
          'Pickup photos can be added until {hours} hours after the pickup. Add them to the return instead.',
        values: { hours: PICKUP_GRACE_HOURS },
      };
    }
    return /*i18n*/ {
      id: 'handovers.pickup-not-yet',
      message:
        'Pickup photos can be added once the reservation is approved, until {hours} hours after the pickup.',
      values: { hours: PICKUP_GRACE_HOURS },
    };
  }
  if (RETURN_STATUSES.includes(r.status)) return null;
  return /*i18n*/ {
    id: 'handovers.return-not-yet',
    message: 'Return photos can be added once the item is picked up, until the deposit is settled.',
  };
}

/** The same in the active language (the page's). */
export function handoverProblem(
  stage: HandoverStage,
  r: { status: string; pickedUpAt: Date | null },
  now: Date,
): string | null {
  const issue = handoverIssue(stage, r, now);
  return issue && i18n._(issue);
}

/** The stages this reservation takes additions for now, in order. */
export function openStages(r: { status: string; pickedUpAt: Date | null }, now: Date): HandoverStage[] {
  return HANDOVER_STAGES.filter((stage) => handoverIssue(stage, r, now) === null);
}
