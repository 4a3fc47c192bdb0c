import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';

// Reads what the outbox mailer wrote (DATA_DIR/outbox/*.eml) the way a mail client would.

/** Every message in the folder, oldest first (file names start with the time they were written). */
export async function readOutbox(outboxDir: string): Promise<ParsedMail[]> {
  let files: string[];
  try {
    files = (await readdir(outboxDir)).filter((f) => f.endsWith('.eml')).sort();
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(files.map(async (f) => simpleParser(await readFile(path.join(outboxDir, f)))));
}

/** The newest message to `to`, or undefined. */
export async function newestMailTo(outboxDir: string, to: string): Promise<ParsedMail | undefined> {
  const mails = await readOutbox(outboxDir);
  return mails.filter((m) => recipients(m).includes(to.toLowerCase())).at(-1);
}

export function recipients(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((group) => group.value.map((a) => (a.address ?? '').toLowerCase()));
}

/** The verification link in a message's plain-text body. */
export function verificationLinkIn(mail: ParsedMail): string {
  const link = mail.text?.match(/https?:\/\/\S+\/verify-email\?token=[A-Za-z0-9_-]+/)?.[0];
  if (!link) throw new Error(`no verification link in the e-mail "${mail.subject}":\n${mail.text}`);
  return link;
}

export function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token') ?? '';
}

/** The password reset link in a message's plain-text body. */
export function passwordResetLinkIn(mail: ParsedMail): string {
  const link = mail.text?.match(/https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/)?.[0];
  if (!link) throw new Error(`no password reset link in the e-mail "${mail.subject}":\n${mail.text}`);
  return link;
}

/**
 * Messages to `to`, once there are more than `after` of them: mails that go out after the answer (the
 * password reset e-mail) are written a moment later, which on a busy 2-core CI machine can be many
 * seconds: the bound is for a mail that never comes, not for speed.
 */
export async function mailsTo(outboxDir: string, to: string, after = 0, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (await readOutbox(outboxDir)).filter((m) => recipients(m).includes(to.toLowerCase()));
    if (mails.length > after || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
