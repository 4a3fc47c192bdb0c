import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from './client.ts';
import { emailChanges, emailVerifications, passwordResets } from './schema/users.ts';

// Which token dies when (decision 036). A link or a session is only as good as the credential it was
// issued under: a link asked for with the old password, or mailed to the old address, must not outlive
// it. Each rule runs inside the transaction of the event that causes it (pass that transaction), so no
// moment exists in which the credential has changed and the token still works. Sessions are ended by
// the events' own code (auth's queries), since which session stays differs from event to event. It lives
// below the features because four of them (auth, account, e-mail verification, moderation) end the
// tokens that three of them issue.

/** The person's open links of one kind (unused and unexpired) expire now. */
export async function expireOpenTokens(
  db: Db,
  table: typeof passwordResets | typeof emailVerifications | typeof emailChanges,
  userId: string,
  now: Date,
) {
  await db
    .update(table)
    .set({ expiresAt: now })
    .where(and(eq(table.userId, userId), isNull(table.usedAt), gt(table.expiresAt, now)));
}

/**
 * The password changed (in Account settings, through a reset link, or by a registration that took an
 * unverified account over): every reset link and every pending e-mail change of the account ends.
 * Whoever asked for them may have known only the old password.
 */
export async function endTokensOfOldPassword(tx: Db, userId: string, now = new Date()) {
  await expireOpenTokens(tx, passwordResets, userId, now);
  await expireOpenTokens(tx, emailChanges, userId, now);
}

/**
 * The address changed: the links mailed to the old one (reset links, verification links) end, and so
 * do other pending changes (the confirming code expires those itself).
 */
export async function endTokensOfOldAddress(tx: Db, userId: string, now = new Date()) {
  await expireOpenTokens(tx, passwordResets, userId, now);
  await expireOpenTokens(tx, emailVerifications, userId, now);
  await expireOpenTokens(tx, emailChanges, userId, now);
}

/**
 * A moderator suspended the account: a pending e-mail change ends (nobody moves a suspended account's
 * address away from its owner). Reset links stay: decision 021 lets the mailbox's holder set a new
 * password while suspended, to shut an intruder out.
 */
export async function endTokensOfSuspension(tx: Db, userId: string, now = new Date()) {
  await expireOpenTokens(tx, emailChanges, userId, now);
}
