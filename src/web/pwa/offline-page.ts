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
// the snapshot is escaped.

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

const STATUS_LABELS: Record<OfflineReservation['status'], string> = {
  pending: 'Pending',
  approved: 'Approved',
  active: 'Active',
  returned: 'Returned',
  claimed: 'Claim open',
  disputed: 'In dispute',
  completed: 'Completed',
  cancelled: 'Cancelled',
  declined: 'Declined',
};

/** 'Nov 24, 2026, 11:40 AM' in the reader's own time zone (a test passes one). */
export function formatSeenAt(iso: string, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** A calendar day 'YYYY-MM-DD' as 'Dec 1, 2026' (a day, so in UTC: no zone moves it). */
function formatDay(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

function reservationCard(r: OfflineReservation): string {
  const code = r.pickupCode
    ? `<div class="code"><p class="label">Pickup Code:</p>` +
      `<p class="digits" aria-hidden="true">${escapeHtml(r.pickupCode)}</p>` +
      `<p class="sr-only">${escapeHtml(r.pickupCode.split('').join(' '))}</p>` +
      `<p class="hint">Show this code to the lender when you collect the item.</p></div>`
    : '';
  return (
    `<li class="card"><div class="row"><h3>${escapeHtml(r.itemTitle)}</h3>` +
    `<span class="badge ${escapeHtml(r.status)}">${escapeHtml(STATUS_LABELS[r.status] ?? r.status)}</span></div>` +
    `<p class="muted">${r.role === 'borrower' ? 'Borrowing from' : 'Lending to'} ${escapeHtml(r.otherName)}</p>` +
    `<p class="muted">${escapeHtml(formatDay(r.startDate))} – ${escapeHtml(formatDay(r.endDate))}</p>` +
    `${code}</li>`
  );
}

function reservationsSection(snapshot: OfflineSnapshot): string {
  const list = snapshot.reservations?.list;
  if (!list) return '';
  const part = (role: OfflineReservation['role'], title: string, empty: string) => {
    const mine = list.filter((r) => r.role === role);
    return (
      `<h3 class="sub">${title}</h3>` +
      (mine.length
        ? `<ul class="list">${mine.map(reservationCard).join('')}</ul>`
        : `<p class="muted">${empty}</p>`)
    );
  };
  return (
    `<section aria-labelledby="offline-reservations"><h2 id="offline-reservations">My Reservations</h2>` +
    part('borrower', 'Borrowing', 'No borrowing reservations') +
    part('provider', 'Lending', 'No lending reservations') +
    `</section>`
  );
}

function conversationItem(c: OfflineConversation, timeZone?: string): string {
  return (
    `<li class="card"><div class="row"><h3>${escapeHtml(c.otherName)}</h3>` +
    (c.unreadCount > 0 ? `<span class="badge">${c.unreadCount} unread</span>` : '') +
    `</div>` +
    `<p class="muted">${c.itemTitle ? escapeHtml(c.itemTitle) : 'Item not found'}</p>` +
    (c.lastMessage ? `<p>${escapeHtml(c.lastMessage)}</p>` : '<p class="muted">No messages yet</p>') +
    `<p class="muted small">${escapeHtml(formatSeenAt(c.lastMessageAt, timeZone))}</p></li>`
  );
}

function conversationsSection(snapshot: OfflineSnapshot, timeZone?: string): string {
  const list = snapshot.conversations?.list;
  if (!list) return '';
  return (
    `<section aria-labelledby="offline-conversations"><h2 id="offline-conversations">Recent conversations</h2>` +
    (list.length
      ? `<ul class="list">${list
          .slice(0, 20)
          .map((c) => conversationItem(c, timeZone))
          .join('')}</ul>`
      : '<p class="muted">No conversations yet</p>') +
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
 * The whole offline document. `url` is the page that could not be loaded: "Try again" goes back to it.
 * Without a snapshot (nobody signed in here, or they signed out) it says only that the app is offline.
 */
export function renderOfflinePage(
  snapshot: OfflineSnapshot | undefined,
  url: string,
  timeZone?: string,
): string {
  const seenAt = snapshot && snapshotTime(snapshot);
  const banner = seenAt
    ? `You're offline — showing what you last saw at ${escapeHtml(formatSeenAt(seenAt, timeZone))}`
    : "You're offline";
  const body =
    snapshot && seenAt
      ? `<p class="muted">Signed in as ${escapeHtml(snapshot.user.fullName)}. This copy is read-only: ` +
        `changes need a connection.</p>${reservationsSection(snapshot)}${conversationsSection(snapshot, timeZone)}`
      : '<p class="muted">CampusLoop needs a connection to show this page. Your reservations and ' +
        'conversations appear here offline once you have opened them while signed in.</p>';
  return (
    '<!doctype html><html lang="en"><head><meta charset="UTF-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">' +
    '<meta name="theme-color" content="#047857"><link rel="icon" type="image/svg+xml" href="/favicon.svg">' +
    '<link rel="manifest" href="/manifest.webmanifest">' +
    `<title>Offline · CampusLoop</title><style>${STYLES}</style></head><body>` +
    `<header><div class="wrap"><a class="brand" href="/">${LOGO}<span>CampusLoop</span></a></div></header>` +
    `<main class="wrap"><h1>${seenAt ? 'What you last saw' : 'No connection'}</h1>` +
    `<p class="banner" role="status">${banner}</p>` +
    `<p class="actions"><a class="button" href="${escapeHtml(url)}">Try again</a></p>${body}</main></body></html>`
  );
}
