import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '#shared/schemas/auth.ts';
import { VerifyEmailBanner } from '../features/email-verification/components/verify-email-banner.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import VerifyEmailPage from './verify-email.tsx';

const TOKEN = 'YaEsCn29n_xh66Ph3BIB2_WeTdSJ_PwtxgVAhYTQ5c8';

const student: PublicUser = {
  id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  email: 'ida.wells@stanford.edu',
  username: 'idaw',
  fullName: 'Ida Wells',
  campus: 'stanford.edu',
  campusName: 'Stanford University',
  profileImage: null,
  isVerified: false,
  createdAt: '2026-11-20T10:00:00.000Z',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake API: the session, and the answer the verification call gets. */
function fakeApi(session: PublicUser | null, verifyAnswer: Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/api/auth/me') return json(200, { user: session });
    if (url === '/api/auth/verify-email') return verifyAnswer.clone();
    return json(404, { code: 'NOT_FOUND', message: 'Not found.' });
  });
}

function renderAt(path: string) {
  render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          <VerifyEmailBanner />
          <Routes>
            <Route path="/verify-email" element={<VerifyEmailPage />} />
            <Route path="/" element={<p>Home</p>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}

afterEach(cleanup);

describe('the /verify-email page', () => {
  it('sends the token once, even when React runs effects twice, and says it worked', async () => {
    const fetch = fakeApi(null, json(200, { success: true, email: student.email }));
    renderAt(`/verify-email?token=${TOKEN}`);
    await screen.findByRole('heading', { name: 'Your e-mail is verified' });
    const calls = fetch.mock.calls.filter(([url]) => String(url) === '/api/auth/verify-email');
    expect(calls).toHaveLength(1);
    expect(JSON.parse(String(calls[0]![1]!.body))).toEqual({ token: TOKEN });
    expect(screen.getByText(student.email)).toBeTruthy();
    // Signed out: the way on is to sign in.
    expect(screen.getByRole('link', { name: 'Sign In' })).toBeTruthy();
  });

  it('explains an expired link and offers its signed-in owner a new one', async () => {
    fakeApi(
      student,
      json(410, {
        code: 'VERIFICATION_LINK_EXPIRED',
        message:
          'This verification link has expired or was replaced by a newer one. Please request a new link.',
      }),
    );
    renderAt(`/verify-email?token=${TOKEN}`);
    await screen.findByRole('heading', { name: 'This link has expired' });
    expect(screen.getByRole('alert').textContent).toBe(
      'This verification link has expired or was replaced by a newer one. Please request a new link.',
    );
    await screen.findByRole('button', { name: 'Resend' });
    // The page speaks for itself: no second Resend in a banner above it.
    expect(screen.queryByRole('region', { name: 'E-mail verification' })).toBeNull();
  });

  it('calls nothing without a token and says the link is incomplete', async () => {
    const fetch = fakeApi(null, json(200, {}));
    renderAt('/verify-email');
    await screen.findByRole('heading', { name: 'This link is not complete' });
    // Only this page's calls: on a busy machine an earlier test's page, whose token is TOKEN, was seen
    // reaching this test's fetch. This page has no token, so anything it sent would carry another.
    const sentHere = fetch.mock.calls.filter(
      ([url, init]) => String(url) === '/api/auth/verify-email' && !String(init?.body ?? '').includes(TOKEN),
    );
    expect(sentHere).toEqual([]);
  });
});

describe('the verification banner', () => {
  it('shows an unverified student where the link went, with Resend', async () => {
    fakeApi(student, json(200, {}));
    renderAt('/');
    const banner = await screen.findByRole('region', { name: 'E-mail verification' });
    expect(banner.textContent).toContain('Verify your university e-mail.');
    expect(banner.textContent).toContain(student.email);
    expect(screen.getByRole('button', { name: 'Resend' })).toBeTruthy();
  });

  it('is not there for a verified student', async () => {
    fakeApi({ ...student, isVerified: true }, json(200, {}));
    renderAt('/');
    await screen.findByText('Home');
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('region', { name: 'E-mail verification' })).toBeNull();
  });
});
