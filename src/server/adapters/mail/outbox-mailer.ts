import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage, SentMail } from './mailer.ts';

// Without an SMTP server, every message becomes one .eml file in DATA_DIR/outbox that any mail
// client opens; the newest file is the newest message (names start with the time).

export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;
  // A stream transport composes the message exactly as it would go over SMTP, CRLF line ends included.
  private readonly transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });

  constructor(
    private readonly outboxDir: string,
    private readonly from: string,
  ) {}

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.transport.sendMail({ from: this.from, ...message });
    await mkdir(this.outboxDir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(this.outboxDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
    // Written aside then renamed, so a reader never opens half a message.
    const partial = `${file}.part`;
    try {
      await writeFile(partial, info.message as Buffer);
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { messageId: info.messageId, file };
  }

  close() {
    this.transport.close();
  }
}
