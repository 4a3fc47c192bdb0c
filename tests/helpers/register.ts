import { expect } from 'vitest';
import { mailsTo, tokenOf, verificationLinkIn } from './outbox.ts';
import { sessionCookie, type TestContext } from './test-app.ts';

// Registering as the web app does since decision 023: the answer is "check your inbox", and the link in
// the e-mail signs in. Most tests only need a signed-in new student: registerAndVerify does both steps.

/** The newest verification link sent to `email` once more than `after` mails reached it. */
export async function verificationLinkFor(t: TestContext, email: string, after = 0): Promise<string> {
  const mails = await mailsTo(t.outboxDir, email, after);
  const mail = mails.at(-1);
  if (!mail || mails.length <= after) throw new Error(`no new e-mail to ${email}`);
  return verificationLinkIn(mail);
}

/** Registers, opens the e-mailed link, and answers the verify response, its session cookie and user. */
export async function registerAndVerify(t: TestContext, input: Record<string, unknown>) {
  const email = String(input.email).toLowerCase();
  const before = (await mailsTo(t.outboxDir, email, 0, 0)).length;
  const registered = await t.post('/api/auth/register', input);
  expect(registered.statusCode, registered.body).toBe(202);
  const link = await verificationLinkFor(t, email, before);
  const verified = await t.post('/api/auth/verify-email', { token: tokenOf(link) });
  expect(verified.statusCode, verified.body).toBe(200);
  return { registered, verified, link, cookie: sessionCookie(verified), user: verified.json().user };
}
