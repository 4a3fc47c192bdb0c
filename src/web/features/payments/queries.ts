import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BillingEntry, ClientConfig, SavedPaymentMethod, TestCard } from '#shared/schemas/payments.ts';
import { api } from '../../lib/api.ts';
import { clientConfigKey, useClientConfigPart } from '../../lib/client-config.ts';

// Payments (spec §7): which card form to show, saved cards, billing history. Every change to the
// saved cards refetches their list (spec §7: related lists are refetched after a mutation).

export const paymentKeys = {
  config: clientConfigKey,
  methods: ['/api/payment-methods'] as const,
  billing: ['/api/billing-history'] as const,
};

/** The provider the card forms talk to: the built-in test provider, or Stripe with its publishable key. */
export function useClientConfig() {
  return useClientConfigPart(paymentsPart);
}

const paymentsPart = (config: ClientConfig) => config.payments;

export function usePaymentMethods() {
  return useQuery({
    queryKey: paymentKeys.methods,
    queryFn: async () =>
      (await api.get<{ paymentMethods: SavedPaymentMethod[] }>('/api/payment-methods')).paymentMethods,
  });
}

export function useBillingHistory() {
  return useQuery({
    queryKey: paymentKeys.billing,
    queryFn: async () =>
      (await api.get<{ transactions: BillingEntry[] }>('/api/billing-history')).transactions,
  });
}

function useRefreshMethods() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: paymentKeys.methods });
}

export function useSetDefaultPaymentMethod() {
  const refresh = useRefreshMethods();
  return useMutation({
    mutationFn: (id: string) =>
      api.put<{ success: true }>(`/api/payment-methods/${encodeURIComponent(id)}`, { isDefault: true }),
    onSuccess: refresh,
  });
}

export function useDeletePaymentMethod() {
  const refresh = useRefreshMethods();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<{ success: true }>(`/api/payment-methods/${encodeURIComponent(id)}`),
    onSuccess: refresh,
  });
}

/** Step 1 of adding a card: a SetupIntent for the card form to confirm. */
export function useCreateSetupIntent() {
  return useMutation({
    mutationFn: () =>
      api.post<{ clientSecret: string; setupIntentId: string }>('/api/payment-methods/setup-intent'),
  });
}

/** The test provider's stand-in for Stripe.js: confirms a SetupIntent with a test card. */
export function confirmTestSetup(setupIntentId: string, card: TestCard) {
  return api.post<{ status: 'succeeded'; setupIntentId: string }>('/api/payments/test/confirm-setup', {
    setupIntentId,
    card,
  });
}

/** The test provider's stand-in for Stripe.js: authorises a PaymentIntent with a test card. */
export function confirmTestPayment(paymentIntentId: string, card: TestCard) {
  return api.post<{ status: string; paymentIntentId: string; nextActionUrl?: string | null }>(
    '/api/payments/test/confirm',
    { paymentIntentId, card },
  );
}

/**
 * Checkout with a saved card: the server authorises the checkout's intent with it. Pressing
 * Pay twice confirms once (the server's idempotency); `nextActionUrl` is the bank's page when it asks.
 */
export function payWithSavedCard(paymentIntentId: string, paymentMethodId: string) {
  return api.post<{ status: string; paymentIntentId: string; nextActionUrl?: string | null }>(
    '/api/payments/saved-card',
    { paymentIntentId, paymentMethodId },
  );
}

/** The test bank's 3-D Secure page: the cardholder approves or refuses the payment. */
export function authenticateTestPayment(paymentIntentId: string, approved: boolean) {
  return api.post<{ status: string; paymentIntentId: string }>('/api/payments/test/authenticate', {
    paymentIntentId,
    approved,
  });
}

/** Step 2 of adding a card: the confirmed SetupIntent's card joins the list. */
export function useSavePaymentMethod() {
  const refresh = useRefreshMethods();
  return useMutation({
    mutationFn: (setupIntentId: string) =>
      api.post<{ paymentMethod: SavedPaymentMethod }>('/api/payment-methods', { setupIntentId }),
    onSettled: refresh,
  });
}
