import { t } from '@lingui/core/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PushStatus } from '#shared/schemas/push.ts';
import { api, apiRequest } from '../../lib/api.ts';

// "Push notifications on this device" (decision 032): this browser's push subscription, made through the
// app's service worker with the server's VAPID key, and told to the server (or forgotten).

export const pushStatusKey = ['/api/push/status'] as const;

/** The browser can receive Web Push at all (service worker, PushManager, notifications). */
export function pushSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  );
}

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!pushSupported()) return undefined;
  return navigator.serviceWorker.getRegistration();
}

async function currentSubscription(): Promise<PushSubscription | null> {
  return (await (await registration())?.pushManager.getSubscription()) ?? null;
}

/** VAPID's public key arrives as base64url; PushManager wants the bytes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export function usePushStatus() {
  return useQuery({
    queryKey: pushStatusKey,
    queryFn: async () => {
      const endpoint = (await currentSubscription().catch(() => null))?.endpoint;
      const query = endpoint ? `?endpoint=${encodeURIComponent(endpoint)}` : '';
      return api.get<PushStatus>(`/api/push/status${query}`);
    },
  });
}

export class PushRefused extends Error {}

export function useSetPushOnThisDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ on, publicKey }: { on: boolean; publicKey: string | null }) => {
      if (!on) {
        const subscription = await currentSubscription();
        if (subscription) {
          await apiRequest('DELETE', '/api/push/subscriptions', { endpoint: subscription.endpoint });
          await subscription.unsubscribe();
        }
        return;
      }
      if (!publicKey) throw new PushRefused(t`Push notifications are off on this server.`);
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        throw new PushRefused(
          t`Your browser blocks notifications from CampusLoop. Allow them in the site settings, then try again.`,
        );
      }
      const worker = await registration();
      if (!worker)
        throw new PushRefused(t`Push needs the installed app files. Reload the page and try again.`);
      const subscription =
        (await worker.pushManager.getSubscription()) ??
        (await worker.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(publicKey),
        }));
      await api.post('/api/push/subscriptions', subscription.toJSON());
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: pushStatusKey }),
  });
}
