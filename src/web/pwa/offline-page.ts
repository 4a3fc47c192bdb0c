import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { createI18n, DEFAULT_LOCALE, INTL_LOCALE, type Locale } from '#shared/i18n.ts';
import { messages as spanish } from '#shared/locales/es/app.ts';
import {
  type OfflineConversation,
  type OfflineReservation,
  type OfflineSnapshot,
  snapshotTime,
} from './offline-snapshot.ts';

// The page the service worker answers a navigation with when the network is gone (sw.ts): the last
// snapshot (offline-snapshot.ts), read-only, under a banner saying when it was seen. It is built in the
// worker as plain HTML with its styles inline and no script (the CSP below forbids any), so it needs
// nothing from the network and nothing that could have gone stale in the app's code. Every value from
// the snapshot is escaped. It speaks the language the app last spoke here (the worker finds it with
// offlineLocale, offline-snapshot.ts), with this catalogue's Spanish built in.

/** The page's own policy: no script at all, inline styles, images from here only. */
export const OFFLINE_PAGE_CSP =
  "default-src 'self'; script-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const STATUS_LABELS: Record<OfflineReservation['status'], MessageDescriptor> = {
  pending: msg`Pending`,
  approved: msg`Approved`,
  active: msg`Active`,
  returned: msg`Returned`,
  claimed: msg`Claim open`,
  disputed: msg`In dispute`,
  completed: msg`Completed`,
  cancelled: msg`Cancelled`,
  declined: msg`Declined`,
};

// My Reservations' two lists (the words also name actions elsewhere: the context keeps them apart).
const BORROWING = msg({ message: 'Borrowing', context: 'reservations list' });
const LENDING = msg({ message: 'Lending', context: 'reservations list' });

/** What the page is written with: its language's messages and its Intl tag. */
interface Speech {
  i18n: I18n;
  intl: string;
  timeZone?: string;
}

/** 'Nov 24, 2026, 11:40 AM' in the reader's own time zone (a test passes one), in the page's language. */
export function formatSeenAt(iso: string, timeZone?: string, intl: string = INTL_LOCALE.en): string {
  return new Intl.DateTimeFormat(intl, {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** A calendar day 'YYYY-MM-DD' as 'Dec 1, 2026' (a day, so in UTC: no zone moves it). */
function formatDay(day: string, intl: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

// Values from the snapshot are escaped before they go into a message; the messages are our own text.

function reservationCard(r: OfflineReservation, { i18n, intl }: Speech): string {
  const code = r.pickupCode
    ? `<div class="code"><p class="label">${t(i18n)`Pickup Code:`}</p>` +
      `<p class="digits" aria-hidden="true">${escapeHtml(r.pickupCode)}</p>` +
      `<p class="sr-only">${escapeHtml(r.pickupCode.split('').join(' '))}</p>` +
      `<p class="hint">${t(i18n)`Show this code to the lender when you collect the item.`}</p></div>`
    : '';
  const status = STATUS_LABELS[r.status];
  const otherName = escapeHtml(r.otherName);
  const start = escapeHtml(formatDay(r.startDate, intl));
  const end = escapeHtml(formatDay(r.endDate, intl));
  return (
    `<li class="card"><div class="row"><h3>${escapeHtml(r.itemTitle)}</h3>` +
    `<span class="badge ${escapeHtml(r.status)}">${escapeHtml(status ? i18n._(status) : r.status)}</span></div>` +
    `<p class="muted">${r.role === 'borrower' ? t(i18n)`Borrowing from ${otherName}` : t(i18n)`Lending to ${otherName}`}</p>` +
    `<p class="muted">${start} – ${end}</p>` +
    `${code}</li>`
  );
}

function reservationsSection(snapshot: OfflineSnapshot, speech: Speech): string {
  const list = snapshot.reservations?.list;
  if (!list) return '';
  const { i18n } = speech;
  const part = (role: OfflineReservation['role'], title: string, empty: string) => {
    const mine = list.filter((r) => r.role === role);
    return (
      `<h3 class="sub">${title}</h3>` +
      (mine.length
        ? `<ul class="list">${mine.map((r) => reservationCard(r, speech)).join('')}</ul>`
        : `<p class="muted">${empty}</p>`)
    );
  };
  return (
    `<section aria-labelledby="offline-reservations"><h2 id="offline-reservations">${t(i18n)`My Reservations`}</h2>` +
    part('borrower', i18n._(BORROWING), t(i18n)`No borrowing reservations`) +
    part('provider', i18n._(LENDING), t(i18n)`No lending reservations`) +
    `</section>`
  );
}

function conversationItem(c: OfflineConversation, { i18n, intl, timeZone }: Speech): string {
  const unread = c.unreadCount;
  return (
    `<li class="card"><div class="row"><h3>${escapeHtml(c.otherName)}</h3>` +
    (unread > 0
      ? `<span class="badge">${t(i18n)`${plural(unread, { one: '# unread', other: '# unread' })}`}</span>`
      : '') +
    `</div>` +
    `<p class="muted">${c.itemTitle ? escapeHtml(c.itemTitle) : t(i18n)`Item not found`}</p>` +
    (c.lastMessage
      ? `<p>${escapeHtml(c.lastMessage)}</p>`
      : `<p class="muted">${t(i18n)`No messages yet`}</p>`) +
    `<p class="muted small">${escapeHtml(formatSeenAt(c.lastMessageAt, timeZone, intl))}</p></li>`
  );
}

function conversationsSection(snapshot: OfflineSnapshot, speech: Speech): string {
  const list = snapshot.conversations?.list;
  if (!list) return '';
  const { i18n } = speech;
  return (
    `<section aria-labelledby="offline-conversations"><h2 id="offline-conversations">${t(i18n)`Recent conversations`}</h2>` +
    (list.length
      ? `<ul class="list">${list
          .slice(0, 20)
          .map((c) => conversationItem(c, speech))
          .join('')}</ul>`
      : `<p class="muted">${t(i18n)`No conversations yet`}</p>`) +
    `</section>`
  );
}

const STYLES = `
*,*::before,*::after{box-sizing:border-box}
html{color:#1c1917;background:#fafaf9;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
body{margin:0;min-height:100dvh}
header{background:#fff;border-bottom:1px solid #e7e5e4}
.wrap{max-width:56rem;margin:0 auto;padding:1rem}
.brand{display:inline-flex;align-items:center;gap:.5rem;font-size:1.25rem;font-weight:800;color:#1c1917;text-decoration:none}
.banner{background:#fef3c7;border:1px solid #f59e0b;color:#78350f;border-radius:.75rem;padding:.75rem 1rem;margin:1rem 0;font-weight:600}
h1{font-size:1.75rem;margin:.5rem 0}
h2{font-size:1.25rem;margin:1.5rem 0 .5rem}
h3{font-size:1rem;margin:0}
.sub{color:#57534e;margin:1rem 0 .5rem}
.list{list-style:none;margin:0;padding:0;display:grid;gap:.75rem}
.card{background:#fff;border:1px solid #e7e5e4;border-radius:.75rem;padding:1rem}
.row{display:flex;justify-content:space-between;gap:.5rem;align-items:flex-start}
.badge{flex-shrink:0;border-radius:999px;background:#f5f5f4;padding:.125rem .625rem;font-size:.75rem;font-weight:700}
/* The app's status colours (reservation-card.tsx): pending yellow, approved blue, active green, else grey/red. */
.pending{background:#fef9c3;color:#713f12}.approved{background:#dbeafe;color:#1e3a8a}.active{background:#dcfce7;color:#14532d}
.completed{background:#e7e5e4;color:#292524}.cancelled,.declined{background:#fee2e2;color:#7f1d1d}
.muted{color:#57534e;margin:.25rem 0}
.small{font-size:.875rem}
.code{margin-top:1rem;border:1px solid #bfdbfe;background:#eff6ff;border-radius:.75rem;padding:.75rem}
.label{margin:0;font-weight:600;color:#172554;font-size:.875rem}
.digits{margin:.25rem 0;font-family:ui-monospace,monospace;font-size:1.875rem;font-weight:700;letter-spacing:.3em}
.hint{margin:0;font-size:.875rem;color:#172554}
.actions{margin:1rem 0}
.button{display:inline-block;background:#047857;color:#fff;border-radius:.5rem;padding:.625rem 1rem;font-weight:600;text-decoration:none}
a:focus-visible{outline:3px solid #059669;outline-offset:2px}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
`;

const LOGO =
  '<svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true"><rect width="32" height="32" rx="8" fill="#047857"/>' +
  '<path d="M10 16a6 6 0 0 1 10.2-4.3M22 16a6 6 0 0 1-10.2 4.3" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/>' +
  '<path d="M20.5 8.5v3.6h-3.6M11.5 23.5v-3.6h3.6" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/></svg>';

/**
 * The whole offline document, in `locale`. `url` is the page that could not be loaded: "Try again" goes
 * back to it. Without a snapshot (nobody signed in here, or they signed out) it says only that the app
 * is offline.
 */
export function renderOfflinePage(
  snapshot: OfflineSnapshot | undefined,
  url: string,
  timeZone?: string,
  locale: Locale = DEFAULT_LOCALE,
): string {
  const i18n = createI18n(locale, { es: spanish });
  const speech: Speech = { i18n, intl: INTL_LOCALE[locale], timeZone };
  const seenAt = snapshot && snapshotTime(snapshot);
  const time = seenAt ? escapeHtml(formatSeenAt(seenAt, timeZone, speech.intl)) : '';
  const banner = seenAt
    ? t(i18n)`You're offline — showing what you last saw at ${time}`
    : t(i18n)`You're offline`;
  const fullName = snapshot ? escapeHtml(snapshot.user.fullName) : '';
  const body =
    snapshot && seenAt
      ? `<p class="muted">${t(i18n)`Signed in as ${fullName}. This copy is read-only: changes need a connection.`}</p>` +
        `${reservationsSection(snapshot, speech)}${conversationsSection(snapshot, speech)}`
      : `<p class="muted">${t(i18n)`CampusLoop needs a connection to show this page. Your reservations and conversations appear here offline once you have opened them while signed in.`}</p>`;
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="UTF-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">' +
    '<meta name="theme-color" content="#047857"><link rel="icon" type="image/svg+xml" href="/favicon.svg">' +
    '<link rel="manifest" href="/manifest.webmanifest">' +
    `<title>${t(i18n)`Offline · CampusLoop`}</title><style>${STYLES}</style></head><body>` +
    // i18n-ignore: brand
    `<header><div class="wrap"><a class="brand" href="/">${LOGO}<span>CampusLoop</span></a></div></header>` +
    `<main class="wrap"><h1>${seenAt ? t(i18n)`What you last saw` : t(i18n)`No connection`}</h1>` +
    `<p class="banner" role="status">${banner}</p>` +
    `<p class="actions"><a class="button" href="${escapeHtml(url)}">${t(i18n)`Try again`}</a></p>${body}</main></body></html>`
  );
}
