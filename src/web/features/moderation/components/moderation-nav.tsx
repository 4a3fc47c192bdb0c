import { Trans, useLingui } from '@lingui/react/macro';
import { ShieldCheck } from 'lucide-react';
import { NavLink } from 'react-router';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../paths.ts';
import { usePaymentProblems } from '../../payment-steps/api.ts';

// Underlined, unlike the status tabs below it: a place, not a filter.
const linkClasses = ({ isActive }: { isActive: boolean }) =>
  cn(
    '-mb-px inline-flex min-h-11 items-center gap-2 border-b-2 px-1 text-base font-semibold',
    isActive ? 'border-brand-700 text-brand-800' : 'border-transparent text-stone-700 hover:text-ink',
  );

/** The moderators' places: reports, payments that need a person, disputed deposit claims. */
export function ModerationNav() {
  const { t } = useLingui();
  const problems = usePaymentProblems();
  const count = problems.data ? problems.data.steps.length + problems.data.mismatches.length : 0;
  return (
    <nav aria-label={t`Moderation`} className="mt-6 flex gap-6 border-b border-line">
      <NavLink to={paths.admin()} end className={linkClasses}>
        <Trans>Reports</Trans>
      </NavLink>
      <NavLink to={paths.adminPayments} className={linkClasses}>
        <Trans>Payments</Trans>
        {count > 0 && (
          <span className="rounded-full bg-danger px-2 py-0.5 text-xs text-white">
            <Trans>
              {count}
              <span className="sr-only"> need attention</span>
            </Trans>
          </span>
        )}
      </NavLink>
      <NavLink to={paths.adminClaims} className={linkClasses}>
        <Trans>Deposit disputes</Trans>
      </NavLink>
    </nav>
  );
}

/** The moderators' pages' heading, with the way between them. */
export function ModerationHeader() {
  return (
    <>
      <div className="flex items-start gap-3">
        <span className="hidden h-12 w-12 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 sm:flex">
          <ShieldCheck className="h-6 w-6" aria-hidden="true" />
        </span>
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-ink">
            <Trans>Moderation</Trans>
          </h1>
          <p className="mt-1 text-muted">
            <Trans>Review what students report, act on it, and keep a record of what you did.</Trans>
          </p>
        </div>
      </div>
      <ModerationNav />
    </>
  );
}
