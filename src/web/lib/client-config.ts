import { useQuery } from '@tanstack/react-query';
import { toCents } from '#shared/booking/pricing.ts';
import type { ServiceFeeRates } from '#shared/booking/service-fee.ts';
import type { ClientConfig } from '#shared/schemas/payments.ts';
import { api } from './api.ts';

// GET /api/config, read by several features and pages: which card form to show (payments), and the
// service fee's rates (decision 055) that the Reserve dialog prices with and Terms, Help and Privacy
// state. One cache entry; each reader selects its part. The rates are never written into the web app.

export const clientConfigKey = ['/api/config'] as const;

const fetchConfig = async () => api.get<ClientConfig>('/api/config');

/** The whole answer, each caller selecting what it reads. */
export function useClientConfigPart<T>(select: (config: ClientConfig) => T) {
  return useQuery({ queryKey: clientConfigKey, queryFn: fetchConfig, staleTime: 5 * 60_000, select });
}

/** The rates as the server gives them, in the shape the shared rule takes (service-fee.ts). */
export function ratesOf(config: ClientConfig): ServiceFeeRates {
  return {
    serviceFeePercent: config.fees.serviceFeePercent,
    serviceFeeMinCents: toCents(config.fees.serviceFeeMin) ?? 0,
    serviceFeeMaxCents: toCents(config.fees.serviceFeeMax) ?? 0,
    lenderCommissionPercent: config.fees.lenderCommissionPercent,
  };
}

/** The service fee's rates the server charges by; undefined until they have come. */
export function useServiceFeeRates() {
  return useClientConfigPart(ratesOf).data;
}
