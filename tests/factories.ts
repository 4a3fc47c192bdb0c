import { randomBytes } from 'node:crypto';
import type { Db } from '../src/server/db/client.ts';
import { users } from '../src/server/db/schema/users.ts';
import { hashPassword } from '../src/server/features/auth/passwords.ts';
import { startSession } from '../src/server/features/auth/service.ts';

// Factories make unique, valid rows with overrides (epic-stack's createUser habit).

export const TEST_PASSWORD = 'correct horse battery';
let passwordHash: Promise<string> | undefined;

const unique = () => randomBytes(4).toString('hex');

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
