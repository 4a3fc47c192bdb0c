import { expect } from 'vitest';
import { EMAIL_KINDS } from '../../src/shared/schemas/account.ts';
import { createSignedInUser } from '../factories.ts';
import type { TestContext } from './test-app.ts';

/**
 * A successful write whose route waits, before answering, until this instance has heard every change
 * committed before it (http/session.ts): after it, the read caches have dropped whatever those changes
 * announced. Not a read mark or a chat message: those change no cached answer, so they wait for
 * nothing, and on PostgreSQL an announcement can still be on its way when they answer.
 */
export async function heardEverything(t: TestContext) {
  const { cookie } = await createSignedInUser(t.database.db);
  const answer = await t.put(
    '/api/account/notification-preferences',
    { kind: EMAIL_KINDS[0]!.kind, email: true },
    cookie,
  );
  expect(answer.statusCode, answer.body).toBe(200);
}
