import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountResponse, AccountSession } from '#shared/schemas/account.ts';
import type { SessionUser } from '#shared/schemas/auth.ts';
import { renderWithApi, stubApi } from '../../../tests/helpers/render-with-api.tsx';
import { ada as student } from '../../../tests/helpers/session-user.ts';
import SettingsRoute from './settings.tsx';

// The settings page with real-looking answers: its sections, the sessions list and its "Sign out of
// other sessions", the e-mail choices, and what it says when it cannot load.

const ada: SessionUser = {
  ...student,
  profileImage: '/uploads/avatars/2026/11/0b6f8c1e-9d7a-4e2b-8f3c-5a6d7e8f9a0b.jpg',
};

const account: AccountResponse = {
  user: ada,
  pendingEmail: 'ada.king@stanford.edu',
  preferences: [
    {
      kind: 'account_security',
      label: 'Account and security',
      description: 'Always sent.',
      required: true,
      email: true,
      push: null,
    },
    {
      kind: 'account_activity',
      label: 'Password changes',
      description: 'A note.',
      required: false,
      email: true,
      push: null,
    },
    {
      kind: 'reminders',
      label: 'Reminders',
      description: 'Pickups and returns coming up.',
      required: false,
      email: true,
      push: true,
    },
  ],
};

const pushOff = { available: false, publicKey: null, devices: 0, thisDevice: false };

const now = Date.now();
const sessions: AccountSession[] = [
  {
    id: '7d0f3c2a-1b4e-4c5d-8e9f-0a1b2c3d4e5f',
    device: 'Chrome on Linux',
    createdAt: new Date(now - 86_400_000).toISOString(),
    lastUsedAt: new Date(now).toISOString(),
    current: true,
  },
  {
    id: '8e1a4d3b-2c5f-4d6e-9f0a-1b2c3d4e5f60',
    device: 'Safari on iPhone',
    createdAt: new Date(now - 3 * 86_400_000).toISOString(),
    lastUsedAt: new Date(now - 2 * 3_600_000).toISOString(),
    current: false,
  },
];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the /settings page', () => {
  it('shows the person, the pending address, the e-mail choices and the sessions', async () => {
    let signedOutOthers = false;
    const api = stubApi({
      '/api/auth/me': { body: { user: ada } },
      '/api/account': { body: account },
      '/api/push/status': { body: pushOff },
      '/api/account/sessions': () => ({
        body: { sessions: signedOutOthers ? sessions.slice(0, 1) : sessions },
      }),
      '/api/account/sessions/sign-out-others': () => {
        signedOutOthers = true;
        return { body: { success: true, ended: 1 } };
      },
    });
    renderWithApi(<SettingsRoute />, '/settings');
    await screen.findByRole('heading', { name: 'Account Settings', level: 1 });
    await screen.findByRole('heading', { name: 'Profile' });
    expect((screen.getByLabelText('Full Name') as HTMLInputElement).value).toBe('Ada Lovelace');
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('ada');
    // The profile-size avatar is the photo itself.
    expect(document.querySelector(`img[src="${ada.profileImage}"]`)).not.toBeNull();
    expect(screen.getByText('ada.king@stanford.edu')).toBeTruthy();

    const security = screen.getByLabelText(/Account and security/) as HTMLInputElement;
    expect([security.checked, security.disabled]).toEqual([true, true]);
    const activity = screen.getByLabelText('Password changes: e-mail') as HTMLInputElement;
    expect([activity.checked, activity.disabled]).toEqual([true, false]);

    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Chrome on LinuxThis device'),
      expect.stringContaining('Last active about 2 hours ago'),
    ]);
    expect(within(rows[0]!).queryByRole('button')).toBeNull();
    expect(within(rows[1]!).getByRole('button', { name: 'Sign out Safari on iPhone' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Sign out of other sessions' }));
    await screen.findByText('You are signed in on this device only.');
    expect(api.calls).toContain('/api/account/sessions/sign-out-others');
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
  });

  it('says when the server has no push, and keeps e-mail and push choices apart', async () => {
    const sent: unknown[] = [];
    stubApi({
      '/api/auth/me': { body: { user: ada } },
      '/api/account': { body: account },
      '/api/push/status': { body: pushOff },
      '/api/account/sessions': { body: { sessions } },
      '/api/account/notification-preferences': () => ({
        body: {
          preferences: account.preferences.map((p) => (p.kind === 'reminders' ? { ...p, push: false } : p)),
        },
      }),
    });
    const fetchMock = globalThis.fetch as unknown as { mock: { calls: [string, RequestInit?][] } };
    renderWithApi(<SettingsRoute />, '/settings');
    const device = await screen.findByRole('switch', { name: 'Push notifications on this device' });
    await screen.findByText(/Push notifications are off on this server/);
    expect((device as HTMLButtonElement).disabled).toBe(true);
    expect(device.getAttribute('aria-checked')).toBe('false');
    // Account kinds have no push choice; notification kinds have both.
    expect(screen.queryByLabelText('Password changes: push')).toBeNull();
    const reminderPush = screen.getByLabelText('Reminders: push') as HTMLInputElement;
    expect(reminderPush.checked).toBe(true);
    fireEvent.click(reminderPush);
    await waitFor(() =>
      expect((screen.getByLabelText('Reminders: push') as HTMLInputElement).checked).toBe(false),
    );
    for (const [url, init] of fetchMock.mock.calls) {
      if (url === '/api/account/notification-preferences') sent.push(JSON.parse(String(init?.body)));
    }
    expect(sent).toEqual([{ kind: 'reminders', push: false }]);
    expect((screen.getByLabelText('Reminders: e-mail') as HTMLInputElement).checked).toBe(true);
  });

  it('turns push on for this device: asks the browser, subscribes, tells the server', async () => {
    const subscription = {
      endpoint: 'https://push.example.net/send/abc',
      toJSON: () => ({ endpoint: 'https://push.example.net/send/abc', keys: { p256dh: 'BPk', auth: 'xyz' } }),
      unsubscribe: async () => true,
    };
    let subscribed = false;
    const requestPermission = vi.fn(async () => 'granted');
    vi.stubGlobal('Notification', { requestPermission });
    vi.stubGlobal('PushManager', class {});
    const subscribe = vi.fn(async () => {
      subscribed = true;
      return subscription;
    });
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        getRegistration: async () => ({
          pushManager: { getSubscription: async () => (subscribed ? subscription : null), subscribe },
        }),
      },
    });
    const on = {
      available: true,
      publicKey: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
      devices: 1,
      thisDevice: true,
    };
    stubApi({
      '/api/auth/me': { body: { user: ada } },
      '/api/account': { body: account },
      '/api/push/status': { body: { ...on, devices: 0, thisDevice: false } },
      [`/api/push/status?endpoint=${encodeURIComponent(subscription.endpoint)}`]: { body: on },
      '/api/push/subscriptions': { body: { subscribed: true } },
      '/api/account/sessions': { body: { sessions } },
    });
    try {
      renderWithApi(<SettingsRoute />, '/settings');
      const device = await screen.findByRole('switch', { name: 'Push notifications on this device' });
      await waitFor(() => expect((device as HTMLButtonElement).disabled).toBe(false));
      fireEvent.click(device);
      await waitFor(() => expect(device.getAttribute('aria-checked')).toBe('true'));
      await screen.findByText(/This device shows your notifications/);
      expect(requestPermission).toHaveBeenCalled();
      expect(subscribe).toHaveBeenCalledWith(expect.objectContaining({ userVisibleOnly: true }));
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });

  it('says when the settings cannot be loaded, and tries again', async () => {
    let up = false;
    stubApi({
      '/api/auth/me': { body: { user: ada } },
      '/api/account': () =>
        up ? { body: account } : { status: 503, body: { code: 'UNAVAILABLE', message: 'Down.' } },
      '/api/push/status': { body: pushOff },
      '/api/account/sessions': { body: { sessions } },
    });
    renderWithApi(<SettingsRoute />, '/settings');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your settings could not be loaded.');
    up = true;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { name: 'Profile' });
  });

  it('asks a signed-out visitor to sign in', async () => {
    stubApi({ '/api/auth/me': { body: { user: null } } });
    renderWithApi(<SettingsRoute />, '/settings');
    await screen.findByRole('heading', { name: 'Authentication Required' });
  });
});
