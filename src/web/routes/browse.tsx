import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Search, SlidersHorizontal } from 'lucide-react';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Category, PickupMethod } from '#shared/constants.ts';
import { Button } from '../components/ui/button.tsx';
import { inputClasses } from '../components/ui/input.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useSession } from '../features/auth/api.ts';
import { type ItemFilters, useInfiniteItems } from '../features/items/api.ts';
import { BrowseFilters, type BrowseFilterValues } from '../features/items/components/browse-filters.tsx';
import { CategoryBar } from '../features/items/components/category-bar.tsx';
import { EmptyResults } from '../features/items/components/empty-results.tsx';
import { ItemGrid } from '../features/items/components/item-card.tsx';
import { LoadMore } from '../features/items/components/load-more.tsx';
import { itemsFound } from '../features/items/items-found.ts';
import { useSearchText } from '../features/items/use-search-text.ts';
import { ALL_CAMPUSES, CampusSwitch } from '../features/universities/components/campus-switch.tsx';
import { useCampusName } from '../features/universities/queries.ts';
import { cn } from '../lib/cn.ts';
import { useDebounced } from '../lib/use-debounced.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

// Spec §2 Browse: every campus, but the signed-in student's campus first, with a campus switch whose
// choice is the address bar's ?campus=. The search text is the box's own and follows to the address bar
// (?q=) once typing pauses (use-search-text.ts). Category and filters are local.

/** Spec §9: 12 skeletons while loading; 'Load more' adds 12 (the server's default page). */
export const BROWSE_PAGE_SIZE = 12;
const PAGE_SIZE = BROWSE_PAGE_SIZE;
/** The cards in view when the page opens: two rows on a phone, the first row on a wide screen. */
const FIRST_VIEW_CARDS = 4;
const MAX_PRICE_DEBOUNCE_MS = 300;

/** The max-price box as a filter: empty (or not a number of at least 0) means no limit. */
function parseMaxPrice(text: string): number | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

interface BrowseState {
  search: string;
  /** A campus domain, or 'all' (in the address bar as ?campus=). */
  campus: string;
  category?: Category;
  availableNow: boolean;
  freeOnly: boolean;
  maxPrice: string;
  pickupMethod: PickupMethod | '';
}

/** What the page opens with: the address bar's search and campus, available now, nothing else. */
export const initialBrowseState = (search: string, campus = 'all'): BrowseState => ({
  search,
  campus,
  availableNow: true,
  freeOnly: false,
  maxPrice: '',
  pickupMethod: '',
});

/** The list's filters for what the page shows (the server pre-renders the first view the same way). */
export function browseFilters(state: BrowseState): ItemFilters {
  return {
    campus: state.campus,
    category: state.category,
    searchQuery: state.search.trim(),
    availableNow: state.availableNow,
    freeOnly: state.freeOnly,
    maxPrice: parseMaxPrice(state.maxPrice),
    pickupMethod: state.pickupMethod || undefined,
  };
}

/**
 * The campus Browse shows: the address bar's ?campus= when there is one, else the signed-in
 * student's own, else every campus (spec §2, a visitor; the server pre-renders that). Undefined while
 * the session is still being asked.
 */
function useBrowseCampus() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { user, isLoading } = useSession();
  const fromAddress = searchParams.get('campus')?.trim().toLowerCase() || undefined;
  const campus = fromAddress ?? (isLoading ? undefined : (user?.campus ?? ALL_CAMPUSES));
  const choose = (next: string) =>
    setSearchParams((previous) => {
      const params = new URLSearchParams(previous);
      params.set('campus', next);
      return params;
    });
  return { campus, ownCampus: user?.campus, choose };
}

export default function BrowsePage() {
  const { t } = useLingui();
  useDocumentTitle(t`Browse Items`);
  const ids = useId();
  const { search, setSearch, settledSearch, clearSearch, input: searchInput } = useSearchText();
  const { campus, ownCampus, choose: chooseCampus } = useBrowseCampus();
  const campusName = useCampusName(campus).data?.campusName;
  const initial = initialBrowseState(search);
  const [category, setCategory] = useState<Category | undefined>(initial.category);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [filterValues, setFilterValues] = useState<BrowseFilterValues>({
    freeOnly: initial.freeOnly,
    availableNow: initial.availableNow,
    maxPrice: initial.maxPrice,
    pickupMethod: initial.pickupMethod,
  });
  const { freeOnly, availableNow, maxPrice, pickupMethod } = filterValues;

  const debouncedMaxPrice = useDebounced(maxPrice, MAX_PRICE_DEBOUNCE_MS);
  const filters = browseFilters({
    search: settledSearch,
    campus: campus ?? ALL_CAMPUSES,
    category,
    availableNow,
    freeOnly,
    maxPrice: debouncedMaxPrice,
    pickupMethod,
  });
  const {
    items,
    total,
    totalCapped,
    isPending,
    isError,
    refetch,
    isFetching,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage,
  } = useInfiniteItems(filters, PAGE_SIZE, { enabled: Boolean(campus) });

  // Spec §2: resets search and category, free-only off, available-now on. The max price and pickup
  // method go too: a 'Clear all filters' that left a filter behind could leave the list empty.
  const resetFilters = () =>
    setFilterValues({ freeOnly: false, availableNow: true, maxPrice: '', pickupMethod: '' });
  const clearAll = () => {
    clearSearch();
    setCategory(undefined);
    resetFilters();
  };

  const activeFilters = [
    freeOnly,
    !availableNow,
    parseMaxPrice(maxPrice) !== undefined,
    pickupMethod !== '',
  ].filter(Boolean).length;

  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-3xl font-bold tracking-tight text-ink">
        <Trans>Browse Items</Trans>
      </h1>
      <p className="mt-1 text-muted">
        {campus === ALL_CAMPUSES || !campus ? (
          <Trans>Find what you need from students on campuses everywhere.</Trans>
        ) : campusName ? (
          <Trans>Find what you need from students at {campusName}.</Trans>
        ) : (
          <Trans>Find what you need from students at this campus.</Trans>
        )}
      </p>
      {campus ? (
        <CampusSwitch
          className="mt-4"
          campus={campus}
          ownCampus={ownCampus}
          onChange={chooseCampus}
          allowAll
        />
      ) : (
        <Skeleton className="mt-4 h-[4.25rem] w-full max-w-md" />
      )}

      <div className="mt-6 flex gap-2">
        <search className="relative min-w-0 flex-1">
          <form onSubmit={(event) => event.preventDefault()}>
            <label htmlFor={`${ids}-q`} className="sr-only">
              <Trans>Search items</Trans>
            </label>
            <Search
              className="pointer-events-none absolute start-3 top-1/2 h-5 w-5 -translate-y-1/2 text-stone-500"
              aria-hidden="true"
            />
            <input
              id={`${ids}-q`}
              ref={searchInput}
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder={t`Search items...`}
              autoComplete="off"
              enterKeyHint="search"
              className={cn(inputClasses, 'ps-10')}
            />
          </form>
        </search>
        <Button
          variant={filtersOpen ? 'secondary' : 'outline'}
          aria-expanded={filtersOpen}
          aria-controls={`${ids}-filters`}
          onClick={() => setFiltersOpen((open) => !open)}
          className="shrink-0"
        >
          <SlidersHorizontal className="h-4 w-4" aria-hidden="true" />
          <Trans>Filters</Trans>
          {activeFilters > 0 && (
            <span className="flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-700 px-1 text-xs font-bold text-white">
              <Trans>
                {activeFilters}
                <span className="sr-only">
                  {' '}
                  <Plural value={activeFilters} one="active" other="active" />
                </span>
              </Trans>
            </span>
          )}
        </Button>
      </div>

      <CategoryBar value={category} onChange={setCategory} className="mt-4" />

      <BrowseFilters
        ids={ids}
        hidden={!filtersOpen}
        values={filterValues}
        activeFilters={activeFilters}
        onChange={(change) => setFilterValues((values) => ({ ...values, ...change }))}
        onReset={resetFilters}
      />

      <section aria-labelledby={`${ids}-results`} className="mt-6">
        <h2 id={`${ids}-results`} className="sr-only">
          <Trans>Results</Trans>
        </h2>
        <p role="status" className="text-sm font-medium text-stone-700">
          {isPending ? t`Loading...` : isError ? '' : itemsFound(total, totalCapped)}
        </p>
        <div className="mt-3">
          {isError ? (
            <EmptyResults
              title={t`Failed to fetch items`}
              text={t`Something went wrong while loading the listings.`}
            >
              <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
                <Trans>Try again</Trans>
              </Button>
            </EmptyResults>
          ) : !isPending && items.length === 0 ? (
            <EmptyResults
              title={t`No items found`}
              text={t`Try adjusting your search terms or filters to find what you're looking for.`}
            >
              <Button variant="outline" onClick={clearAll}>
                <Trans>Clear all filters</Trans>
              </Button>
              {campus !== ALL_CAMPUSES && (
                <Button variant="outline" onClick={() => chooseCampus(ALL_CAMPUSES)}>
                  <Trans>Search all campuses</Trans>
                </Button>
              )}
            </EmptyResults>
          ) : (
            <ItemGrid
              items={items}
              loading={isPending || isFetchingNextPage}
              skeletons={PAGE_SIZE}
              priority={FIRST_VIEW_CARDS}
            />
          )}
        </div>
        <LoadMore
          show={hasNextPage && !isPending}
          loading={isFetchingNextPage}
          onLoad={() => void fetchNextPage()}
          label={t`Load more`}
        />
      </section>
    </div>
  );
}
