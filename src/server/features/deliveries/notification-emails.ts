import { EMAIL_KINDS, type EmailKind } from '#shared/schemas/account.ts';
import { brandedEmail } from '../../adapters/mail/layout.ts';
import type { MailMessage } from '../../adapters/mail/mailer.ts';

// The e-mails that carry notifications and unread messages (issue 18), in the one layout, each with its
// kind's one-click unsubscribe.

interface Recipient {
  email: string;
  fullName: string;
}

const labelOf = (kind: EmailKind) => EMAIL_KINDS.find((k) => k.kind === kind)!.label;

function unsubscribeOf(appUrl: string, kind: EmailKind, token: string) {
  const query = `token=${encodeURIComponent(token)}`;
  return {
    link: `${appUrl}/api/unsubscribe?${query}`,
    postLink: `${appUrl}/api/unsubscribe?${query}`,
    what: `"${labelOf(kind)}"`,
  };
}

/** Where a notification leads in the app: its reservation, its item, or the list. */
export function notificationPath(n: { relatedReservationId: string | null; relatedItemId: string | null }) {
  if (n.relatedReservationId) return '/reservations';
  if (n.relatedItemId) return `/item/${n.relatedItemId}`;
  return '/notifications';
}

export function notificationEmail(input: {
  to: Recipient;
  notification: {
    title: string;
    message: string;
    relatedReservationId: string | null;
    relatedItemId: string | null;
  };
  kind: EmailKind;
  appUrl: string;
  token: string;
}): MailMessage {
  return brandedEmail({
    to: input.to.email,
    fullName: input.to.fullName,
    subject: input.notification.title,
    paragraphs: [input.notification.message],
    button: { label: 'Open CampusLoop', link: `${input.appUrl}${notificationPath(input.notification)}` },
    unsubscribe: unsubscribeOf(input.appUrl, input.kind, input.token),
  });
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
  return brandedEmail({
    to: input.to.email,
    fullName: input.to.fullName,
    subject:
      count === 1
        ? `${first.senderName} wrote about ${first.itemTitle}`
        : `${count} unread messages about ${first.itemTitle}`,
    paragraphs: [
      `You have ${count === 1 ? 'an unread message' : `${count} unread messages`} about ${first.itemTitle}:`,
      ...shown,
    ],
    button: { label: 'Reply in CampusLoop', link: `${input.appUrl}/chat` },
    notes: ['We write at most once an hour about a conversation.'],
    unsubscribe: unsubscribeOf(input.appUrl, 'messages', input.token),
  });
}
