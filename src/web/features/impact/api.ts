import { useQuery } from '@tanstack/react-query';
import type { CampusImpact, ImpactCampuses, ImpactDashboard, Leaderboard } from '#shared/schemas/impact.ts';
import { api } from '../../lib/api.ts';
import { useSession } from '../auth/api.ts';

// Campus impact (spec §7 GET /api/impact/{campus}; contract and units in src/shared/schemas/impact.ts).
// Anyone's return anywhere on campus changes these figures, so a screen asks again when it mounts
// (showing what it has meanwhile); every call is a few indexed reads. Figures younger than
// IMPACT_FRESH_MS are not asked for again: a page the server rendered a moment ago, or Home's two
// sections mounting one after the other, would otherwise fetch and re-render what they already show.
export const IMPACT_FRESH_MS = 10_000;

export const impactKeys = {
  all: ['/api/impact'] as const,
  campus: (campus: string) => ['/api/impact', campus] as const,
  leaderboard: (campus: string) => ['/api/impact', campus, 'leaderboard'] as const,
  dashboard: (campus: string) => ['/api/impact', campus, 'dashboard'] as const,
};

const path = (campus: string, rest = '') => `/api/impact/${encodeURIComponent(campus)}${rest}`;

/** GET /api/impact: campuses with borrows, and the one a visitor sees first. */
export function useImpactCampuses(enabled = true) {
  return useQuery({
    queryKey: impactKeys.all,
    queryFn: () => api.get<ImpactCampuses>('/api/impact'),
    staleTime: IMPACT_FRESH_MS,
    enabled,
  });
}

export function useCampusImpact(campus: string | undefined) {
  return useQuery({
    queryKey: impactKeys.campus(campus ?? ''),
    queryFn: async () => (await api.get<{ impact: CampusImpact }>(path(campus ?? ''))).impact,
    staleTime: IMPACT_FRESH_MS,
    enabled: Boolean(campus),
  });
}

export function useImpactLeaderboard(campus: string | undefined) {
  return useQuery({
    queryKey: impactKeys.leaderboard(campus ?? ''),
    queryFn: () => api.get<Leaderboard>(path(campus ?? '', '/leaderboard')),
    staleTime: IMPACT_FRESH_MS,
    enabled: Boolean(campus),
  });
}

export function useImpactDashboard(campus: string | undefined) {
  return useQuery({
    queryKey: impactKeys.dashboard(campus ?? ''),
    queryFn: () => api.get<ImpactDashboard>(path(campus ?? '', '/dashboard')),
    staleTime: IMPACT_FRESH_MS,
    enabled: Boolean(campus),
  });
}

/**
 * The campus a screen shows when none is chosen: the signed-in student's own, else the one the server
 * offers visitors (the most active campus). `campus` is undefined while that is being worked out.
 */
export function useViewerCampus(): { campus: string | undefined; isError: boolean; retry: () => void } {
  const { user, isLoading } = useSession();
  const campuses = useImpactCampuses(!isLoading && !user);
  if (isLoading) return { campus: undefined, isError: false, retry: () => {} };
  if (user) return { campus: user.campus, isError: false, retry: () => {} };
  return {
    campus: campuses.data?.defaultCampus.campus,
    isError: campuses.isError,
    retry: () => void campuses.refetch(),
  };
}
