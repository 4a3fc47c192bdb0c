import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '#shared/schemas/auth.ts';
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
    render(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={['/notifications']}>
          <Routes>
            <Route path="/notifications" element={<NotificationsRoute />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch notifications');
    expect(screen.queryByText('No pending requests')).toBeNull();

    notificationsUp = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('No pending requests');
    expect(screen.queryByText('Failed to fetch notifications')).toBeNull();
  });
});
