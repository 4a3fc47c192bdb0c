import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { TestPaymentProvider } from '../src/server/adapters/payments/test-provider.ts';
import type { Db } from '../src/server/db/client.ts';
import { items } from '../src/server/db/schema/items.ts';
import { users } from '../src/server/db/schema/users.ts';
import { hashPassword } from '../src/server/features/auth/passwords.ts';
import { startSession } from '../src/server/features/auth/service.ts';
import { payoutService } from '../src/server/features/payouts/service.ts';

// Factories make unique, valid rows with overrides (epic-stack's createUser habit).

export const TEST_PASSWORD = 'correct horse battery';
let passwordHash: Promise<string> | undefined;

const unique = () => randomBytes(4).toString('hex');

/**
 * A student who has verified their e-mail, as most tests need (unverified students cannot request,
 * approve or list); pass `{ isVerified: false }` for one who has not.
 */
export async function createUser(
  db: Db,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<typeof users.$inferSelect & { password: string }> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const tag = unique();
  const [row] = await db
    .insert(users)
    .values({
      email: `student.${tag}@stanford.edu`,
      username: `student_${tag}`,
      fullName: `Student ${tag.toUpperCase()}`,
      campus: 'stanford.edu',
      passwordHash: await passwordHash,
      isVerified: true,
      ...overrides,
    })
    .returning();
  return { ...row!, password: TEST_PASSWORD };
}

/** A user and the Cookie header of a live session of theirs. */
export async function createSignedInUser(db: Db, overrides: Partial<typeof users.$inferInsert> = {}) {
  const user = await createUser(db, overrides);
  const { token } = await startSession(db, user.id, 30);
  return { user, cookie: `cl_session=${token}` };
}

/**
 * An item with sensible defaults, listed today and available every day. The lender of an item that costs
 * something gets payouts set up (decision 056: approving a paid request needs them), unless
 * `lenderPayouts: false` asks for a lender who never set them up.
 */
export async function createItem(
  db: Db,
  overrides: Partial<typeof items.$inferInsert> & { userId: string; campus?: string },
  { lenderPayouts = true }: { lenderPayouts?: boolean } = {},
) {
  if (lenderPayouts && ((overrides.rentalPriceCents ?? 0) > 0 || (overrides.depositCents ?? 0) > 0)) {
    await givePayouts(db, overrides.userId);
  }
  const [row] = await db
    .insert(items)
    .values({
      title: 'Cordless drill',
      description: 'A cordless drill with two batteries.',
      category: 'tools',
      condition: 'good',
      pickupMethod: 'meetup',
      availableFrom: '2026-01-01',
      campus: 'stanford.edu',
      ...overrides,
    })
    .returning();
  return row!;
}

/** POST /api/items's body: a free listing at a campus meetup, available every day, without photos. */
export function freeListing(fields: { title: string; description?: string; category?: string }) {
  return {
    description: 'A free listing.',
    category: 'other',
    condition: 'good',
    pickupMethod: 'meetup',
    pickupLocation: 'Main Quad',
    rentalPrice: null,
    rentalPeriod: null,
    depositAmount: null,
    availableFrom: '2026-01-01',
    availableUntil: null,
    availableDays: [0, 1, 2, 3, 4, 5, 6],
    images: [],
    ...fields,
  };
}

/** Payouts set up and active for a lender, with the built-in test provider (idempotent). */
export async function givePayouts(db: Db, userId: string) {
  if ((await payoutService.status(db, userId)) === 'active') return;
  await payoutService.setUpWithTestProvider(new TestPaymentProvider(db), db, userId);
}

/**
 * Suspends a person as a moderator would, after their rows are written: the database refuses new rows in
 * a suspended person's name (migration 0027), so a test makes what they own first.
 */
export async function suspend(db: Db, userId: string) {
  await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, userId));
}
