import { and, eq, sql } from 'drizzle-orm';
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

export async function findPreference(db: Db, userId: string, kind: string) {
  const [row] = await db
    .select({ email: notificationPreferences.email, push: notificationPreferences.push })
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.userId, userId), eq(notificationPreferences.kind, kind)))
    .limit(1);
  return row;
}

/**
 * A person's language and their choice for one kind, in one read: a notification is written in the
 * one and delivered by the other, inside its event's transaction, where each read is a round trip.
 * Undefined when the person does not exist; `email` and `push` are null where nothing was chosen.
 */
export async function recipientOf(db: Db, userId: string, kind: string) {
  const [row] = await db
    .select({
      locale: users.locale,
      email: notificationPreferences.email,
      push: notificationPreferences.push,
    })
    .from(users)
    .leftJoin(
      notificationPreferences,
      and(eq(notificationPreferences.userId, users.id), eq(notificationPreferences.kind, kind)),
    )
    .where(eq(users.id, userId))
    .limit(1);
  return row;
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
