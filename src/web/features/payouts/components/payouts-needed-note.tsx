import { Trans } from '@lingui/react/macro';
import { Landmark } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../paths.ts';
import { usePayouts } from '../api.ts';

// A lender's paid request cannot be approved until their payouts are active (decision 056): the pending
// card says so and leads to "Get paid", before the lender meets the refusal on Approve.

export function PayoutsNeededNote() {
  const payouts = usePayouts();
  const status = payouts.data?.account.status;
  // Unknown yet, or active: nothing to say (Approve's own answer still tells, should it refuse).
  if (!status || status === 'active') return null;
  return (
    <div
      className="mt-4 flex items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
      data-testid="payouts-needed"
    >
      <Landmark className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <p>
        {status === 'not_set_up' ? (
          <Trans>Set up payouts to accept this paid request: Stripe sends your earnings to your bank.</Trans>
        ) : (
          <Trans>Finish setting up payouts to accept this paid request.</Trans>
        )}{' '}
        <Link to={paths.getPaid} className="font-semibold text-brand-800 underline underline-offset-4">
          <Trans>Go to Get paid</Trans>
        </Link>
      </p>
    </div>
  );
}
