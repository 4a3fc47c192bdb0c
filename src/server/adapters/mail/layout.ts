import { t } from '@lingui/core/macro';
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { createElement as h, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Locale } from '../../../shared/i18n.ts';
import { inLocale } from '../../i18n.ts';
import type { MailMessage } from './mailer.ts';

// The one template of CampusLoop's e-mails (decision 032): react-email's components (tables and inline
// styles that mail clients render alike) for the HTML, the same words as plain text. Features write the
// words; this writes the message. Rendered with react-dom's synchronous static renderer, so the
// existing senders (verification, password reset, account notes) keep their synchronous call.
// Written in the recipient's language (`locale`); the features write their words inside the
// same inLocale, and this writes the greeting, the link's hint, the signature and the unsubscribe line.

const firstNameOf = (fullName: string) => fullName.trim().split(/\s+/)[0] || fullName;

const colors = { ink: '#1c1917', muted: '#57534e', brand: '#065f46', button: '#047857', line: '#e7e5e4' };
const small = { fontSize: '14px', color: colors.muted, lineHeight: '1.5' };
const body = { fontSize: '16px', color: colors.ink, lineHeight: '1.5' };

export interface EmailContent {
  to: string;
  /** The recipient's language (users.locale, or the request's that caused the e-mail). */
  locale: Locale;
  /** Null when the mailbox's holder is not known by name: "Hi there,". */
  fullName: string | null;
  subject: string;
  paragraphs: string[];
  button?: { label: string; link: string };
  notes?: string[];
  /**
   * Notification e-mails: the one-click link that stops this kind of e-mail (RFC 8058), and the kind's
   * name in the recipient's language.
   */
  unsubscribe?: { link: string; postLink: string; what: string };
}

/** The layout's own words, written in the recipient's language. */
function chrome(firstName: string | null, unsubscribe: EmailContent['unsubscribe']) {
  const what = unsubscribe?.what ?? '';
  return {
    greeting: firstName === null ? t`Hi there,` : t`Hi ${firstName},`,
    pasteLink: t`Or paste this link into your browser:`,
    signature: t`The CampusLoop team`,
    whyThis: t`You get this because "${what}" e-mails are on in your settings.`,
    unsubscribe: t`Unsubscribe from these e-mails`,
    unsubscribeText: t`Unsubscribe:`,
  };
}

function EmailTemplate(input: EmailContent & { words: ReturnType<typeof chrome> }): ReactNode {
  const { button, unsubscribe, words } = input;
  return h(
    Html,
    { lang: input.locale },
    h(Head, null),
    h(Preview, null, input.paragraphs[0] ?? input.subject),
    h(
      Body,
      {
        style: {
          margin: 0,
          padding: '24px',
          background: '#fafaf9',
          fontFamily: "system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif",
        },
      },
      h(
        Container,
        {
          style: {
            maxWidth: '520px',
            background: '#ffffff',
            border: `1px solid ${colors.line}`,
            borderRadius: '16px',
            padding: '24px',
          },
        },
        h(
          Text,
          { style: { margin: '0 0 16px', fontSize: '20px', fontWeight: 700, color: colors.brand } },
          'CampusLoop',
        ),
        h(Text, { style: body }, words.greeting),
        ...input.paragraphs.map((p, i) => h(Text, { key: `p${i}`, style: body }, p)),
        button
          ? h(
              Section,
              { style: { margin: '24px 0' } },
              h(
                Button,
                {
                  href: button.link,
                  style: {
                    background: colors.button,
                    color: '#ffffff',
                    fontWeight: 600,
                    textDecoration: 'none',
                    padding: '12px 20px',
                    borderRadius: '8px',
                  },
                },
                button.label,
              ),
              h(
                Text,
                { style: small },
                words.pasteLink,
                h('br'),
                h(
                  Link,
                  { href: button.link, style: { color: colors.button, wordBreak: 'break-all' } },
                  button.link,
                ),
              ),
            )
          : null,
        ...(input.notes ?? []).map((p, i) => h(Text, { key: `n${i}`, style: small }, p)),
        h(Text, { style: body }, words.signature),
        unsubscribe
          ? h(
              Text,
              {
                style: {
                  ...small,
                  fontSize: '12px',
                  borderTop: `1px solid ${colors.line}`,
                  paddingTop: '12px',
                },
              },
              `${words.whyThis} `,
              h(Link, { href: unsubscribe.link, style: { color: colors.button } }, words.unsubscribe),
            )
          : null,
      ),
    ),
  );
}

/** The e-mail, written in `input.locale` (call it with that language active or not: it switches). */
export function brandedEmail(input: EmailContent): MailMessage {
  return inLocale(input.locale, () => write(input));
}

function write(input: EmailContent): MailMessage {
  const words = chrome(input.fullName === null ? null : firstNameOf(input.fullName), input.unsubscribe);
  const text = [
    words.greeting,
    '',
    ...input.paragraphs.flatMap((p) => [p, '']),
    ...(input.button ? [input.button.link, ''] : []),
    ...(input.notes ?? []).flatMap((p) => [p, '']),
    words.signature,
    '',
    ...(input.unsubscribe ? [`${words.whyThis} ${words.unsubscribeText}`, input.unsubscribe.link, ''] : []),
  ].join('\n');
  const html = `<!doctype html>\n${renderToStaticMarkup(h(EmailTemplate, { ...input, words }) as never)}\n`;
  return {
    to: input.to,
    subject: input.subject,
    text,
    html,
    ...(input.unsubscribe
      ? {
          headers: {
            'List-Unsubscribe': `<${input.unsubscribe.postLink}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        }
      : {}),
  };
}
