import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '#shared/schemas/auth.ts';
import { activateLocale } from '../lib/i18n.ts';
import { createQueryClient } from '../lib/query-client.ts';
import NotificationsRoute from './notifications.tsx';

const student: PublicUser = {
  id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  email: 'ida.wells@stanford.edu',
  username: 'idaw',
  fullName: 'Ida Wells',
  campus: 'stanford.edu',
  campusName: 'Stanford University',
  profileImage: null,
  isVerified: true,
  createdAt: '2026-11-20T10:00:00.000Z',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/notifications']}>
        <Routes>
          <Route path="/notifications" element={<NotificationsRoute />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the /notifications page', () => {
  it("says 'Failed to fetch notifications' when they cannot be loaded, not 'No pending requests', and tries again", async () => {
    let notificationsUp = false;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/auth/me') return json(200, { user: student });
      if (url === '/api/notifications') {
        return notificationsUp
          ? json(200, { notifications: [] })
          : json(503, { code: 'SERVICE_UNAVAILABLE', message: 'The database is not answering.' });
      }
      return json(404, { code: 'NOT_FOUND', message: 'Not found.' });
    });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch notifications');
    expect(screen.queryByText('No pending requests')).toBeNull();

    notificationsUp = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('No pending requests');
    expect(screen.queryByText('Failed to fetch notifications')).toBeNull();
  });
});

describe('the /notifications page in Spanish', () => {
  beforeEach(async () => {
    await activateLocale('es');
  });
  afterEach(async () => {
    await activateLocale('en');
  });

  it('names its tabs, buttons, links and times in Spanish', async () => {
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60 * 1000).toISOString();
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input);
      if (url === '/api/auth/me') return json(200, { user: student });
      if (url === '/api/notifications') {
        return json(200, {
          notifications: [
            {
              id: '00000000-0000-4000-8000-000000000001',
              type: 'return_reminder',
              // The server writes the notification itself in the reader's language.
              title: 'Devuelve la taladradora mañana',
              message: 'Tu préstamo termina mañana.',
              relatedReservationId: '00000000-0000-4000-8000-0000000000aa',
              relatedItemId: null,
              isRead: false,
              createdAt: fiveMinutesAgo,
            },
          ],
        });
      }
      return json(404, { code: 'NOT_FOUND', message: 'Not found.' });
    });
    renderPage();

    await screen.findByText('Devuelve la taladradora mañana');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Notificaciones');
    expect(screen.getByRole('tab', { name: 'Solicitudes pendientes (0)' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Todas las notificaciones (1)' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Sin leer (1)', selected: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Marcar todo como leído \(1\)/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Marcar como leída' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Abrir la reserva' })).toBeTruthy();
    expect(screen.getByText('Nueva')).toBeTruthy();
    expect(screen.getByText('hace 5 minutos')).toBeTruthy();

    const text = document.body.textContent ?? '';
    for (const english of [
      'Notifications',
      'Unread',
      'Mark as read',
      'Open reservation',
      'minutes ago',
      'New',
    ]) {
      expect(text).not.toContain(english);
    }
  });
});
