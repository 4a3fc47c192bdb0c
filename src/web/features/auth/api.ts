import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginInput, RegisterInput, RegisterResponse, SessionUser } from '#shared/schemas/auth.ts';
import { api } from '../../lib/api.ts';

export const sessionKey = ['/api/auth/me'] as const;

/** The signed-in user, or null. Spec §4: fresh for 5 minutes, refetched on mount and focus, no retries. */
export function useSession() {
  const query = useQuery({
    queryKey: sessionKey,
    queryFn: async () => {
      try {
        return (await api.get<{ user: SessionUser | null }>('/api/auth/me')).user;
      } catch {
        // Spec §8: a session failure is silent and counts as signed out.
        return null;
      }
    },
    staleTime: 5 * 60 * 1000,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
    retry: false,
  });
  return { user: query.data ?? null, isLoading: query.isPending };
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => api.post<{ user: SessionUser }>('/api/auth/login', input),
    onSuccess: ({ user }) => {
      queryClient.setQueryData(sessionKey, user);
      void queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
}

/** Registering signs nobody in (decision 023): the e-mail's link does. */
export function useRegister() {
  return useMutation({
    mutationFn: (input: RegisterInput) => api.post<RegisterResponse>('/api/auth/register', input),
  });
}

/** Spec §4: after logout all cached data is cleared and the session refetched. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ success: true }>('/api/auth/logout', {}),
    onSuccess: () => {
      // Clear everything but the session itself: the header's observers stay attached to that entry
      // and see the sign-out at once, then it is refetched.
      queryClient.setQueryData(sessionKey, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
      void queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
}
