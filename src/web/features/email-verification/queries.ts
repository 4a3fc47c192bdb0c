import { t } from '@lingui/core/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { safeReturnPath } from '#shared/return-path.ts';
import type { VerificationResponse } from '#shared/schemas/email-verification.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { sessionKey } from '../auth/api.ts';

/** The link from the e-mail: once it worked, the session (and with it every verified-only control) refreshes. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<VerificationResponse>('/api/auth/verify-email', { token }),
    // The link signs in (decision 023): the header takes the person at once.
    onSuccess: ({ user }) => {
      if (user) queryClient.setQueryData(sessionKey, user);
      void queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
}

/**
 * 'Resend': a fresh link by e-mail, answered with a toast either way. The link comes back to
 * `returnTo` (a page of the app) once it has verified the address.
 */
export function useResendVerification(returnTo?: string | null, email?: string) {
  const queryClient = useQueryClient();
  const safe = safeReturnPath(returnTo);
  const mutation = useMutation({
    mutationFn: () =>
      api.post<VerificationResponse>('/api/auth/resend-verification', {
        ...(safe ? { returnTo: safe } : {}),
        // Signed out, after registering: the address the link goes to.
        ...(email ? { email } : {}),
      }),
    onSuccess: ({ email }) =>
      toast({
        title: t`Verification e-mail sent`,
        description: t`We sent a new link to ${email} if it is waiting for one. Older links no longer work.`,
      }),
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: t`Could not resend the e-mail`,
        description: errorMessage(error, t`Please try again in a few minutes.`),
      });
      // Verified meanwhile (in another tab, say): the banner should go.
      void queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
  return { resend: () => mutation.mutate(), isPending: mutation.isPending };
}
