import type { Db } from '../db/client.ts';
import { isEmpty } from '../db/client.ts';
import { users } from '../db/schema/users.ts';
import { hashPassword } from '../features/auth/passwords.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './accounts.ts';

// Loads the demo campus. It refuses to touch a database that already has users, so it can never
// mix demo rows into real data.

export async function seedDemo(db: Db): Promise<{ seeded: boolean }> {
  if (!(await isEmpty(db))) return { seeded: false };
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.insert(users).values(
    DEMO_ACCOUNTS.map((a, i) => ({
      ...a,
      passwordHash,
      // The first account of each campus is a verified student, the others show the unverified state.
      isVerified: i % 2 === 0,
    })),
  );
  return { seeded: true };
}
