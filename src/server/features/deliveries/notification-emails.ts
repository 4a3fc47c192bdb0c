import { i18n } from '@lingui/core';
import { plural, t } from '@lingui/core/macro';
import type { Locale } from '#shared/i18n.ts';
import { EMAIL_KINDS, type EmailKind } from '#shared/schemas/account.ts';
import { brandedEmail } from '../../adapters/mail/layout.ts';
import type { MailMessage } from '../../adapters/mail/mailer.ts';
import { inLocale } from '../../i18n.ts';

// The e-mails that carry notifications and unread messages, in the one layout, each with its
// kind's one-click unsubscribe. In the recipient's language (the notification's own title and
// message were written in it when it was stored).

interface Recipient {
  email: string;
  fullName: string;
  locale: Locale;
}

/** The kind's name in the active language. */
const labelOf = (kind: EmailKind) => i18n._(EMAIL_KINDS.find((k) => k.kind === kind)!.label);

function unsubscribeOf(appUrl: string, kind: EmailKind, token: string) {
  const query = `token=${encodeURIComponent(token)}`;
  return {
    link: `${appUrl}/api/unsubscribe?${query}`,
    postLink: `${appUrl}/api/unsubscribe?${query}`,
    what: labelOf(kind),
  };
}

/** Where a notification leads in the app: the Earnings page for money sent, its reservation, its item, or the list. */
export function notificationPath(n: {
  type?: string;
  relatedReservationId: string | null;
  relatedItemId: string | null;
}) {
  if (n.type === 'payout_sent') return '/earnings';
  if (n.relatedReservationId) return '/reservations';
  if (n.relatedItemId) return `/item/${n.relatedItemId}`;
  return '/notifications';
}

/**
 * The listings a saved search's notification tells of, from its stored wording's values (the search's
 * words, then `{ id, title }` of each listing: features/saved-searches/notices.ts); none for any other.
 */
export function listingsTold(notification: { type: string; wordingValues: unknown }) {
  if (notification.type !== 'saved_search_match' || !Array.isArray(notification.wordingValues)) return [];
  const listed: unknown = notification.wordingValues[1];
  if (!Array.isArray(listed)) return [];
  return listed.filter(
    (l): l is { id: string; title: string } =>
      typeof l?.id === 'string' && typeof l?.title === 'string' && /^[0-9a-f-]{36}$/i.test(l.id),
  );
}

export function notificationEmail(input: {
  to: Recipient;
  notification: {
    type?: string;
    title: string;
    message: string;
    relatedReservationId: string | null;
    relatedItemId: string | null;
  };
  kind: EmailKind;
  appUrl: string;
  token: string;
  /** Listings the notification tells of (a saved search's matches): each with its own link. */
  listings?: { id: string; title: string }[];
}): MailMessage {
  const listings = (input.listings ?? []).map((l) => `${l.title}: ${input.appUrl}/item/${l.id}`);
  return inLocale(input.to.locale, () =>
    brandedEmail({
      to: input.to.email,
      locale: input.to.locale,
      fullName: input.to.fullName,
      subject: input.notification.title,
      paragraphs: [input.notification.message, ...listings],
      button: {
        label: input.notification.type === 'payout_sent' ? t`See your earnings` : t`Open CampusLoop`,
        link: `${input.appUrl}${notificationPath(input.notification)}`,
      },
      unsubscribe: unsubscribeOf(input.appUrl, input.kind, input.token),
    }),
  );
}

export function unreadMessagesEmail(input: {
  to: Recipient;
  messages: { content: string; senderName: string; itemTitle: string }[];
  appUrl: string;
  token: string;
}): MailMessage {
  const first = input.messages[0]!;
  const count = input.messages.length;
  const shown = input.messages.slice(-3).map((m) => `${m.senderName}: ${m.content}`);
  const sender = first.senderName;
  const itemTitle = first.itemTitle;
  return inLocale(input.to.locale, () =>
    brandedEmail({
      to: input.to.email,
      locale: input.to.locale,
      fullName: input.to.fullName,
      subject:
        count === 1
          ? t`${sender} wrote about ${itemTitle}`
          : t`${plural(count, { one: '# unread message', other: '# unread messages' })} about ${itemTitle}`,
      paragraphs: [
        t`You have ${plural(count, { one: 'an unread message', other: '# unread messages' })} about ${itemTitle}:`,
        ...shown,
      ],
      button: { label: t`Reply in CampusLoop`, link: `${input.appUrl}/chat` },
      notes: [t`We write at most once an hour about a conversation.`],
      unsubscribe: unsubscribeOf(input.appUrl, 'messages', input.token),
    }),
  );
}
