import { campusToday } from '#shared/calendar.ts';
import type { Storage } from '../adapters/storage/storage.ts';
import type { Db } from '../db/client.ts';
import { isEmpty } from '../db/client.ts';
import { items } from '../db/schema/items.ts';
import { users } from '../db/schema/users.ts';
import { hashPassword } from '../features/auth/passwords.ts';
import { preparePhotos, storePhotos } from '../features/uploads/service.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './accounts.ts';
import { DEMO_ITEMS, type DemoItem } from './catalog.ts';
import { seedModeration } from './moderation.ts';
import { demoPhoto } from './photos.ts';

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

export async function seedDemo(db: Db, storage: Storage, timeZone: string): Promise<{ seeded: boolean }> {
  if (!(await isEmpty(db))) return { seeded: false };
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const people = await db
    .insert(users)
    .values(
      DEMO_ACCOUNTS.map((a, i) => ({
        ...a,
        passwordHash,
        // The first account of each campus is a verified student, the others show the unverified state.
        isVerified: i % 2 === 0,
      })),
    )
    .returning({ id: users.id, campus: users.campus });

  const today = campusToday(timeZone).date;
  // A few at a time: photo rendering is CPU work and the machine may have two cores.
  const batch = 4;
  for (let start = 0; start < DEMO_ITEMS.length; start += batch) {
    const slice = DEMO_ITEMS.slice(start, start + batch);
    const photos = await Promise.all(slice.map((item) => photosFor(storage, item)));
    await db.insert(items).values(
      slice.map((item, i) => {
        const owner = people[item.owner]!;
        const listedDaysAgo = DEMO_ITEMS.length - (start + i);
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
          availableFrom: addDays(today, item.startsIn ?? -30),
          availableUntil: item.startsIn ? addDays(today, item.startsIn + 60) : null,
          availableDays: item.days ?? [0, 1, 2, 3, 4, 5, 6],
          isAvailable: item.available ?? true,
          // Spread over the last weeks so "newest first" reads naturally.
          createdAt: new Date(Date.now() - listedDaysAgo * 9 * 60 * 60 * 1000),
        };
      }),
    );
  }
  await seedModeration(db, passwordHash);
  return { seeded: true };
}
