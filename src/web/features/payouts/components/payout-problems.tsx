import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeftRight, CircleCheck, Loader2 } from 'lucide-react';
import { formatMoney, intlLocale } from '#shared/format.ts';
import type { PayoutProblemView } from '#shared/schemas/payouts.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { usePayoutProblems, useRetryPayoutProblem } from '../api.ts';

// /admin/payments (decision 061): transfers to lenders and reversals of them that failed on every retry,
// with the provider's error and a "Try again" that schedules one again (once, however often pressed).

export function PayoutProblemsSection() {
  const { t } = useLingui();
  const problems = usePayoutProblems();
  const retry = useRetryPayoutProblem();
  if (problems.isPending) {
    return (
      <div className="mt-8 space-y-3" aria-busy="true">
        <span className="sr-only" role="status">
          <Trans>Loading payouts…</Trans>
        </span>
        <Skeleton className="h-28 w-full rounded-2xl" />
      </div>
    );
  }
  if (problems.isError) {
    return (
      <Card className="mt-8 p-6 text-center">
        <h2 className="font-bold text-ink">
          <Trans>Failed to load payouts</Trans>
        </h2>
        <p className="mt-1 text-sm text-muted">{errorMessage(problems.error, t`Please try again.`)}</p>
        <Button className="mt-4" variant="outline" onClick={() => void problems.refetch()}>
          <Trans>Load again</Trans>
        </Button>
      </Card>
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
    <section aria-labelledby="payout-problems-heading" className="mt-8">
      <h2 id="payout-problems-heading" className="text-xl font-bold text-ink">
        <Trans>Payouts to lenders that failed ({count})</Trans>
      </h2>
      <p className="mt-1 text-sm text-muted">
        <Trans>
          Transfers to lenders and reversals of them that failed on every retry. Trying again looks the
          transfer up at Stripe first, so nothing is sent or taken back twice.
        </Trans>
      </p>
      {count === 0 ? (
        <Card className="mt-4 flex items-center gap-3 p-5 text-sm text-stone-700">
          <CircleCheck className="h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
          <Trans>Every payout to lenders has gone through.</Trans>
        </Card>
      ) : (
        <ul className="mt-4 space-y-3">
          {problems.map((problem) => (
            <li key={`${problem.kind}-${problem.id}`}>
              <ProblemCard problem={problem} pending={pendingId === problem.id} onRetry={onRetry} />
            </li>
          ))}
        </ul>
      )}
    </section>
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
      <div className="flex min-w-0 items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-red-50 text-danger">
          <ArrowLeftRight className="h-5 w-5" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h3 className="font-semibold text-ink">
            {title}
            {problem.itemTitle ? (
              <span className="font-normal text-muted"> · {problem.itemTitle}</span>
            ) : null}
          </h3>
          <p className="text-sm text-muted">
            <Trans>
              Failed {failedAt}, after {attempts} attempts
            </Trans>
          </p>
        </div>
      </div>
      {problem.lastError && (
        <p className="mt-3 break-words rounded-lg bg-stone-50 p-3 text-sm text-stone-800">
          {problem.lastError}
        </p>
      )}
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
