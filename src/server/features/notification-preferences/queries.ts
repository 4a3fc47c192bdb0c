import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notificationPreferences } from '../../db/schema/users.ts';

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
