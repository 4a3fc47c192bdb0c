import nodemailer from 'nodemailer';
import type { Mailer, MailMessage, SentMail } from './mailer.ts';

// Sends through the SMTP server of SMTP_URL (smtp:// upgrades with STARTTLS when offered, smtps:// is
// TLS from the start; credentials and options such as ?pool=true ride in the URL, as nodemailer reads it).

/** A dead mail server must not hold a request for minutes (nodemailer's own defaults). */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

const createSmtpTransport = (url: string) => nodemailer.createTransport({ ...TIMEOUTS, url });

export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: ReturnType<typeof createSmtpTransport>;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = createSmtpTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.transport.sendMail({ from: this.from, ...message });
    return { messageId: info.messageId };
  }

  close() {
    this.transport.close();
  }
}
