import { useQuery } from '@tanstack/react-query';
import type { CampusName, University, UniversityGroup } from '#shared/schemas/universities.ts';
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

/** A campus domain's full name ('stanford.edu' → 'Stanford University'); 'all' is every campus. */
export const campusNameKey = (campus: string | undefined) => ['/api/universities/campus', campus] as const;

export function useCampusName(campus: string | undefined) {
  return useQuery({
    queryKey: campusNameKey(campus),
    queryFn: () => api.get<CampusName>(`/api/universities/campus/${encodeURIComponent(campus ?? '')}`),
    enabled: Boolean(campus) && campus !== 'all',
    staleTime: Number.POSITIVE_INFINITY,
  });
}
