import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notificationPreferences, users } from '../../db/schema/users.ts';

// The only place that reads and writes a person's e-mail and push choices.

export function listPreferences(db: Db, userId: string) {
  return db
    .select({
      kind: notificationPreferences.kind,
      email: notificationPreferences.email,
      push: notificationPreferences.push,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
}

/** What a kind of e-mail is, as the rule of who wants it reads it (EMAIL_KINDS). */
export type KindRule = { kind: string; required: boolean; byDefault: boolean; push: boolean };

/**
 * The rule of who wants a kind by e-mail and by push, the one place it is written: a required kind is
 * always e-mailed, else the person's choice or the kind's default; push goes for a kind sent by push
 * unless turned off. A select of one row (`user_id`, `locale`, `email`, `push`) for an existing
 * person, none for an unknown one: a notification's statement reads it in its event's transaction.
 */
export function recipientChannels(userId: string, rule: KindRule): SQL {
  return sql`
    select u.id as user_id, u.locale,
      (${rule.required}::boolean or coalesce(p.email, ${rule.byDefault}::boolean)) as email,
      (${rule.push}::boolean and coalesce(p.push, true)) as push
    from ${users} u
    left join ${notificationPreferences} p on p.user_id = u.id and p.kind = ${rule.kind}
    where u.id = ${userId}::uuid`;
}

/** Whether the person wants this kind by e-mail and by push; both false for an unknown person. */
export async function channelsWanted(db: Db, userId: string, rule: KindRule) {
  const result = await db.execute<{ email: boolean; push: boolean }>(recipientChannels(userId, rule));
  const row = result.rows[0];
  return { email: row?.email === true, push: row?.push === true };
}

/** Stores one or both channels' choice; a first row takes the kind's e-mail default for what is not said. */
export async function upsertPreference(
  db: Db,
  values: { userId: string; kind: string; email?: boolean; push?: boolean; emailByDefault: boolean },
) {
  await db
    .insert(notificationPreferences)
    .values({
      userId: values.userId,
      kind: values.kind,
      email: values.email ?? values.emailByDefault,
      push: values.push ?? null,
    })
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.kind],
      set: {
        ...(values.email === undefined ? {} : { email: values.email }),
        ...(values.push === undefined ? {} : { push: values.push }),
        updatedAt: sql`now()`,
      },
    });
}
