import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowRight, CalendarCheck, Handshake, Leaf, PackageOpen, PlusCircle, Search } from 'lucide-react';
import { type FormEvent, lazy, type ReactNode, Suspense, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Category } from '#shared/constants.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useSession } from '../features/auth/api.ts';
import { useViewerCampus } from '../features/impact/api.ts';
import { ImpactNumberRow } from '../features/impact/components/impact-number-row.tsx';
import { type ItemFilters, useInfiniteItems } from '../features/items/api.ts';
import { CategoryBar } from '../features/items/components/category-bar.tsx';
import { ItemGrid } from '../features/items/components/item-card.tsx';
import { LoadMore } from '../features/items/components/load-more.tsx';
import { rememberChosenCampus } from '../features/universities/chosen-campus.ts';
import { CampusSwitch } from '../features/universities/components/campus-switch.tsx';
import { useCampusName } from '../features/universities/queries.ts';
import { categoryLabel } from '../lib/category-labels.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { browseCampus, browseSearch, paths } from '../paths.ts';

// Spec §2 Home: hero with search, the row of impact numbers, category bar, the 'Available Near You'
// grid (8 at a time), how the loop works, 'Our Campus Impact' with 'Top Contributors This Week', and a
// call to action. One campus throughout: the viewer's own (a visitor's: the most active
// campus), or the one chosen with the campus switch.

// Below the fold: its own chunk, so Home's first load stays small.
const CampusImpactSection = lazy(() => import('../features/impact/components/campus-impact-section.tsx'));

/** Spec §9: the Home grid shows 8 items, 8 skeletons while loading, and 'Load More Items' adds 8. */
export const HOME_PAGE_SIZE = 8;

/** What 'Available Near You' lists (the server pre-renders it for visitors with the same filters). */
export function homeItemFilters(campus: string, category?: Category): ItemFilters {
  // Home shows no count: the server then counts nothing (decision 049).
  return { campus, category, availableNow: true, skipTotal: true };
}

const steps: { icon: typeof Search; title: MessageDescriptor; text: MessageDescriptor }[] = [
  {
    icon: Search,
    title: msg`Find it on campus`,
    text: msg`See what students at your university are lending: tools, textbooks, cookware, formal wear and more.`,
  },
  {
    icon: CalendarCheck,
    title: msg`Reserve your days`,
    text: msg`Pick the dates you need. The lender approves, and any fee or refundable deposit is paid securely by card.`,
  },
  {
    icon: Handshake,
    title: msg`Meet and return`,
    text: msg`Hand over at a campus meetup spot, then bring it back on time. Your deposit comes straight back.`,
  },
];

export default function HomePage() {
  useDocumentTitle('');
  const { t, i18n } = useLingui();
  const { user } = useSession();
  const viewer = useViewerCampus();
  // One campus for the whole page (figures and items alike): the student's own, a visitor's
  // the most active one, or the one chosen with the switch.
  const [chosen, setChosen] = useState<string>();
  const shown = chosen ?? viewer.campus;
  const campus = { campus: shown, campusError: viewer.isError, onCampusRetry: viewer.retry };
  return (
    <div>
      <Hero firstName={user?.fullName.split(' ')[0]} campusName={user?.campusName} campus={shown} />
      <section aria-label={t`Campus shown`} className="border-b border-line bg-brand-50">
        <div className="mx-auto max-w-6xl px-4 py-2 sm:py-4">
          {shown ? (
            <CampusSwitch
              campus={shown}
              ownCampus={user?.campus}
              onChange={(next) => {
                // Browse opened from the menu afterwards shows this campus too.
                rememberChosenCampus(next);
                setChosen(next);
              }}
            />
          ) : (
            <Skeleton className="h-[4.25rem] w-full max-w-md" />
          )}
        </div>
      </section>
      <ImpactNumberRow {...campus} />
      <AvailableNearYou campus={shown} />
      <section aria-labelledby="steps-heading" className="border-y border-line bg-white">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="steps-heading" className="text-2xl font-bold text-ink">
            <Trans>How the loop works</Trans>
          </h2>
          <ol className="mt-6 grid gap-4 md:grid-cols-3">
            {steps.map((step, i) => (
              <li key={step.title.id}>
                <Card className="h-full p-6">
                  <div className="flex items-center gap-3">
                    <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 font-bold text-white">
                      {i + 1}
                    </span>
                    <step.icon className="h-6 w-6 text-brand-700" aria-hidden="true" />
                  </div>
                  <h3 className="mt-4 text-lg font-semibold text-ink">{i18n._(step.title)}</h3>
                  <p className="mt-1 text-muted">{i18n._(step.text)}</p>
                </Card>
              </li>
            ))}
          </ol>
          <Link
            to={paths.about}
            className="mt-6 inline-flex min-h-11 items-center gap-1 font-semibold text-brand-700 hover:underline"
          >
            <Trans>Learn more about how it works</Trans>{' '}
            <ArrowRight className="rtl:-scale-x-100 h-4 w-4" aria-hidden="true" />
          </Link>
        </div>
      </section>
      <Suspense fallback={<Skeleton className="mx-auto my-12 h-96 max-w-6xl" />}>
        <CampusImpactSection {...campus} />
      </Suspense>
      <CallToAction signedIn={Boolean(user)} />
    </div>
  );
}

function Hero({
  firstName,
  campusName,
  campus,
}: {
  firstName?: string;
  campusName?: string;
  campus?: string;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const inputId = useId();

  // Spec §2: only a non-blank search goes to Browse; Enter submits the form like the button.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (query.trim()) navigate(browseSearch(query, campus));
  };

  return (
    // On a phone (375 × 667) the hero is short enough for the first items to show on the
    // first screen: smaller type, the long pitch and the tagline from sm up, the search on one row.
    <section className="relative overflow-hidden bg-gradient-to-br from-brand-800 via-brand-700 to-emerald-700 text-white">
      <div className="mx-auto max-w-6xl px-4 py-5 sm:py-20">
        <p className="hidden items-center gap-2 rounded-full bg-white/15 px-3 py-1 text-sm font-semibold sm:inline-flex">
          <Leaf className="h-4 w-4" aria-hidden="true" /> <Trans>Share. Save. Sustain.</Trans>
        </p>
        <h1 className="max-w-3xl text-2xl font-extrabold leading-tight tracking-tight sm:mt-4 sm:text-5xl lg:text-6xl">
          <Trans>Borrow what you need, lend what you don't.</Trans>
        </h1>
        {firstName && campusName ? (
          <p className="mt-2 max-w-2xl text-brand-50 sm:mt-4 sm:text-lg">
            <Trans>
              Welcome back, {firstName}. See what {campusName} students are sharing today.
            </Trans>
          </p>
        ) : (
          <p className="mt-4 hidden max-w-2xl text-lg text-brand-50 sm:block">
            <Trans>
              The lending marketplace for your university: borrow from classmates for a few days, lend what
              sits in your closet, and keep more money and less clutter.
            </Trans>
          </p>
        )}
        <search className="mt-4 block max-w-2xl sm:mt-8">
          <form onSubmit={onSubmit} className="flex gap-2">
            <label htmlFor={inputId} className="sr-only">
              <Trans>Search items</Trans>
            </label>
            <div className="relative flex-1">
              <Search
                className="pointer-events-none absolute start-3 top-1/2 h-5 w-5 -translate-y-1/2 text-stone-500"
                aria-hidden="true"
              />
              <input
                id={inputId}
                type="search"
                value={query}
                onChange={(event) => setQuery(event.target.value)}
                // Short enough to show whole beside the button on a 375 px phone, in Spanish too.
                placeholder={t`What do you need?`}
                autoComplete="off"
                enterKeyHint="search"
                className="block h-12 w-full rounded-lg border border-white bg-white ps-10 pe-3 text-base text-ink shadow-sm placeholder:text-stone-500 focus-visible:outline-white"
              />
            </div>
            <Button
              type="submit"
              size="lg"
              variant="inverse"
              className="px-4 focus-visible:outline-white sm:px-8"
            >
              <Trans>Search</Trans>
            </Button>
          </form>
        </search>
      </div>
    </section>
  );
}

function AvailableNearYou({ campus }: { campus: string | undefined }) {
  const { t } = useLingui();
  const [category, setCategory] = useState<Category | undefined>();
  const campusName = useCampusName(campus).data?.campusName;
  // Spec §2 lists every campus to a visitor; we show one campus, the same as the figures above.
  const { items, isPending, isError, refetch, hasNextPage, fetchNextPage, isFetchingNextPage, isFetching } =
    useInfiniteItems(homeItemFilters(campus ?? '', category), HOME_PAGE_SIZE, { enabled: Boolean(campus) });
  const loading = !campus || isPending;
  const categoryName = category && categoryLabel(category).toLowerCase();

  return (
    <section aria-labelledby="near-you-heading" className="mx-auto max-w-6xl px-4 py-5 sm:py-12">
      {/* On a phone the heading stays on one line beside View All (the first items on the first screen). */}
      <div className="flex items-center justify-between gap-3 sm:items-end">
        <div className="min-w-0">
          <h2 id="near-you-heading" className="text-lg font-bold text-ink sm:text-2xl">
            <Trans>Available Near You</Trans>
          </h2>
          {/* The campus switch just above names the campus on a phone; the line comes back from sm up. */}
          <p className="mt-1 hidden text-muted sm:block sm:text-base">
            {campusName ? (
              <Trans>Ready to borrow at {campusName}</Trans>
            ) : (
              <Trans>Ready to borrow on campus</Trans>
            )}
          </p>
        </div>
        <Button asChild variant="outline" className="shrink-0">
          {/* Browse opens on this campus and the category chosen here. */}
          <Link to={campus ? browseCampus(campus, category) : paths.browse}>
            <Trans>View All</Trans> <ArrowRight className="rtl:-scale-x-100 h-4 w-4" aria-hidden="true" />
          </Link>
        </Button>
      </div>

      <CategoryBar value={category} onChange={setCategory} className="mt-3 sm:mt-5" />

      <div className="mt-3 sm:mt-5">
        {isError && !loading ? (
          <EmptyState
            title={t`Failed to fetch items`}
            text={t`Something went wrong while loading the listings. Please try again.`}
          >
            <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
              <Trans>Try again</Trans>
            </Button>
          </EmptyState>
        ) : !loading && items.length === 0 ? (
          <EmptyState
            title={categoryName ? t`No ${categoryName} items yet` : t`Nothing listed yet`}
            text={
              category
                ? t`Nobody has listed anything in this category yet. Have something to share?`
                : t`Be the first to share something with your campus.`
            }
          >
            <Button asChild>
              <Link to={paths.listItem}>
                <PlusCircle className="h-4 w-4" aria-hidden="true" />
                <Trans>List an Item</Trans>
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={paths.askCampus(undefined, category)}>
                <Trans>Ask your campus</Trans>
              </Link>
            </Button>
            {category && (
              <Button variant="outline" onClick={() => setCategory(undefined)}>
                <Trans>Show all categories</Trans>
              </Button>
            )}
          </EmptyState>
        ) : (
          <ItemGrid items={items} loading={loading || isFetchingNextPage} skeletons={HOME_PAGE_SIZE} />
        )}
      </div>

      <LoadMore
        show={hasNextPage && !loading}
        loading={isFetchingNextPage}
        onLoad={() => void fetchNextPage()}
        label={t`Load More Items`}
      />
    </section>
  );
}

function EmptyState({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <Card className="flex flex-col items-center px-6 py-12 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <PackageOpen className="h-6 w-6" aria-hidden="true" />
      </span>
      <h3 className="mt-3 text-lg font-semibold text-ink">{title}</h3>
      <p className="mt-1 max-w-sm text-muted">{text}</p>
      <div className="mt-5 flex flex-wrap justify-center gap-3">{children}</div>
    </Card>
  );
}

function CallToAction({ signedIn }: { signedIn: boolean }) {
  const { t } = useLingui();
  return (
    <section aria-labelledby="cta-heading" className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <div className="rounded-3xl bg-ink px-6 py-10 text-center text-white sm:px-12">
        <h2 id="cta-heading" className="text-2xl font-bold sm:text-3xl">
          {signedIn ? t`Got something sitting idle?` : t`Ready to join your campus loop?`}
        </h2>
        <p className="mx-auto mt-2 max-w-xl text-stone-300">
          {signedIn
            ? t`List it in a couple of minutes and help a classmate save money while you earn a little.`
            : t`Sign up with your university email in under a minute, then borrow or lend with students you can trust.`}
        </p>
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg" variant="inverse">
            <Link to={paths.listItem}>
              <PlusCircle className="h-5 w-5" aria-hidden="true" />
              <Trans>List an Item</Trans>
            </Link>
          </Button>
          {signedIn && (
            // Looking for something nobody lists yet: the campus hears of it.
            <Button asChild size="lg" variant="inverseOutline">
              <Link to={paths.askCampus()}>
                <Trans>Ask your campus</Trans>
              </Link>
            </Button>
          )}
          {!signedIn && (
            <Button asChild size="lg" variant="inverseOutline">
              <Link to={paths.register}>
                <Trans>Join Now</Trans>
              </Link>
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}
