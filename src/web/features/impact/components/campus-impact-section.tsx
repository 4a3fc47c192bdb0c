import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { impactPath } from '../../../paths.ts';
import { useCampusImpact, useImpactLeaderboard } from '../api.ts';
import { ImpactError } from './impact-error.tsx';
import type { CampusProps } from './impact-number-row.tsx';
import { IMPACT_STATS } from './impact-stats.ts';
import { TopContributorsList } from './top-contributors.tsx';

// Loaded after the page (Home's main chunk stays small): it sits below the fold.

/**
 * Spec §2 Home 'Our Campus Impact': four stat cards and 'Top Contributors This Week', for the campus
 * given (the viewer's, or the one shown to visitors). `campus` undefined: still working it out.
 */
export default function CampusImpactSection({ campus, campusError, onCampusRetry }: CampusProps) {
  const { i18n } = useLingui();
  const impact = useCampusImpact(campus);
  const leaderboard = useImpactLeaderboard(campus);
  // This section hydrates after the page around it (its own chunk), by when the row above may have
  // fetched the figures; its first render shows what the server rendered (no figures), then them.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const failed = hydrated && (campusError || impact.isError);
  const loading = !failed && (!campus || impact.isPending || !hydrated);
  const figures = hydrated ? impact.data : undefined;
  const campusName = figures?.campusName;

  return (
    <section aria-labelledby="campus-impact-heading" className="mx-auto max-w-6xl px-4 py-12">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="campus-impact-heading" className="text-2xl font-bold text-ink">
            <Trans>Our Campus Impact</Trans>
          </h2>
          <p className="mt-1 text-muted">
            {figures ? (
              figures.itemsShared > 0 ? (
                <Trans>What borrowing instead of buying has saved at {campusName}.</Trans>
              ) : (
                <Trans>
                  Nothing has been returned at {campusName} yet: the first borrow starts the count.
                </Trans>
              )
            ) : (
              <Trans>What borrowing instead of buying has saved on campus.</Trans>
            )}
          </p>
        </div>
        <Button asChild variant="outline">
          <Link to={impactPath(figures?.campus)}>
            <Trans>See the full dashboard</Trans>{' '}
            <ArrowRight className="rtl:-scale-x-100 h-4 w-4" aria-hidden="true" />
          </Link>
        </Button>
      </div>

      <div className="mt-6 grid grid-cols-1 gap-4 lg:grid-cols-5">
        <div className="lg:col-span-3">
          {failed ? (
            <Card className="p-6">
              <ImpactError
                onRetry={() => (campusError ? onCampusRetry() : void impact.refetch())}
                retrying={impact.isFetching}
              />
            </Card>
          ) : (
            <ul className="grid grid-cols-2 gap-4" aria-busy={loading}>
              {IMPACT_STATS.map((stat) => (
                <li key={stat.key}>
                  <Card className="h-full p-5">
                    <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                      <stat.icon className="h-5 w-5" aria-hidden="true" />
                    </span>
                    {loading || !figures ? (
                      <Skeleton className="mt-3 h-8 w-20" />
                    ) : (
                      <p className="mt-3 text-2xl font-extrabold text-ink sm:text-3xl">
                        {stat.value(figures)}
                      </p>
                    )}
                    <h3 className="mt-1 font-semibold text-ink">{i18n._(stat.label)}</h3>
                    <p className="text-sm text-muted">{i18n._(stat.detail)}</p>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="lg:col-span-2">
          <TopContributorsList
            entries={hydrated ? leaderboard.data?.topContributors : undefined}
            loading={!campusError && (!campus || leaderboard.isPending || !hydrated)}
            error={hydrated && (campusError || leaderboard.isError)}
            onRetry={() => (campusError ? onCampusRetry() : void leaderboard.refetch())}
            retrying={leaderboard.isFetching}
          />
        </div>
      </div>
    </section>
  );
}
