import { useQuery } from '@tanstack/react-query';
import type { ProfileResponse } from '#shared/schemas/users.ts';
import { api } from '../../lib/api.ts';
import { userKeys } from '../../lib/query-keys.ts';

/** GET /api/users/{id}: the profile screen's person, their items, reviews, badges and stats. */
export function useProfile(id: string | undefined) {
  return useQuery({
    queryKey: userKeys.detail(id ?? ''),
    queryFn: () => api.get<ProfileResponse>(`/api/users/${encodeURIComponent(id ?? '')}`),
    enabled: Boolean(id),
  });
}
