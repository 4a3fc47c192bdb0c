import { t } from '@lingui/core/macro';
import { ApiError, errorMessage } from '../../lib/api.ts';
import type { Toast } from '../../lib/toast.ts';
import { paths } from '../../paths.ts';

// Approve's refusal as a toast. Refused for payouts not active (decision 056), it offers the way to
// "Get paid" rather than leaving the lender with the refusal alone.

export function approvalFailureToast(
  failure: unknown,
  navigate: (to: string) => void,
): Omit<Toast, 'id' | 'open'> {
  const description = errorMessage(failure, t`Failed to approve reservation.`);
  if (failure instanceof ApiError && failure.code === 'PAYOUTS_NOT_ACTIVE') {
    return {
      variant: 'destructive',
      title: t`Set up payouts first`,
      description,
      action: {
        label: t`Get paid`,
        altText: t`Open Settings from the menu, then Get paid`,
        onClick: () => navigate(paths.getPaid),
      },
    };
  }
  return { variant: 'destructive', title: t`Approval failed`, description };
}
