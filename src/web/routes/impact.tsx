import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Leaf, MapPinOff, PlusCircle, Search } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useSession } from '../features/auth/api.ts';
import { useImpactDashboard, useViewerCampus } from '../features/impact/api.ts';
import { CampusAchievements } from '../features/impact/components/campus-achievements.tsx';
import { CampusPicker } from '../features/impact/components/campus-picker.tsx';
import { CategoryImpactCards } from '../features/impact/components/category-impact.tsx';
import { ImpactAssumptions } from '../features/impact/components/impact-assumptions.tsx';
import { ImpactCollage } from '../features/impact/components/impact-collage.tsx';
import { ImpactError } from '../features/impact/components/impact-error.tsx';
import { SustainabilityGoals } from '../features/impact/components/sustainability-goals.tsx';
import { TopContributorsList } from '../features/impact/components/top-contributors.tsx';
import { ApiError } from '../lib/api.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

// Spec §2 Campus Impact Dashboard: hero with a campus picker, 'Our Impact', Sustainability Goals,
// Impact by Category, Campus Achievements and the campus's own card with its top contributors, then
// how the figures are counted. It shows ?campus= when given, else the viewer's campus, else the most
// active one (a visitor's default).

export default function ImpactPage() {
  const [params, setParams] = useSearchParams();
  const { user } = useSession();
  const viewer = useViewerCampus();
  const chosen = params.get('campus')?.trim().toLowerCase() || undefined;
  const campus = chosen ?? viewer.campus;
  const dashboard = useImpactDashboard(campus);
  const data = dashboard.data;
  const { t } = useLingui();
  const campusName = data?.campusName;
  const members = data?.communityMembers ?? 0;
  const returned = data?.impact.itemsShared ?? 0;
  useDocumentTitle(campusName ? t`${campusName} Impact` : t`Campus Impact`);

  const choose = (next: string) => setParams({ campus: next });
  const missing =
    dashboard.error instanceof ApiError && (dashboard.error.status === 404 || dashboard.error.status === 400);
  const failed = (dashboard.isError && !missing) || (!chosen && viewer.isError);

  return (
    <div>
      <section className="bg-gradient-to-br from-brand-800 via-brand-700 to-emerald-700 text-white">
        <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:py-14 md:flex-row md:items-end md:justify-between">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-white/15 px-3 py-1 text-sm font-semibold">
              <Leaf className="h-4 w-4" aria-hidden="true" /> <Trans>Share. Save. Sustain.</Trans>
            </p>
            <h1 className="mt-4 text-3xl font-extrabold tracking-tight sm:text-5xl">
              <Trans>Campus Impact Dashboard</Trans>
            </h1>
            <p className="mt-3 max-w-xl text-lg text-brand-50">
              {campusName ? (
                <Trans>
                  Every borrow returned at {campusName} keeps money in students' pockets and things out of
                  landfill.
                </Trans>
              ) : (
                <Trans>
                  Every borrow returned keeps money in students’ pockets and things out of landfill.
                </Trans>
              )}
            </p>
          </div>
          {campus && (data || missing) ? (
            <CampusPicker campus={campus} campusName={data?.campusName ?? campus} onChange={choose} />
          ) : failed ? null : (
            <Skeleton className="h-11 w-full max-w-md bg-white/30" />
          )}
        </div>
      </section>

      <div className="mx-auto max-w-6xl space-y-12 px-4 py-10">
        {missing ? (
          <Card className="mx-auto flex max-w-md flex-col items-center p-8 text-center">
            <MapPinOff className="h-10 w-10 text-stone-500" aria-hidden="true" />
            <h2 className="mt-3 text-xl font-bold text-ink">
              <Trans>Campus not found</Trans>
            </h2>
            <p className="mt-1 text-muted">
              <Trans>
                We could not find a campus called “{chosen}” in our university directory. Pick one above to
                see its impact.
              </Trans>
            </p>
            <Button className="mt-5" onClick={() => setParams({})}>
              {user ? <Trans>Show my campus</Trans> : <Trans>Show the most active campus</Trans>}
            </Button>
          </Card>
        ) : failed ? (
          <Card className="p-6">
            <ImpactError
              onRetry={() => (chosen || !viewer.isError ? void dashboard.refetch() : viewer.retry())}
              retrying={dashboard.isFetching}
            />
          </Card>
        ) : (
          <>
            <ImpactCollage figures={data?.impact} />
            {data ? (
              <>
                <SustainabilityGoals dashboard={data} />
                <CategoryImpactCards categories={data.categories} />
                <CampusAchievements achievements={data.achievements} />
                <section aria-labelledby="campus-heading" className="grid grid-cols-1 gap-4 lg:grid-cols-5">
                  <Card className="flex flex-col justify-between p-6 lg:col-span-2">
                    <div>
                      <h2 id="campus-heading" className="text-2xl font-bold text-ink">
                        {data.campusName}
                      </h2>
                      <p className="mt-2 text-muted">
                        <Plural value={members} one="# student shares here." other="# students share here." />{' '}
                        {returned > 0 ? (
                          <Plural
                            value={returned}
                            one="# borrow returned so far."
                            other="# borrows returned so far."
                          />
                        ) : (
                          <Trans>Nothing has been returned yet: the first borrow starts the count.</Trans>
                        )}
                      </p>
                    </div>
                    <div className="mt-5 flex flex-wrap gap-3">
                      <Button asChild>
                        <Link to={paths.browse}>
                          <Search className="h-4 w-4" aria-hidden="true" /> <Trans>Browse Items</Trans>
                        </Link>
                      </Button>
                      <Button asChild variant="outline">
                        <Link to={paths.listItem}>
                          <PlusCircle className="h-4 w-4" aria-hidden="true" /> <Trans>List an Item</Trans>
                        </Link>
                      </Button>
                    </div>
                  </Card>
                  <div className="lg:col-span-3">
                    <TopContributorsList
                      entries={data.topContributors}
                      loading={false}
                      error={false}
                      onRetry={() => void dashboard.refetch()}
                    />
                  </div>
                </section>
                <ImpactAssumptions />
              </>
            ) : (
              <DashboardSkeleton />
            )}
          </>
        )}
      </div>
    </div>
  );
}

function DashboardSkeleton() {
  return (
    <div className="space-y-12" aria-hidden="true">
      {[2, 4, 4].map((cards, section) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders that never reorder.
        <div key={section}>
          <Skeleton className="h-7 w-56" />
          <div className={`mt-4 grid gap-4 ${cards === 2 ? 'md:grid-cols-2' : 'grid-cols-2 md:grid-cols-4'}`}>
            {Array.from({ length: cards }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders that never reorder.
              <Skeleton key={i} className="h-36" />
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
