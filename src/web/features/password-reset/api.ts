import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  PasswordResetConfirmInput,
  PasswordResetConfirmResponse,
  PasswordResetRequestInput,
  PasswordResetRequestResponse,
} from '#shared/schemas/password-reset.ts';
import { api } from '../../lib/api.ts';
import { sessionKey } from '../auth/api.ts';

/** 'Send Reset Link': the server answers the same whether or not an account uses the address. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (input: PasswordResetRequestInput) =>
      api.post<PasswordResetRequestResponse>('/api/auth/password-reset', input),
  });
}

/**
 * The new password from the link's page. Every session of the account ended, so whatever this browser
 * remembered goes; the session becomes the person signed in by the reset (or nobody, when suspended).
 */
export function useConfirmPasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordResetConfirmInput) =>
      api.post<PasswordResetConfirmResponse>('/api/auth/password-reset/confirm', input),
    onSuccess: ({ user }) => {
      queryClient.setQueryData(sessionKey, user);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
      void queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
}
