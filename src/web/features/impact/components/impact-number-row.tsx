import { Trans, useLingui } from '@lingui/react/macro';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useCampusImpact } from '../api.ts';
import { ImpactError } from './impact-error.tsx';
import { IMPACT_STATS } from './impact-stats.ts';

export interface CampusProps {
  campus: string | undefined;
  /** The campus to show could not be worked out (the visitors' default failed to load). */
  campusError: boolean;
  onCampusRetry: () => void;
}

/** Spec §2 Home: the row of impact numbers under the hero. */
export function ImpactNumberRow({ campus, campusError, onCampusRetry }: CampusProps) {
  const { i18n } = useLingui();
  const impact = useCampusImpact(campus);
  const failed = campusError || impact.isError;
  const loading = !failed && (!campus || impact.isPending);
  const figures = impact.data;
  const campusName = figures?.campusName;
  return (
    <section aria-labelledby="impact-row-heading" className="border-b border-line bg-white">
      {/* One compact row on phones, so Home's first items show on the first screen. */}
      <div className="mx-auto max-w-6xl px-4 py-3 sm:py-6">
        <h2 id="impact-row-heading" className="text-sm font-semibold text-muted">
          {campusName ? <Trans>Shared so far at {campusName}</Trans> : <Trans>Shared so far on campus</Trans>}
        </h2>
        {failed ? (
          <ImpactError
            className="mt-3"
            onRetry={() => (campusError ? onCampusRetry() : void impact.refetch())}
            retrying={impact.isFetching}
          />
        ) : (
          <dl className="mt-2 grid grid-cols-4 gap-x-2 gap-y-4 sm:mt-3 sm:gap-x-4" aria-busy={loading}>
            {IMPACT_STATS.map((stat) => (
              // The number reads first, its label under it; screen readers hear the label first.
              <div key={stat.key} className="flex flex-col-reverse">
                <dt className="flex items-center gap-1.5 text-xs leading-tight text-muted sm:text-sm">
                  <stat.icon className="hidden h-4 w-4 shrink-0 text-brand-700 sm:block" aria-hidden="true" />
                  {i18n._(stat.label)}
                </dt>
                <dd className="text-base font-extrabold text-ink sm:text-2xl">
                  {loading || !figures ? (
                    <Skeleton className="h-6 w-14 sm:h-7 sm:w-16" />
                  ) : (
                    stat.value(figures)
                  )}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </div>
    </section>
  );
}
