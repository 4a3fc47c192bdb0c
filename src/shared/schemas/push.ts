import { t } from '@lingui/core/macro';
import { z } from 'zod';

// A device's Web Push subscription (what PushManager.subscribe answers, as JSON) and
// the one-click unsubscribe.

const key = (name: string) =>
  z
    .string({ error: () => t`The subscription's ${name} key is missing.` })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: () => t`The subscription's ${name} key is not base64url.` })
    .max(200, { error: () => t`The subscription's ${name} key is too long.` });

const endpoint = z
  .url({ protocol: /^https$/, error: () => t`The push endpoint must be an https address.` })
  .max(1000, { error: () => t`The push endpoint is too long.` });

export const pushSubscriptionInput = z.object({
  endpoint,
  keys: z.object(
    { p256dh: key('p256dh'), auth: key('auth') },
    { error: () => t`The subscription has no keys.` },
  ),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

export const pushEndpointInput = z.object({ endpoint });

export const pushStatusQuery = z.object({ endpoint: endpoint.optional() });

export const pushStatusResponse = z.object({
  /** The server has VAPID keys; false: push is off and the settings page says so. */
  available: z.boolean(),
  publicKey: z.string().nullable(),
  /** How many of the person's devices receive push. */
  devices: z.number().int(),
  /** The endpoint asked about is one of them. */
  thisDevice: z.boolean(),
});
export type PushStatus = z.infer<typeof pushStatusResponse>;

export const unsubscribeQuery = z.object({
  token: z
    .string({ error: () => t`This unsubscribe link is not valid.` })
    .min(1)
    .max(300, { error: () => t`This unsubscribe link is not valid.` }),
});
