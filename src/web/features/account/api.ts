import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountResponse,
  AccountSession,
  ChangeEmailInput,
  ChangePasswordInput,
  EmailChangeConfirmResponse,
  EmailPreference,
  PreferenceInput,
  ProfileInput,
} from '#shared/schemas/account.ts';
import type { SessionUser } from '#shared/schemas/auth.ts';
import type { DeleteAccountInput } from '#shared/schemas/leaving.ts';
import { api, apiUpload } from '../../lib/api.ts';
import { sessionKey } from '../auth/api.ts';

// Account settings (decision 022): what the /settings page reads and changes.

export const accountKey = ['/api/account'] as const;
export const accountSessionsKey = ['/api/account/sessions'] as const;

export function useAccount() {
  return useQuery({ queryKey: accountKey, queryFn: () => api.get<AccountResponse>('/api/account') });
}

export function useAccountSessions() {
  return useQuery({
    queryKey: accountSessionsKey,
    queryFn: async () => (await api.get<{ sessions: AccountSession[] }>('/api/account/sessions')).sessions,
  });
}

/**
 * A change to how the person looks (name, username, photo): the header takes the new user at once, and
 * every list, page and chat that shows them is asked again.
 */
function usePersonChange<Input>(change: (input: Input) => Promise<{ user: SessionUser }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: ({ user }) => {
      queryClient.setQueryData(sessionKey, user);
      queryClient.setQueryData<AccountResponse>(accountKey, (old) => (old ? { ...old, user } : old));
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== sessionKey[0] && query.queryKey[0] !== accountKey[0],
      });
    },
  });
}

export const useUpdateProfile = () =>
  usePersonChange((input: ProfileInput) => api.put<{ user: SessionUser }>('/api/account/profile', input));

export const useUploadPhoto = () =>
  usePersonChange((photo: File) => {
    const form = new FormData();
    form.append('photo', photo, photo.name);
    return apiUpload<{ user: SessionUser }>('/api/account/photo', form);
  });

export const useRemovePhoto = () =>
  usePersonChange(() => api.delete<{ user: SessionUser }>('/api/account/photo'));

/** Every other session ends with the old password: the list of sessions is asked again. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => api.put<{ success: true }>('/api/account/password', input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountSessionsKey }),
  });
}

export function useRequestEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangeEmailInput) =>
      api.post<{ success: true; pendingEmail: string; message: string }>('/api/account/email', input),
    onSuccess: ({ pendingEmail }) =>
      queryClient.setQueryData<AccountResponse>(accountKey, (old) => (old ? { ...old, pendingEmail } : old)),
  });
}

export function useCancelEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ success: true }>('/api/account/email'),
    onSuccess: () =>
      queryClient.setQueryData<AccountResponse>(accountKey, (old) =>
        old ? { ...old, pendingEmail: null } : old,
      ),
  });
}

/** The link from the new address; whoever is signed in here sees the new address next time they ask. */
export function useConfirmEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      api.post<EmailChangeConfirmResponse>('/api/account/email/confirm', { token }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: sessionKey });
      void queryClient.invalidateQueries({ queryKey: accountKey });
    },
  });
}

export function useSetPreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PreferenceInput) =>
      api.put<{ preferences: EmailPreference[] }>('/api/account/notification-preferences', input),
    onSuccess: ({ preferences }) =>
      queryClient.setQueryData<AccountResponse>(accountKey, (old) => (old ? { ...old, preferences } : old)),
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<{ success: true }>(`/api/account/sessions/${encodeURIComponent(id)}`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: accountSessionsKey }),
  });
}

export function useSignOutOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ success: true; ended: number }>('/api/account/sessions/sign-out-others', {}),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: accountSessionsKey }),
  });
}

/** Where "Download my data" points: the server answers a JSON file to save (same-origin, with the cookie). */
export const dataExportUrl = '/api/account/export';

/** The account is gone: the browser is signed out and forgets everything it had read. */
/**
 * `onDeleted` runs before the session is cleared: clearing it unmounts every signed-in page (the auth
 * guard), and a callback given to `mutate` by an unmounted component never runs (TanStack Query).
 */
export function useDeleteAccount(onDeleted: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DeleteAccountInput) => api.post<{ success: true }>('/api/account/delete', input),
    onSuccess: () => {
      onDeleted();
      queryClient.setQueryData(sessionKey, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
    },
  });
}
