import { msg } from '@lingui/core/macro';
import type { OwnCases } from '#shared/schemas/moderation.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import * as queries from './queries.ts';

// No one is judge in their own case: a moderator who is a party to a claim, a report or a payment problem
// (borrower, lender, reporter, reported person, owner of the reported item) neither sees it in the queues
// nor decides it; the other moderators do. Every queue says how many it left out, and whether anyone else
// can decide them.

export const ownCase = () =>
  new AppError(
    403,
    'OWN_CASE',
    msg`You are a party to this case, so you cannot decide it: another moderator must.`,
  );

/** Refuses (403) a moderator who is one of the case's parties. */
export function refuseOwnCase(moderatorId: string, parties: readonly (string | null | undefined)[]): void {
  if (parties.includes(moderatorId)) throw ownCase();
}

/** What a queue tells the moderator of the cases it left out for being theirs. */
export async function ownCasesOf(
  db: Db,
  adminEmails: readonly string[],
  moderatorId: string,
  withheld: number,
): Promise<OwnCases> {
  const others = await queries.countOtherModerators(db, adminEmails, moderatorId);
  return { withheld, otherModerator: others > 0 };
}
