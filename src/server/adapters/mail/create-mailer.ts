import type { Config } from '../../config.ts';
import type { Mailer } from './mailer.ts';
import { OutboxMailer } from './outbox-mailer.ts';
import { SmtpMailer } from './smtp-mailer.ts';

/** SMTP when SMTP_URL is set, else .eml files in DATA_DIR/outbox. */
export function createMailer(config: Config): Mailer {
  const { smtpUrl, from, outboxDir } = config.mail;
  return smtpUrl ? new SmtpMailer(smtpUrl, from) : new OutboxMailer(outboxDir, from);
}
