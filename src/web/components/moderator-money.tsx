import { Trans, useLingui } from '@lingui/react/macro';
import { CircleCheck, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../lib/api.ts';
import { cn } from '../lib/cn.ts';
import { Button } from './ui/button.tsx';
import { Card } from './ui/card.tsx';
import { Skeleton } from './ui/skeleton.tsx';

// The lists of money cases on /admin/payments (provider calls, payouts to lenders, card disputes):
// each loads, fails, comes up empty and shows its cases in the same frame, so the page reads as one.

/** A list not loaded yet, or that failed to load: the placeholders, or why and a reload. */
export function MoneyListNotReady({
  query,
  loading,
  failed,
  reloadLabel,
  cards,
  className,
}: {
  query: { isError: boolean; error: unknown; refetch: () => unknown };
  loading: ReactNode;
  failed: ReactNode;
  /** Where the list's own cases have a "Try again", the reload says something else. */
  reloadLabel?: ReactNode;
  cards?: 1 | 2 | 3;
  className?: string;
}) {
  return query.isError ? (
    <MoneyListFailed
      className={className}
      title={failed}
      error={query.error}
      onReload={() => void query.refetch()}
      reloadLabel={reloadLabel}
    />
  ) : (
    <MoneyListLoading className={className} cards={cards} label={loading} />
  );
}

/** While a list loads: a status for screen readers, and placeholders where its cards will be. */
function MoneyListLoading({
  label,
  cards = 1,
  className,
}: {
  label: ReactNode;
  /** How many placeholders, up to three. */
  cards?: 1 | 2 | 3;
  className?: string;
}) {
  return (
    <div className={cn('space-y-3', className)} aria-busy="true">
      <span className="sr-only" role="status">
        {label}
      </span>
      {[0, 1, 2].slice(0, cards).map((i) => (
        <Skeleton key={i} className="h-32 w-full rounded-2xl" />
      ))}
    </div>
  );
}

/** A list that could not be loaded: why, and a button to load it again. */
function MoneyListFailed({
  title,
  error,
  onReload,
  reloadLabel,
  className,
}: {
  title: ReactNode;
  error: unknown;
  onReload: () => void;
  reloadLabel?: ReactNode;
  className?: string;
}) {
  const { t } = useLingui();
  return (
    <Card className={cn('p-6 text-center', className)}>
      <h2 className="font-bold text-ink">{title}</h2>
      <p className="mt-1 text-sm text-muted">{errorMessage(error, t`Please try again.`)}</p>
      <Button className="mt-4" variant="outline" onClick={onReload}>
        {reloadLabel ?? <Trans>Try again</Trans>}
      </Button>
    </Card>
  );
}

/** A list of cases under its heading (with their count) and what it holds; when empty, that all is well. */
export function MoneyList<T>({
  id,
  heading,
  intro,
  allClear,
  items,
  keyOf,
  children: renderItem,
  className,
}: {
  id: string;
  heading: ReactNode;
  intro: ReactNode;
  allClear: ReactNode;
  items: T[];
  keyOf: (item: T) => string;
  children: (item: T) => ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="text-xl font-bold text-ink">
        {heading}
      </h2>
      <p className="mt-1 text-sm text-muted">{intro}</p>
      {items.length === 0 ? (
        <Card className="mt-4 flex items-center gap-3 p-5 text-sm text-stone-700">
          <CircleCheck className="h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
          {allClear}
        </Card>
      ) : (
        <ul className="mt-4 space-y-3">
          {items.map((item) => (
            <li key={keyOf(item)}>{renderItem(item)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

const TONES = {
  red: { icon: 'bg-red-50 text-danger', badge: 'bg-red-100 text-red-900' },
  amber: { icon: 'bg-amber-50 text-amber-800', badge: 'bg-amber-100 text-amber-900' },
} as const;

/** The top of a case's card: its icon, what it is (and for which item), a line under it, its state. */
export function MoneyCaseHeader({
  icon: Icon,
  tone = 'red',
  title,
  itemTitle,
  subtitle,
  badge,
}: {
  icon: LucideIcon;
  tone?: keyof typeof TONES;
  title: ReactNode;
  itemTitle?: string | null;
  subtitle: ReactNode;
  badge?: { text: ReactNode; tone: keyof typeof TONES };
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="flex min-w-0 items-start gap-3">
        <span
          className={cn('flex h-10 w-10 shrink-0 items-center justify-center rounded-full', TONES[tone].icon)}
        >
          <Icon className="h-5 w-5" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h3 className="font-semibold text-ink">
            {title}
            {itemTitle ? <span className="font-normal text-muted"> · {itemTitle}</span> : null}
          </h3>
          <p className="text-sm text-muted">{subtitle}</p>
        </div>
      </div>
      {badge && (
        <span className={cn('rounded-full px-3 py-1 text-xs font-semibold', TONES[badge.tone].badge)}>
          {badge.text}
        </span>
      )}
    </div>
  );
}

/** What the provider answered last, as it said it. */
export function ProviderError({ text }: { text: string }) {
  return <p className="mt-3 break-words rounded-lg bg-stone-50 p-3 text-sm text-stone-800">{text}</p>;
}

/** The provider's id of the payment, for looking it up there (a row of the case's facts). */
export function PaymentIdFact({ id }: { id: string }) {
  return (
    <div className="flex min-w-0 gap-2 sm:col-span-2">
      <dt className="text-muted">
        <Trans>Payment ID</Trans>
      </dt>
      <dd className="truncate font-mono text-xs leading-5">{id}</dd>
    </div>
  );
}
