import { useQuery } from '@tanstack/react-query';
import type { University, UniversityGroup } from '#shared/schemas/universities.ts';
import { api } from '../../lib/api.ts';

export function useUniversitySearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['/api/universities', q],
    queryFn: () =>
      api.get<{ groups: UniversityGroup[]; total: number }>(`/api/universities?q=${encodeURIComponent(q)}`),
    enabled,
    placeholderData: (previous) => previous,
  });
}

export function useUniversityDetect(email: string | null) {
  return useQuery({
    queryKey: ['/api/universities/detect', email],
    queryFn: () =>
      api.get<{ university: University | null; candidates: University[] }>(
        `/api/universities/detect?email=${encodeURIComponent(email ?? '')}`,
      ),
    enabled: Boolean(email),
  });
}
