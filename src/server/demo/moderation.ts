import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { reports } from '../db/schema/community.ts';
import { items } from '../db/schema/items.ts';
import { users } from '../db/schema/users.ts';
import { DEMO_MODERATOR } from './accounts.ts';

// The demo campus's moderation: its moderator account and two open reports waiting in the queue,
// so a newcomer signed in as the moderator has something to review at /admin (decision 009).

const DEMO_REPORTS = [
  {
    reporter: 'priya.patel@stanford.edu',
    item: 'Noise-cancelling headphones',
    reason: 'fake_listing',
    hoursAgo: 26,
    description:
      'The photo looks like a stock image, not the actual headphones. Could someone check that this listing is real before people hand over a deposit?',
  },
  {
    reporter: 'sam.rivera@berkeley.edu',
    user: 'alex.kim@berkeley.edu',
    reason: 'spam',
    hoursAgo: 5,
    description:
      "Sent me the same message about a 'textbook bundle deal' in three separate chats within ten minutes.",
  },
] as const;

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60 * 1000);

export async function seedModeration(db: Db, passwordHash: string) {
  await db.insert(users).values({ ...DEMO_MODERATOR, passwordHash, isVerified: true });

  const emails: string[] = DEMO_REPORTS.flatMap((r) => ('user' in r ? [r.reporter, r.user] : [r.reporter]));
  const people = new Map(
    (
      await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails))
    ).map((p) => [p.email, p.id]),
  );
  for (const r of DEMO_REPORTS) {
    const reporterId = people.get(r.reporter)!;
    if ('item' in r) {
      const [item] = await db
        .select({ id: items.id, userId: items.userId })
        .from(items)
        .where(eq(items.title, r.item))
        .limit(1);
      if (!item) continue;
      await db.insert(reports).values({
        reporterId,
        reportedItemId: item.id,
        reportedUserId: item.userId,
        reason: r.reason,
        description: r.description,
        createdAt: hoursAgo(r.hoursAgo),
      });
    } else {
      await db.insert(reports).values({
        reporterId,
        reportedUserId: people.get(r.user)!,
        reason: r.reason,
        description: r.description,
        createdAt: hoursAgo(r.hoursAgo),
      });
    }
  }
}
