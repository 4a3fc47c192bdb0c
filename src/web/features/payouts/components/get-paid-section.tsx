import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Loader2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { PayoutAccountStatus } from '#shared/constants.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { paths } from '../../../paths.ts';
import { useOpenDashboard, usePayouts, useRefreshPayoutAccount, useStartOnboarding } from '../api.ts';

// Settings → "Get paid" (decision 056): where the lender's payouts stand, what Stripe still asks for in
// plain words, and the way into onboarding. Back from onboarding (?payouts=return), the account is read
// again from the provider: the return itself proves nothing.

/** Stripe's requirement fields, by their start, in words a student knows. */
const REQUIREMENT_WORDS: [prefix: string, words: MessageDescriptor][] = [
  ['external_account', msg`The bank account your earnings go to`],
  ['individual.dob', msg`Your date of birth`],
  ['individual.ssn_last_4', msg`The last 4 digits of your Social Security number`],
  ['individual.id_number', msg`Your Social Security number`],
  ['individual.verification', msg`A photo of your ID`],
  ['individual.address', msg`Your home address`],
  ['individual.phone', msg`Your phone number`],
  ['individual.email', msg`Your e-mail address`],
  ['individual.first_name', msg`Your legal name`],
  ['individual.last_name', msg`Your legal name`],
  ['tos_acceptance', msg`Accepting Stripe's terms`],
  ['business_profile', msg`A few words on what you lend`],
];

const STATUS_WORDS: Record<PayoutAccountStatus, MessageDescriptor> = {
  not_set_up: msg`Not set up. Set up payouts to accept paid requests: Stripe sends your earnings to your bank.`,
  in_review: msg`In review. Stripe is checking your details; this usually takes a few minutes.`,
  action_needed: msg`Action needed. Stripe needs a few more details before it can send you money.`,
  active: msg`Active. Your earnings are sent to your bank account.`,
  restricted: msg`Restricted. Stripe cannot send money to this account. Contact us and we will help.`,
};

export function GetPaidSection() {
  const { t, i18n } = useLingui();
  const payouts = usePayouts();
  const start = useStartOnboarding();
  const refresh = useRefreshPayoutAccount();
  const dashboard = useOpenDashboard();
  const [params] = useSearchParams();
  const returned = params.get('payouts') === 'return';
  const asked = useRef(false);
  const { mutate: refreshAccount } = refresh;

  useEffect(() => {
    if (returned && !asked.current) {
      asked.current = true;
      refreshAccount();
    }
  }, [returned, refreshAccount]);

  const account = payouts.data?.account;
  const due = [
    ...new Set(
      (account?.requirementsDue ?? []).map((field) => {
        const words = REQUIREMENT_WORDS.find(([prefix]) => field.startsWith(prefix))?.[1];
        return i18n._(words ?? msg`Other details Stripe asks for`);
      }),
    ),
  ];
  const failure = start.error ?? dashboard.error ?? refresh.error;

  return (
    <Card id="get-paid" className="p-5 sm:p-6" aria-labelledby="get-paid-title" role="region">
      <h2 id="get-paid-title" className="text-lg font-bold text-ink">
        <Trans>Get paid</Trans>
      </h2>
      <p className="mt-1 text-sm text-muted">
        <Trans>
          CampusLoop pays lenders through Stripe: your share of each paid borrow goes to your bank account.
        </Trans>
      </p>
      <div className="mt-5">
        {payouts.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : payouts.isError || !account ? (
          <p role="alert" className="text-danger">
            <Trans>Your payouts could not be loaded.</Trans>
          </p>
        ) : (
          <div className="space-y-4">
            <p className="text-ink" data-testid="payout-status">
              {i18n._(STATUS_WORDS[account.status])}
            </p>
            {account.status === 'action_needed' && due.length > 0 && (
              <div>
                <p className="text-sm font-semibold text-ink">
                  <Trans>Stripe still needs:</Trans>
                </p>
                <ul className="mt-1 list-disc ps-5 text-sm text-muted">
                  {due.map((words) => (
                    <li key={words}>{words}</li>
                  ))}
                </ul>
              </div>
            )}
            <div className="flex flex-wrap gap-3">
              {account.status !== 'active' && account.status !== 'restricted' && (
                <Button onClick={() => start.mutate()} disabled={start.isPending}>
                  {start.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
                  {account.status === 'not_set_up' ? (
                    <Trans>Set up payouts</Trans>
                  ) : (
                    <Trans>Continue setup</Trans>
                  )}
                </Button>
              )}
              {account.status !== 'not_set_up' && (
                <Button variant="outline" onClick={() => dashboard.mutate()} disabled={dashboard.isPending}>
                  <Trans>Open my Stripe dashboard</Trans>
                </Button>
              )}
              <Button asChild variant="ghost">
                <Link to={paths.earnings}>
                  <Trans>See your earnings</Trans>
                </Link>
              </Button>
            </div>
            {failure && (
              <p role="alert" className="text-sm text-danger">
                {errorMessage(failure, t`Stripe could not be reached. Please try again.`)}
              </p>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}
