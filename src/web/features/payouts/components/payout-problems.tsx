import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeftRight, Loader2 } from 'lucide-react';
import { formatMoney, intlLocale } from '#shared/format.ts';
import type { PayoutProblemView } from '#shared/schemas/payouts.ts';
import {
  MoneyCaseHeader,
  MoneyList,
  MoneyListNotReady,
  ProviderError,
} from '../../../components/moderator-money.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { usePayoutProblems, useRetryPayoutProblem } from '../api.ts';

// /admin/payments (decision 061): transfers to lenders and reversals of them that failed on every retry,
// with the provider's error and a "Try again" that schedules one again (once, however often pressed).

export function PayoutProblemsSection() {
  const { t } = useLingui();
  const problems = usePayoutProblems();
  const retry = useRetryPayoutProblem();
  if (problems.status !== 'success') {
    return (
      <MoneyListNotReady
        className="mt-8"
        query={problems}
        loading={<Trans>Loading payouts…</Trans>}
        failed={<Trans>Failed to load payouts</Trans>}
        reloadLabel={<Trans>Load again</Trans>}
      />
    );
  }
  return (
    <PayoutProblemList
      problems={problems.data.problems}
      pendingId={retry.isPending ? retry.variables?.id : undefined}
      onRetry={(problem) =>
        retry.mutate(problem, {
          onSuccess: ({ requeued }) =>
            toast({
              title: requeued ? t`Trying again` : t`Already done`,
              description: requeued
                ? t`It was sent to the provider again.`
                : t`Someone else tried it again already.`,
            }),
          onError: (failure) =>
            toast({
              variant: 'destructive',
              title: t`Could not try again`,
              description: errorMessage(failure, t`Please try again.`),
            }),
        })
      }
    />
  );
}

/** The list itself: what failed, for whom, how much, why and when. */
export function PayoutProblemList({
  problems,
  pendingId,
  onRetry,
}: {
  problems: PayoutProblemView[];
  pendingId?: string;
  onRetry: (problem: PayoutProblemView) => void;
}) {
  const count = problems.length;
  return (
    <MoneyList
      id="payout-problems-heading"
      className="mt-8"
      heading={<Trans>Payouts to lenders that failed ({count})</Trans>}
      intro={
        <Trans>
          Transfers to lenders and reversals of them that failed on every retry. Trying again looks the
          transfer up at Stripe first, so nothing is sent or taken back twice.
        </Trans>
      }
      allClear={<Trans>Every payout to lenders has gone through.</Trans>}
      items={problems}
      keyOf={(problem) => `${problem.kind}-${problem.id}`}
    >
      {(problem) => <ProblemCard problem={problem} pending={pendingId === problem.id} onRetry={onRetry} />}
    </MoneyList>
  );
}

function ProblemCard({
  problem,
  pending,
  onRetry,
}: {
  problem: PayoutProblemView;
  pending: boolean;
  onRetry: (problem: PayoutProblemView) => void;
}) {
  const { t } = useLingui();
  const amount = formatMoney(Math.round(Number(problem.amount) * 100));
  const lender = problem.lenderName ?? t`A former student`;
  const title =
    problem.kind === 'transfer'
      ? t`Transfer of ${amount} to ${lender}`
      : t`Taking back ${amount} from ${lender}`;
  const failedAt = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(problem.failedAt),
  );
  const attempts = problem.attempts;
  return (
    <Card className="p-4 sm:p-5">
      <MoneyCaseHeader
        icon={ArrowLeftRight}
        title={title}
        itemTitle={problem.itemTitle}
        subtitle={
          <Trans>
            Failed {failedAt}, after {attempts} attempts
          </Trans>
        }
      />
      {problem.lastError && <ProviderError text={problem.lastError} />}
      {problem.reservationId && (
        <p className="mt-2 truncate font-mono text-xs text-muted">
          <Trans>Reservation</Trans> {problem.reservationId}
        </p>
      )}
      <div className="mt-4">
        <Button onClick={() => onRetry(problem)} disabled={pending}>
          {pending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
          <Trans>Try again</Trans>
        </Button>
      </div>
    </Card>
  );
}
