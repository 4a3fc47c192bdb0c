import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccountResponse, AccountSession } from '#shared/schemas/account.ts';
import type { SessionUser } from '#shared/schemas/auth.ts';
import type { BillingEntry } from '#shared/schemas/payments.ts';
import { renderWithApi, stubApi } from '../../../tests/helpers/render-with-api.tsx';
import { ada as student } from '../../../tests/helpers/session-user.ts';
import { activateLocale, i18n } from '../lib/i18n.ts';
import BillingHistoryRoute from './billing-history.tsx';
import LoginPage from './login.tsx';
import SettingsRoute from './settings.tsx';

// The account pages in Spanish (settings with its language card, sign-in, billing history with its dates
// and amounts), and none of their English left.

const ada: SessionUser = { ...student, locale: 'es' };

const account: AccountResponse = {
  user: ada,
  pendingEmail: null,
  preferences: [
    {
      kind: 'reminders',
      label: 'Recordatorios',
      description: 'Recogidas y devoluciones próximas.',
      required: false,
      email: true,
      push: true,
    },
  ],
};

const now = Date.now();
const sessions: AccountSession[] = [
  {
    id: '7d0f3c2a-1b4e-4c5d-8e9f-0a1b2c3d4e5f',
    device: 'Chrome on Linux',
    createdAt: '2026-11-20T10:00:00.000Z',
    lastUsedAt: new Date(now).toISOString(),
    current: true,
  },
  {
    id: '8e1a4d3b-2c5f-4d6e-9f0a-1b2c3d4e5f60',
    device: 'Safari on iPhone',
    createdAt: '2026-11-18T10:00:00.000Z',
    lastUsedAt: new Date(now - 2 * 3_600_000).toISOString(),
    current: false,
  },
];

const pushOff = { available: false, publicKey: null, devices: 0, thisDevice: false };

beforeEach(async () => {
  await activateLocale('es');
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await activateLocale('en');
});

describe('the account pages in Spanish', () => {
  it('shows the settings page, its language card and its sessions in Spanish', async () => {
    stubApi({
      '/api/auth/me': { body: { user: ada } },
      '/api/account': { body: account },
      '/api/push/status': { body: pushOff },
      '/api/account/sessions': { body: { sessions } },
    });
    renderWithApi(<SettingsRoute />, '/settings');
    await screen.findByRole('heading', { name: 'Configuración de la cuenta', level: 1 });
    await screen.findByRole('heading', { name: 'Perfil' });
    expect(screen.getByLabelText('Nombre completo')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cambiar contraseña' })).toBeTruthy();

    const language = screen.getByRole('region', { name: 'Idioma' });
    expect(language.textContent).toContain('Tus correos y notificaciones también estarán en este idioma.');
    const select = within(language).getByRole('combobox') as HTMLSelectElement;
    expect(select.value).toBe('es');

    expect(screen.getByLabelText('Recordatorios: correo')).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Dispositivos con sesión iniciada' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]?.textContent).toContain('Este dispositivo');
    expect(rows[0]?.textContent).toContain('Activa ahora · Sesión iniciada el 20 nov 2026');
    // date-fns in Spanish: 'hace alrededor de 2 horas'.
    expect(rows[1]?.textContent).toMatch(/Última actividad hace .*2 horas/);
    expect(within(rows[1]!).getByRole('button', { name: 'Cerrar sesión en Safari on iPhone' })).toBeTruthy();

    const text = document.body.textContent ?? '';
    for (const english of ['Account Settings', 'Active Sessions', 'Signed in', 'Last active', 'Language']) {
      expect(text).not.toContain(english);
    }
  });

  it('switches the settings page back to English from its language card', async () => {
    stubApi({
      '/api/auth/me': { body: { user: ada } },
      '/api/account': { body: account },
      '/api/push/status': { body: pushOff },
      '/api/account/sessions': { body: { sessions } },
      '/api/account/language': { body: { success: true } },
    });
    renderWithApi(<SettingsRoute />, '/settings');
    const language = await screen.findByRole('region', { name: 'Idioma' });
    fireEvent.change(within(language).getByRole('combobox'), { target: { value: 'en' } });
    await screen.findByRole('heading', { name: 'Account Settings', level: 1 });
    expect(i18n.locale).toBe('en');
    expect(screen.getByRole('region', { name: 'Language' }).textContent).toContain(
      'Your e-mails and notifications will be in this language too.',
    );
  });

  it('signs in in Spanish', async () => {
    stubApi({ '/api/auth/me': { body: { user: null } } });
    renderWithApi(<LoginPage />, '/login');
    expect(screen.getByLabelText('Correo universitario')).toBeTruthy();
    expect(screen.getByLabelText('Contraseña')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Iniciar sesión' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '¿Olvidaste tu contraseña?' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Crea una cuenta' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/Sign In|Password|University Email/);
  });

  it('writes billing rows, their dates and amounts in Spanish', async () => {
    const entry: BillingEntry = {
      id: '0f1e2d3c-4b5a-4697-8877-665544332211',
      reservationId: null,
      kind: 'payment',
      status: 'completed',
      amount: '1234.50',
      currency: 'usd',
      description: 'Taladro inalámbrico',
      serviceFee: null,
      createdAt: '2026-11-20T18:30:00.000Z',
      stripePaymentIntentId: 'pi_test_0123456789abcdef',
      refundId: null,
      paymentMethodType: 'card',
      paymentMethodLast4: '4242',
      refundAmount: null,
      refundedAt: null,
    };
    stubApi({
      '/api/auth/me': { body: { user: ada } },
      '/api/billing-history': { body: { transactions: [entry] } },
    });
    renderWithApi(<BillingHistoryRoute />, '/billing-history');
    await screen.findByRole('heading', { name: 'Historial de facturación', level: 1 });
    const card = (await screen.findByRole('heading', { name: 'Taladro inalámbrico' })).closest('li')!;
    await waitFor(() => expect(card.textContent).toContain('Pagado'));
    expect(card.textContent).toContain('Cobrado a tu tarjeta');
    expect(card.textContent).toContain('Con tarjeta •••• 4242');
    expect(card.textContent).toContain('−$1,234.50');
    // 10:30 in Los Angeles (the tests' time zone), written as es-US writes it.
    expect(card.textContent).toMatch(/20 nov 2026, 10:30/);
    expect(card.textContent).not.toMatch(/Paid|Charged|Via|Payment ID| at /);
  });
});
