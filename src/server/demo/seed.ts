import { campusToday } from '#shared/calendar.ts';
import { TestPaymentProvider } from '../adapters/payments/test-provider.ts';
import type { Storage } from '../adapters/storage/storage.ts';
import type { Db } from '../db/client.ts';
import { isEmpty } from '../db/client.ts';
import { items } from '../db/schema/items.ts';
import { users } from '../db/schema/users.ts';
import { transaction } from '../db/transaction.ts';
import { hashPassword } from '../features/auth/passwords.ts';
import { awardBadges } from '../features/badges/service.ts';
import { payoutService } from '../features/payouts/service.ts';
import { preparePhotos, storePhotos } from '../features/uploads/service.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './accounts.ts';
import { DEMO_ITEMS, type DemoItem } from './catalog.ts';
import { HISTORY_DAYS, type HistoryItem, seedBorrowingHistory } from './history.ts';
import { seedModeration } from './moderation.ts';
import { demoPhoto } from './photos.ts';
import { seedCurrentBorrows } from './reminders.ts';

// Loads the demo campus. It refuses to touch a database that already has users, so it can never
// mix demo rows into real data.

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The demo photos go through the same pipeline as uploads: re-encoded, thumbnailed, stored. */
async function photosFor(storage: Storage, item: DemoItem): Promise<string[]> {
  const raw = await Promise.all(
    Array.from({ length: item.photos ?? 1 }, (_, variant) => demoPhoto(item.icon, item.hue, variant)),
  );
  const prepared = await preparePhotos(raw.map((data, i) => ({ filename: `${item.icon}-${i}.jpg`, data })));
  return storePhotos(storage, prepared);
}

export async function seedDemo(
  db: Db,
  storage: Storage,
  timeZone: string,
  /** RESERVATION_EXPIRY_HOURS: the demo's pending request is about to expire by it. */
  expiryHours = 48,
): Promise<{ seeded: boolean }> {
  if (!(await isEmpty(db))) return { seeded: false };
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const people = await db
    .insert(users)
    .values(
      DEMO_ACCOUNTS.map((a) => ({
        ...a,
        passwordHash,
        // Verified, so a newcomer can request, approve and list at once; a new sign-up shows the unverified state.
        isVerified: true,
        // Joined before the borrowing history began (and before their items were listed).
        createdAt: new Date(Date.now() - (HISTORY_DAYS + 14) * 24 * 60 * 60 * 1000),
      })),
    )
    .returning({ id: users.id, campus: users.campus, fullName: users.fullName });

  const now = new Date();
  const today = campusToday(timeZone, now).date;
  const listed: HistoryItem[] = [];
  // A few at a time: photo rendering is CPU work and the machine may have two cores.
  const batch = 4;
  for (let start = 0; start < DEMO_ITEMS.length; start += batch) {
    const slice = DEMO_ITEMS.slice(start, start + batch);
    const photos = await Promise.all(slice.map((item) => photosFor(storage, item)));
    const inserted = await db
      .insert(items)
      .values(
        slice.map((item, i) => {
          const owner = people[item.owner]!;
          // Listed in catalogue order, nine hours apart, before the borrowing history begins, so
          // "newest first" reads naturally and every item can have been borrowed.
          const listedAgo = (HISTORY_DAYS + 2) * 24 + (DEMO_ITEMS.length - (start + i)) * 9;
          return {
            userId: owner.id,
            campus: owner.campus,
            title: item.title,
            description: item.description,
            category: item.category,
            condition: item.condition,
            images: photos[i]!,
            rentalPriceCents: item.price ? Math.round(item.price * 100) : null,
            rentalPeriod: item.price ? (item.period ?? null) : null,
            depositCents: item.deposit ? Math.round(item.deposit * 100) : null,
            pickupMethod: item.pickupMethod ?? 'meetup',
            pickupLocation: item.location,
            // Available from the day it was listed, unless it starts later.
            availableFrom: addDays(today, item.startsIn ?? -Math.ceil(listedAgo / 24)),
            availableUntil: item.startsIn ? addDays(today, item.startsIn + 60) : null,
            availableDays: item.days ?? [0, 1, 2, 3, 4, 5, 6],
            isAvailable: item.available ?? true,
            createdAt: new Date(now.getTime() - listedAgo * 60 * 60 * 1000),
          };
        }),
      )
      .returning();
    listed.push(...inserted);
  }
  // Lenders of paid items have payouts set up with the test provider (decision 056), so their requests
  // can be approved at once; the rest may try "Get paid" themselves.
  const payingLenders = new Set(
    listed.filter((i) => i.rentalPriceCents || i.depositCents).map((i) => i.userId),
  );
  const testProvider = new TestPaymentProvider(db);
  for (const lenderId of payingLenders) await payoutService.setUpWithTestProvider(testProvider, db, lenderId);
  await seedModeration(db, passwordHash);
  await seedBorrowingHistory(db, { timeZone, passwordHash, accounts: people, items: listed, now });
  // Borrows going on now, with the reminders they have had.
  await seedCurrentBorrows(db, { timeZone, expiryHours, now });
  // Badges come from the rules, as for anyone, once the history is there: 'Verified Student' for
  // everyone, 'First Lend' and the rest for whoever earned them.
  const everyone = await db.select({ id: users.id }).from(users);
  for (const person of everyone) await transaction(db, (tx) => awardBadges(tx, person.id));
  return { seeded: true };
}
