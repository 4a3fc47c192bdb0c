import type { Db } from '../../db/client.ts';
import { expireOpenEmailChanges } from '../account/queries.ts';
import { expireOpenLinks as expireOpenVerificationLinks } from '../email-verification/queries.ts';
import { expireOpenLinks as expireOpenResetLinks } from '../password-reset/queries.ts';

// Which token dies when (decision 036). A link or a session is only as good as the credential it was
// issued under: a link asked for with the old password, or mailed to the old address, must not outlive
// it. Each rule runs inside the transaction of the event that causes it (pass that transaction), so no
// moment exists in which the credential has changed and the token still works. Sessions are ended by
// the events' own code (auth's queries), since which session stays differs from event to event.

/**
 * The password changed (in Account settings, through a reset link, or by a registration that took an
 * unverified account over): every reset link and every pending e-mail change of the account ends.
 * Whoever asked for them may have known only the old password.
 */
export async function endTokensOfOldPassword(tx: Db, userId: string, now = new Date()) {
  await expireOpenResetLinks(tx, userId, now);
  await expireOpenEmailChanges(tx, userId, now);
}

/**
 * The address changed: the links mailed to the old one (reset links, verification links) end, and so
 * do other pending changes (the confirming code expires those itself).
 */
export async function endTokensOfOldAddress(tx: Db, userId: string, now = new Date()) {
  await expireOpenResetLinks(tx, userId, now);
  await expireOpenVerificationLinks(tx, userId, now);
  await expireOpenEmailChanges(tx, userId, now);
}

/**
 * A moderator suspended the account: a pending e-mail change ends (nobody moves a suspended account's
 * address away from its owner). Reset links stay: decision 021 lets the mailbox's holder set a new
 * password while suspended, to shut an intruder out.
 */
export async function endTokensOfSuspension(tx: Db, userId: string, now = new Date()) {
  await expireOpenEmailChanges(tx, userId, now);
}
