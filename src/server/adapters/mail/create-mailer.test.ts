import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { createMailer } from './create-mailer.ts';
import type { MailMessage } from './mailer.ts';
import { OutboxMailer } from './outbox-mailer.ts';
import { SmtpMailer } from './smtp-mailer.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'campusloop-mail-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const message: MailMessage = {
  to: 'ada.lovelace@stanford.edu',
  subject: 'Verify your CampusLoop e-mail address',
  text: 'Open https://campusloop.example.edu/verify-email?token=abc_DEF-123 to verify.',
  html: '<p>Open <a href="https://campusloop.example.edu/verify-email?token=abc_DEF-123">this link</a>.</p>',
};

/** A local SMTP server that keeps what it receives; it wants the user and password it is given. */
async function startSmtpServer(credentials = { username: 'campusloop', password: 's3cret' }) {
  const received: { from: string; to: string[]; raw: Buffer }[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.username && auth.password === credentials.password) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('createMailer', () => {
  it('writes each message as an RFC 5322 .eml file in DATA_DIR/outbox by default', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.mail).toEqual({
      smtpUrl: undefined,
      from: 'CampusLoop <no-reply@campusloop.app>',
      outboxDir: path.join(dataDir, 'outbox'),
    });
    const mailer = createMailer(config);
    expect(mailer).toBeInstanceOf(OutboxMailer);

    const sent = await mailer.send(message);
    const second = await mailer.send({ ...message, subject: 'Second' });
    mailer.close();
    expect(path.dirname(sent.file!)).toBe(path.join(dataDir, 'outbox'));
    const files = readdirSync(path.join(dataDir, 'outbox')).sort();
    expect(files).toEqual([path.basename(sent.file!), path.basename(second.file!)].sort());
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    // Names start with the time, so the last in order is the newest message.
    expect(files.at(-1)! >= files[0]!).toBe(true);

    const raw = readFileSync(sent.file!);
    expect(raw.toString('latin1')).toMatch(/\r\n\r\n/);
    expect(raw.toString('latin1')).not.toMatch(/[^\r]\n/);
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ name: 'CampusLoop', address: 'no-reply@campusloop.app' }]);
    expect(parsed.to).toMatchObject({ text: 'ada.lovelace@stanford.edu' });
    expect(parsed.subject).toBe('Verify your CampusLoop e-mail address');
    expect(parsed.messageId).toBe(sent.messageId);
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });
    expect(parsed.text?.trim()).toBe(message.text);
    expect(parsed.html).toContain('href="https://campusloop.example.edu/verify-email?token=abc_DEF-123"');
  });

  it('sends through the SMTP server of SMTP_URL, with the credentials in the URL', async () => {
    const smtp = await startSmtpServer();
    try {
      const config = loadConfig({
        SMTP_URL: `smtp://campusloop:s3cret@127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Campus Loop <hello@campusloop.app>',
      });
      const mailer = createMailer(config);
      expect(mailer).toBeInstanceOf(SmtpMailer);
      const sent = await mailer.send(message);
      mailer.close();

      expect(smtp.received).toHaveLength(1);
      const [delivery] = smtp.received;
      expect(delivery!.from).toBe('hello@campusloop.app');
      expect(delivery!.to).toEqual(['ada.lovelace@stanford.edu']);
      const parsed = await simpleParser(delivery!.raw);
      expect(parsed.from?.value).toEqual([{ name: 'Campus Loop', address: 'hello@campusloop.app' }]);
      expect(parsed.messageId).toBe(sent.messageId);
      expect(parsed.text?.trim()).toBe(message.text);
      expect(parsed.html).toContain('this link</a>');
    } finally {
      await smtp.close();
    }
  });

  it('rejects when the SMTP server refuses the credentials or does not answer', async () => {
    const smtp = await startSmtpServer();
    try {
      const wrong = new SmtpMailer(`smtp://campusloop:wrong@127.0.0.1:${smtp.port}`, 'a@campusloop.app');
      await expect(wrong.send(message)).rejects.toThrow(/Invalid username or password/);
      wrong.close();
    } finally {
      await smtp.close();
    }
    const gone = new SmtpMailer(`smtp://127.0.0.1:${smtp.port}`, 'a@campusloop.app');
    await expect(gone.send(message)).rejects.toThrow(/ECONNREFUSED/);
    gone.close();
  });
});

describe('mail settings', () => {
  it('builds links on APP_URL, or on localhost and the port, and reads the link lifetime', () => {
    expect(loadConfig({ PORT: '8080' })).toMatchObject({
      appUrl: 'http://localhost:8080',
      emailVerificationHours: 24,
    });
    expect(
      loadConfig({ APP_URL: 'https://campusloop.example.edu/', EMAIL_VERIFICATION_HOURS: '2' }),
    ).toMatchObject({ appUrl: 'https://campusloop.example.edu', emailVerificationHours: 2 });
  });

  it('names the bad mail settings', () => {
    try {
      loadConfig({
        SMTP_URL: 'mail.example.edu:25',
        MAIL_FROM: 'CampusLoop',
        APP_URL: 'campusloop.example.edu',
        EMAIL_VERIFICATION_HOURS: '0',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        'SMTP_URL: must be an SMTP URL such as smtp://user:password@smtp.example.edu:587 or smtps://…:465',
        'MAIL_FROM: must be an e-mail address such as no-reply@campusloop.app or CampusLoop <no-reply@campusloop.app>',
        'APP_URL: must be a URL such as https://campusloop.example.edu',
        'EMAIL_VERIFICATION_HOURS: must be above 0',
      ]);
    }
  });
});
