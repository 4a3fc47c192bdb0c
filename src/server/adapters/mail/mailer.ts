// How the app sends e-mail. Files in DATA_DIR/outbox are the embedded default; an SMTP server is
// chosen by configuration, so one process runs alone or beside real services. Both compose the same RFC 5322 message with nodemailer.

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text body: every message has one, for clients that show no HTML. */
  text: string;
  /** The same content as simple HTML. */
  html: string;
  /** Extra headers, such as List-Unsubscribe (RFC 8058) on notification e-mails. */
  headers?: Record<string, string>;
}

export interface SentMail {
  /** The Message-ID header the message went out with. */
  messageId: string;
  /** The outbox: the .eml file the message was written to. */
  file?: string;
}

export interface Mailer {
  readonly kind: 'outbox' | 'smtp';
  /** Rejects when the message could not be handed over; callers decide whether that matters. */
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}
