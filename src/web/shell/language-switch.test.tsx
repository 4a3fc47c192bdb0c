import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApi, stubApi } from '../../../tests/helpers/render-with-api.tsx';
import { ada } from '../../../tests/helpers/session-user.ts';
import { activateLocale } from '../lib/i18n.ts';
import { Footer } from './footer.tsx';

// The footer's language switch changes the whole app at once, remembers the choice
// for the server's next page (a cookie), and saves it on a signed-in person's account.

afterEach(async () => {
  cleanup();
  await activateLocale('en');
  // biome-ignore lint/suspicious/noDocumentCookie: the test clears the cookie the switch wrote.
  document.cookie = 'campusloop_lang=; path=/; max-age=0';
});

const languageCalls = () =>
  vi
    .mocked(fetch)
    .mock.calls.filter(([url]) => String(url) === '/api/account/language')
    .map(([, init]) => ({ method: init?.method, body: JSON.parse(String(init?.body)) }));

describe('the language switch', () => {
  it('turns the footer Spanish, remembers the choice, and saves it on the account', async () => {
    stubApi({
      '/api/auth/me': { body: { user: ada } },
      '/api/account/language': { body: { user: { ...ada, locale: 'es' } } },
    });
    renderWithApi(<Footer />);
    expect(screen.getByText('Share. Save. Sustain.')).toBeTruthy();
    await waitFor(() =>
      expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url) === '/api/auth/me')).toBe(true),
    );

    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'es' } });

    await waitFor(() => expect(screen.getByLabelText('Idioma')).toBeTruthy());
    expect(screen.queryByText('Share. Save. Sustain.')).toBeNull();
    expect(screen.getByRole('link', { name: 'Centro de ayuda' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('es');
    expect(document.cookie).toContain('campusloop_lang=es');
    await waitFor(() => expect(languageCalls()).toEqual([{ method: 'PUT', body: { locale: 'es' } }]));

    fireEvent.change(screen.getByLabelText('Idioma'), { target: { value: 'en' } });
    await waitFor(() => expect(screen.getByText('Share. Save. Sustain.')).toBeTruthy());
    expect(document.cookie).toContain('campusloop_lang=en');
  });

  it("keeps a visitor's choice in the browser only", async () => {
    stubApi({ '/api/auth/me': { body: { user: null } } });
    renderWithApi(<Footer />);
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'es' } });
    await waitFor(() => expect(screen.getByLabelText('Idioma')).toBeTruthy());
    expect(document.cookie).toContain('campusloop_lang=es');
    expect(languageCalls()).toEqual([]);
  });
});
