import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { BookOpenCheck, CircleCheck, Landmark } from 'lucide-react';
import { useId, useState } from 'react';
import type { JournalProblem } from '#shared/constants.ts';
import { intlLocale } from '#shared/format.ts';
import type { JournalFindingView, LenderTotal } from '#shared/schemas/ledger.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { inputClasses } from '../../../components/ui/input.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useJournalFindings, useLenderTotals } from '../books-api.ts';

// /admin/payments (decision 058): the journal's own findings, in plain words, and each lender's totals
// for a calendar year against the US 1099-K thresholds.

/** What went wrong, each a whole sentence so it translates. */
const PROBLEMS: Record<JournalProblem, MessageDescriptor> = {
  does_not_add_up: msg`The money of this booking does not add up: what was charged, less refunds and disputes, is not what was paid out, kept as fees, owed to the lender and held for the borrower.`,
  rows_disagree: msg`The journal and the billing history of this booking disagree: a charge, refund or earning is in one and not the other.`,
  provider_disagrees: msg`The card provider says a different amount was charged or refunded for this booking than the journal does.`,
};

export function JournalBooks() {
  return (
    <div className="mt-8 space-y-8">
      <JournalFindingsSection />
      <LenderTotalsSection />
    </div>
  );
}

function Loading() {
  return (
    <div className="mt-4 space-y-3" aria-busy="true">
      <span className="sr-only" role="status">
        <Trans>Loading…</Trans>
      </span>
      <Skeleton className="h-20 w-full rounded-2xl" />
    </div>
  );
}

function Failed({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useLingui();
  return (
    <Card className="mt-4 p-5 text-sm">
      <p className="text-stone-700">{errorMessage(error, t`Please try again.`)}</p>
      <Button className="mt-3" variant="outline" onClick={retry}>
        <Trans>Try again</Trans>
      </Button>
    </Card>
  );
}

function JournalFindingsSection() {
  const { t, i18n } = useLingui();
  const findings = useJournalFindings();
  const count = findings.data?.findings.length ?? 0;
  return (
    <section aria-labelledby="journal-heading">
      <h2 id="journal-heading" className="text-xl font-bold text-ink">
        <Trans>Bookings whose books do not add up ({count})</Trans>
      </h2>
      <p className="mt-1 text-sm text-muted">
        <Trans>
          Each booking's money is written in a journal as it moves. The regular check compares it with the
          billing history and with the card provider.
        </Trans>
      </p>
      {findings.isPending ? (
        <Loading />
      ) : findings.isError ? (
        <Failed error={findings.error} retry={() => void findings.refetch()} />
      ) : count === 0 ? (
        <Card className="mt-4 flex items-center gap-3 p-5 text-sm text-stone-700">
          <CircleCheck className="h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
          {t`Every booking's books add up.`}
        </Card>
      ) : (
        <ul className="mt-4 space-y-3">
          {findings.data.findings.map((finding) => (
            <li key={finding.id}>
              <FindingCard finding={finding} words={i18n._(PROBLEMS[finding.problem])} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FindingCard({ finding, words }: { finding: JournalFindingView; words: string }) {
  const title = finding.itemTitle;
  const cash = finding.cash;
  const accounted = finding.accounted;
  const found = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium' }).format(
    new Date(finding.detectedAt),
  );
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-amber-50 text-amber-800">
          <BookOpenCheck className="h-5 w-5" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h3 className="font-semibold text-ink">{title ?? <Trans>A booking that was deleted</Trans>}</h3>
          <p className="mt-1 text-sm text-stone-800">{words}</p>
          <p className="mt-2 text-sm text-muted">
            <Trans>
              Came in: ${cash} · Accounted for: ${accounted} · Found {found}
            </Trans>
          </p>
          <p className="mt-1 truncate font-mono text-xs text-muted">{finding.reservationId}</p>
        </div>
      </div>
    </Card>
  );
}

function LenderTotalsSection() {
  const { t } = useLingui();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const totals = useLenderTotals(year);
  const yearId = useId();
  const years = Array.from({ length: 6 }, (_, i) => thisYear - i);
  const threshold = totals.data?.threshold ?? '';
  const thresholdCount = totals.data?.thresholdCount ?? 0;
  return (
    <section aria-labelledby="totals-heading">
      <h2 id="totals-heading" className="text-xl font-bold text-ink">
        <Trans>Lenders' yearly totals for tax reporting</Trans>
      </h2>
      <p className="mt-1 text-sm text-muted">
        {totals.data ? (
          <Trans>
            A lender paid more than ${threshold} in more than {thresholdCount} payments in a calendar year is
            reported to the IRS on Form 1099-K.
          </Trans>
        ) : null}
      </p>
      <div className="mt-3 flex items-center gap-3">
        <label htmlFor={yearId} className="text-sm font-medium text-ink">
          <Trans>Year</Trans>
        </label>
        <select
          id={yearId}
          className={`${inputClasses} w-32`}
          value={year}
          onChange={(event) => setYear(Number(event.target.value))}
        >
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </select>
      </div>
      {totals.isPending ? (
        <Loading />
      ) : totals.isError ? (
        <Failed error={totals.error} retry={() => void totals.refetch()} />
      ) : totals.data.lenders.length === 0 ? (
        <Card className="mt-4 p-5 text-sm text-stone-700">{t`No lender was paid in ${year}.`}</Card>
      ) : (
        <ul className="mt-4 space-y-2">
          {totals.data.lenders.map((lender) => (
            <li key={lender.lenderId}>
              <LenderRow lender={lender} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function LenderRow({ lender }: { lender: LenderTotal }) {
  const { t } = useLingui();
  const gross = lender.gross;
  const payments = lender.transactions;
  return (
    <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
      <div className="flex min-w-0 items-center gap-3">
        <Landmark className="h-5 w-5 shrink-0 text-muted" aria-hidden="true" />
        <div className="min-w-0">
          <p className="truncate font-semibold text-ink">{lender.name ?? t`Former student`}</p>
          <p className="text-sm text-stone-700">
            <Trans>
              ${gross} in {payments} payments
            </Trans>
          </p>
        </div>
      </div>
      {lender.reportable ? (
        <span className="rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-900">
          <Trans>Over the 1099-K thresholds</Trans>
        </span>
      ) : (
        <span className="rounded-full bg-stone-100 px-3 py-1 text-xs font-semibold text-stone-700">
          <Trans>Under the thresholds</Trans>
        </span>
      )}
    </Card>
  );
}
