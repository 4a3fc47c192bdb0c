import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VerificationResponse } from '#shared/schemas/email-verification.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toast.ts';
import { sessionKey } from '../auth/api.ts';

/** The link from the e-mail: once it worked, the session (and with it every verified-only control) refreshes. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<VerificationResponse>('/api/auth/verify-email', { token }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sessionKey }),
  });
}

/** 'Resend': a fresh link by e-mail, answered with a toast either way. */
export function useResendVerification() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => api.post<VerificationResponse>('/api/auth/resend-verification', {}),
    onSuccess: ({ email }) =>
      toast({
        title: 'Verification e-mail sent',
        description: `We sent a new link to ${email}. Older links no longer work.`,
      }),
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Could not resend the e-mail',
        description: errorMessage(error, 'Please try again in a few minutes.'),
      });
      // Verified meanwhile (in another tab, say): the banner should go.
      void queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
  return { resend: () => mutation.mutate(), isPending: mutation.isPending };
}
