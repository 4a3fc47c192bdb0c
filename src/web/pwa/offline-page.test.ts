import { describe, expect, it } from 'vitest';
import { OFFLINE_PAGE_CSP, renderOfflinePage } from './offline-page.ts';
import type { OfflineSnapshot } from './offline-snapshot.ts';

// The worker's offline page (decision 028): the last snapshot, read-only, with when it was seen; nothing
// from the snapshot can become markup; no script at all.

const snapshot: OfflineSnapshot = {
  user: { id: 'u1', fullName: 'Jordan Lee' },
  reservations: {
    savedAt: '2026-11-24T19:40:00.000Z',
    list: [
      {
        id: 'r1',
        role: 'borrower',
        itemTitle: 'Camping lantern',
        status: 'approved',
        startDate: '2026-12-14',
        endDate: '2026-12-16',
        otherName: 'Maya Chen',
        pickupCode: '312844',
      },
      {
        id: 'r2',
        role: 'provider',
        itemTitle: 'Bean bag <b>chair</b>',
        status: 'pending',
        startDate: '2026-12-01',
        endDate: '2026-12-02',
        otherName: 'Priya "P" Patel',
        pickupCode: null,
      },
    ],
  },
  conversations: {
    savedAt: '2026-11-24T19:45:00.000Z',
    list: [
      {
        id: 'c1',
        otherName: 'Maya Chen',
        itemTitle: null,
        lastMessage: '<script>alert(1)</script> see you at 5',
        lastMessageAt: '2026-11-24T19:30:00.000Z',
        unreadCount: 2,
      },
    ],
  },
};

describe('the offline page', () => {
  it('says it is offline and when the copy was seen (the newer of the two lists), in the reader’s zone', () => {
    const html = renderOfflinePage(snapshot, 'http://localhost/reservations', 'America/Los_Angeles');
    expect(html).toContain("You're offline — showing what you last saw at Nov 24, 2026, 11:45 AM</p>");
    expect(html).toContain('Signed in as Jordan Lee.');
    expect(html).toContain('href="http://localhost/reservations">Try again</a>');
  });

  it('shows the borrower’s pickup code and both sides of the reservations', () => {
    const html = renderOfflinePage(snapshot, '/', 'UTC');
    expect(html).toContain('<p class="digits" aria-hidden="true">312844</p>');
    expect(html).toContain('<p class="sr-only">3 1 2 8 4 4</p>');
    expect(html).toContain('Borrowing from Maya Chen');
    expect(html).toContain('Dec 14, 2026 – Dec 16, 2026');
    expect(html).toContain('Lending to Priya &quot;P&quot; Patel');
    expect(html).toContain('Item not found');
    expect(html).toContain('2 unread');
  });

  it('escapes everything that came from the snapshot and runs no script', () => {
    const html = renderOfflinePage(snapshot, '/"><script>x()</script>', 'UTC');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>chair</b>');
    expect(html).toContain('Bean bag &lt;b&gt;chair&lt;/b&gt;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; see you at 5');
    expect(OFFLINE_PAGE_CSP).toContain("script-src 'none'");
  });

  it('without a snapshot (nobody signed in here, or they signed out) shows no one’s data', () => {
    const html = renderOfflinePage(undefined, '/chat');
    expect(html).toContain(">You're offline</p>");
    expect(html).toContain('CampusLoop needs a connection to show this page.');
    expect(html).not.toContain('Signed in as');
    expect(html).not.toContain('My Reservations');
  });

  it('shows only the lists that were seen: a person who opened only their reservations', () => {
    const html = renderOfflinePage({ ...snapshot, conversations: undefined }, '/', 'UTC');
    expect(html).toContain('My Reservations');
    expect(html).not.toContain('Recent conversations');
    expect(html).toContain('last saw at Nov 24, 2026, 7:40 PM');
  });

  it('speaks the language it is given: Spanish words, dates and lang', () => {
    const html = renderOfflinePage(snapshot, '/reservations', 'America/Los_Angeles', 'es');
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('<title>Sin conexión · CampusLoop</title>');
    expect(html).toContain('Estás sin conexión: se muestra lo que viste por última vez el 24 nov 2026');
    expect(html).toContain('Sesión iniciada como Jordan Lee.');
    expect(html).toContain('Mis reservas');
    expect(html).toContain('Pides prestado a Maya Chen');
    expect(html).toContain('Prestas a Priya &quot;P&quot; Patel');
    expect(html).toContain('Código de recogida:');
    expect(html).toContain('>Aprobada</span>');
    expect(html).toContain('2 sin leer');
    expect(html).toContain('>Intentar de nuevo</a>');
    for (const english of ["You're offline", 'My Reservations', 'Borrowing from', 'Pickup Code', 'unread'])
      expect(html).not.toContain(english);
    // Escaped all the same.
    expect(html).toContain('Bean bag &lt;b&gt;chair&lt;/b&gt;');
  });
});
