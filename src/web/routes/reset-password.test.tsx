import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client.ts';
import ForgotPasswordPage from './forgot-password.tsx';
import ResetPasswordPage from './reset-password.tsx';

const TOKEN = 'YaEsCn29n_xh66Ph3BIB2_WeTdSJ_PwtxgVAhYTQ5c8';
const EMAIL = 'ida.wells@stanford.edu';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake API: signed out, and the answer the given call gets. */
function fakeApi(url: string, answer: Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    if (String(input) === '/api/auth/me') return json(200, { user: null });
    if (String(input) === url) return answer.clone();
    return json(404, { code: 'NOT_FOUND', message: 'Not found.' });
  });
}

function renderAt(path: string) {
  render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/reset-password" element={<ResetPasswordPage />} />
            <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}

const type = (label: string, value: string) =>
  fireEvent.input(screen.getByLabelText(label, { exact: true }), { target: { value } });

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the /reset-password page', () => {
  it('checks the two passwords match before sending anything', async () => {
    const fetch = fakeApi('/api/auth/password-reset/confirm', json(500, {}));
    renderAt(`/reset-password?token=${TOKEN}`);
    type('New Password', 'abc');
    type('Confirm New Password', 'abc');
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    await screen.findByText('Password must be at least 6 characters');
    type('New Password', 'chicago1892');
    type('Confirm New Password', 'chicago1893');
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    await screen.findByText('The passwords do not match');
    expect(fetch.mock.calls.some(([url]) => String(url) === '/api/auth/password-reset/confirm')).toBe(false);
  });

  it('sends the token with the new password and says the device is signed in', async () => {
    const fetch = fakeApi(
      '/api/auth/password-reset/confirm',
      json(200, { success: true, email: EMAIL, user: { id: 'x', email: EMAIL }, suspended: false }),
    );
    renderAt(`/reset-password?token=${TOKEN}`);
    type('New Password', 'chicago1892');
    type('Confirm New Password', 'chicago1892');
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    await screen.findByRole('heading', { name: 'Your password has been changed' });
    screen.getByText(/signed in as/);
    const call = fetch.mock.calls.find(([url]) => String(url) === '/api/auth/password-reset/confirm');
    expect(JSON.parse(String(call![1]!.body))).toEqual({ token: TOKEN, password: 'chicago1892' });
  });

  it('tells a suspended account it cannot sign in', async () => {
    fakeApi(
      '/api/auth/password-reset/confirm',
      json(200, { success: true, email: EMAIL, user: null, suspended: true }),
    );
    renderAt(`/reset-password?token=${TOKEN}`);
    type('New Password', 'chicago1892');
    type('Confirm New Password', 'chicago1892');
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    await screen.findByText(/This account is suspended, so you cannot sign in/);
  });

  it('says an expired link has expired and offers a new one', async () => {
    const message =
      'This password reset link has expired or was replaced by a newer one. Please request a new link.';
    fakeApi('/api/auth/password-reset/confirm', json(410, { code: 'PASSWORD_RESET_LINK_EXPIRED', message }));
    renderAt(`/reset-password?token=${TOKEN}`);
    type('New Password', 'chicago1892');
    type('Confirm New Password', 'chicago1892');
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    await screen.findByRole('heading', { name: 'This link has expired' });
    screen.getByText(message);
    fireEvent.click(screen.getByRole('link', { name: 'Request a new link' }));
    await screen.findByRole('heading', { name: 'Forgot your password?' });
  });

  it('knows a cut-off link without asking the server', async () => {
    renderAt('/reset-password?token=abc');
    await screen.findByRole('heading', { name: 'This link is not complete' });
    expect(screen.queryByLabelText('New Password')).toBeNull();
  });
});

describe('the /forgot-password page', () => {
  it('shows the one answer on the page, and sends another link on request', async () => {
    const message = `If an account uses ${EMAIL}, we've sent a link to reset its password.`;
    fakeApi('/api/auth/password-reset', json(200, { success: true, email: EMAIL, message }));
    renderAt('/forgot-password');
    type('University Email', EMAIL);
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    await screen.findByText(message);
    fireEvent.click(screen.getByRole('button', { name: 'Send another link' }));
    expect((await screen.findByLabelText('University Email')) as HTMLInputElement).toHaveProperty(
      'value',
      EMAIL,
    );
  });

  it('shows a rate limit where the form is', async () => {
    const message =
      'Too many password reset requests from this network. Please wait 60 minutes and try again.';
    fakeApi('/api/auth/password-reset', json(429, { code: 'RATE_LIMITED', message }));
    renderAt('/forgot-password');
    type('University Email', EMAIL);
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
  });
});
