import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client.ts';
import ConfirmEmailPage from './confirm-email.tsx';

// The page an e-mail change link opens posts its token once and says what happened.

const TOKEN = 'YaEsCn29n_xh66Ph3BIB2_WeTdSJ_PwtxgVAhYTQ5c8';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function fakeApi(confirmAnswer: Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/auth/me') return json(200, { user: null });
    if (url === '/api/account/email/confirm') return confirmAnswer.clone();
    return json(404, { code: 'NOT_FOUND', message: 'Not found.' });
  });
}

function renderAt(path: string) {
  render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/confirm-email" element={<ConfirmEmailPage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the /confirm-email page', () => {
  it('sends the token once, even when React runs effects twice, and names the new address', async () => {
    const fetch = fakeApi(json(200, { success: true, email: 'ada.new@stanford.edu' }));
    renderAt(`/confirm-email?token=${TOKEN}`);
    await screen.findByRole('heading', { name: 'Your e-mail address has changed' });
    const calls = fetch.mock.calls.filter(([url]) => String(url) === '/api/account/email/confirm');
    expect(calls).toHaveLength(1);
    expect(JSON.parse(String(calls[0]![1]!.body))).toEqual({ token: TOKEN });
    expect(screen.getByText('ada.new@stanford.edu')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign In' })).toBeTruthy();
  });

  it("says the server's words for an expired link", async () => {
    fakeApi(
      json(410, {
        code: 'EMAIL_CHANGE_LINK_EXPIRED',
        message:
          'This e-mail change link has expired or was replaced by a newer one. Please ask for a new one in Account settings.',
      }),
    );
    renderAt(`/confirm-email?token=${TOKEN}`);
    await screen.findByRole('heading', { name: 'This link did not work' });
    expect(screen.getByRole('alert').textContent).toContain('has expired or was replaced');
  });

  it('sends nothing for a cut-off link', async () => {
    const fetch = fakeApi(json(200, {}));
    renderAt('/confirm-email?token=abc');
    await screen.findByRole('heading', { name: 'This link did not work' });
    // Only this page's own token counts: an earlier test's request may still be settling under load.
    const sentCutOff = fetch.mock.calls.some(
      ([url, init]) =>
        String(url) === '/api/account/email/confirm' && String(init?.body ?? '').includes('"abc"'),
    );
    expect(sentCutOff).toBe(false);
  });
});
