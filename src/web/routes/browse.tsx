import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Search, SlidersHorizontal } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { inputClasses } from '../components/ui/input.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useSession } from '../features/auth/api.ts';
import { type ItemFilters, useInfiniteItems } from '../features/items/api.ts';
import {
  type BrowseChange,
  type BrowseChoice,
  CLEARED,
  FILTERS_RESET,
  parseMaxPrice,
  readBrowseAddress,
  TYPED_PARAMS,
  writeBrowseAddress,
} from '../features/items/browse-address.ts';
import { BrowseFilters } from '../features/items/components/browse-filters.tsx';
import { CategoryBar } from '../features/items/components/category-bar.tsx';
import { EmptyResults } from '../features/items/components/empty-results.tsx';
import { ItemGrid } from '../features/items/components/item-card.tsx';
import { LoadMore } from '../features/items/components/load-more.tsx';
import { itemsFound } from '../features/items/items-found.ts';
import { useAddressText } from '../features/items/use-address-text.ts';
import { SaveSearchButton } from '../features/saved-searches/components/save-search-button.tsx';
import { chosenCampus, rememberChosenCampus } from '../features/universities/chosen-campus.ts';
import { ALL_CAMPUSES, CampusSwitch } from '../features/universities/components/campus-switch.tsx';
import { useCampusName } from '../features/universities/queries.ts';
import { cn } from '../lib/cn.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

// Spec §2 Browse: every campus, but the signed-in student's campus first, with a campus switch. Every
// choice (search words, campus, category, filters, pages loaded) lives in the address
// (features/items/browse-address.ts): Back restores the previous list, a reload or a shared link shows
// the same one. The typed boxes (search, max price) reach it once typing pauses (use-address-text.ts).
// On a phone the page is compact so the first results show on the first screen.

/** Spec §9: 12 skeletons while loading; 'Load more' adds 12 (the server's default page). */
export const BROWSE_PAGE_SIZE = 12;
const PAGE_SIZE = BROWSE_PAGE_SIZE;
/** The cards in view when the page opens: two rows on a phone, the first row on a wide screen. */
const FIRST_VIEW_CARDS = 4;

/** The list's filters for what the address asks (the server pre-renders the first view the same way). */
export function browseFilters(choice: BrowseChoice, campus: string): ItemFilters {
  return {
    campus,
    category: choice.category,
    searchQuery: choice.search.trim(),
    availableNow: choice.availableNow,
    freeOnly: choice.freeOnly,
    maxPrice: parseMaxPrice(choice.maxPrice),
    pickupMethod: choice.pickupMethod || undefined,
    sort: choice.sort || undefined,
  };
}

/**
 * The campus Browse shows: the address bar's ?campus= when there is one, else the campus last picked
 * with a campus switch in this tab (written into the address), else the signed-in student's own, else
 * every campus (spec §2, a visitor; the server pre-renders that). Undefined while the session is still
 * being asked.
 */
function useBrowseCampus(fromAddress: string | undefined, change: (change: AddressChange) => void) {
  const { user, isLoading } = useSession();
  // Read after hydration: the server cannot know it, and the first render must match the server's.
  const [picked, setPicked] = useState<string>();
  useEffect(() => {
    const remembered = chosenCampus();
    if (!fromAddress && remembered) setPicked(remembered);
  }, [fromAddress]);
  useEffect(() => {
    // The campus picked on Home goes into the address, where Back and a shared link keep it.
    if (!fromAddress && picked) change({ campus: picked, replace: true });
  }, [fromAddress, picked, change]);
  const campus = fromAddress ?? picked ?? (isLoading ? undefined : (user?.campus ?? ALL_CAMPUSES));
  const choose = (next: string) => {
    rememberChosenCampus(next);
    change({ campus: next });
  };
  return { campus, ownCampus: user?.campus, choose };
}

/** A change of the address: a new history entry unless `replace`. */
type AddressChange = BrowseChange & { replace?: boolean };

/**
 * The page's choices as its address says, and a way to change them (a new history entry unless
 * `replace`). Changes build on the last one asked for, not on the address last rendered: two that come
 * before the page renders again (both typed boxes settling at once) must not undo each other.
 */
function useBrowseAddress() {
  const [searchParams, setSearchParams] = useSearchParams();
  const rendered = searchParams.toString();
  const pending = useRef<string | null>(null);
  useEffect(() => {
    // The address has caught up with (or moved past, Back) the changes asked for.
    void rendered;
    pending.current = null;
  }, [rendered]);
  const setParams = useRef(setSearchParams);
  setParams.current = setSearchParams;
  const base = useRef(rendered);
  base.current = rendered;
  // Stable, so effects may depend on it; React Router makes a new setter whenever the address changes.
  const change = useCallback(({ replace, ...rest }: AddressChange) => {
    const next = writeBrowseAddress(new URLSearchParams(pending.current ?? base.current), rest);
    pending.current = next.toString();
    setParams.current(next, { replace });
  }, []);
  return {
    choice: readBrowseAddress(searchParams),
    raw: (name: string) => searchParams.get(name) ?? '',
    change,
    /** The address's query after `c`, for a link: it works before the pre-rendered page hydrates. */
    searchAfter: (c: BrowseChange) => `?${writeBrowseAddress(searchParams, c)}`,
  };
}

export default function BrowsePage() {
  const { t } = useLingui();
  useDocumentTitle(t`Browse Items`);
  const ids = useId();
  const { choice, raw, change, searchAfter } = useBrowseAddress();
  // Typing replaces the entry: Back leaves the page rather than stepping through keystrokes.
  const searchBox = useAddressText(raw(TYPED_PARAMS.search), (search) => change({ search, replace: true }));
  const maxPriceBox = useAddressText(raw(TYPED_PARAMS.maxPrice), (maxPrice) =>
    change({ maxPrice, replace: true }),
  );
  const { campus, ownCampus, choose: chooseCampus } = useBrowseCampus(choice.campus, change);
  const campusName = useCampusName(campus).data?.campusName;
  const [filtersOpen, setFiltersOpen] = useState(false);

  const filters = browseFilters(choice, campus ?? ALL_CAMPUSES);
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
    data,
  } = useInfiniteItems(filters, PAGE_SIZE, { enabled: Boolean(campus) });

  // The address says how many pages are shown: a reload or Back after 'Load more' shows them all again.
  const loadedPages = data?.pages.length ?? 0;
  useEffect(() => {
    if (loadedPages > 0 && loadedPages < choice.pages && hasNextPage && !isFetchingNextPage && !isError)
      void fetchNextPage();
  }, [loadedPages, choice.pages, hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  // 'Load more' (a link) is written over the entry: Back leaves the list rather than stepping through
  // its pages.

  const activeFilters = [
    choice.freeOnly,
    !choice.availableNow,
    parseMaxPrice(choice.maxPrice) !== undefined,
    choice.pickupMethod !== '',
    choice.sort !== '',
  ].filter(Boolean).length;

  return (
    <div className="mx-auto max-w-6xl px-4 py-4 sm:py-8">
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">
        <Trans>Browse Items</Trans>
      </h1>
      {/* The campus switch just below names the campus on a phone; the line comes back from sm up. */}
      <p className="mt-1 hidden text-muted sm:block">
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
          className="mt-3 sm:mt-4"
          campus={campus}
          ownCampus={ownCampus}
          onChange={chooseCampus}
          allowAll
          compact
        />
      ) : (
        <Skeleton className="mt-3 h-11 w-full max-w-md sm:mt-4 sm:h-[4.25rem]" />
      )}

      <div className="mt-3 flex gap-2 sm:mt-6">
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
              ref={searchBox.input}
              type="search"
              value={searchBox.text}
              onChange={(event) => searchBox.setText(event.target.value)}
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

      <CategoryBar
        value={choice.category}
        onChange={(category) => change({ category: category ?? null })}
        className="mt-1 sm:mt-4"
      />

      <BrowseFilters
        ids={ids}
        hidden={!filtersOpen}
        values={{ ...choice, maxPrice: maxPriceBox.text }}
        maxPriceInput={maxPriceBox.input}
        activeFilters={activeFilters}
        onChange={({ maxPrice, ...rest }) => {
          if (maxPrice !== undefined) maxPriceBox.setText(maxPrice);
          if (Object.keys(rest).length > 0) change(rest);
        }}
        onReset={() => change(FILTERS_RESET)}
      />

      <section aria-labelledby={`${ids}-results`} className="mt-2 sm:mt-6">
        <h2 id={`${ids}-results`} className="sr-only">
          <Trans>Results</Trans>
        </h2>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p role="status" className="text-sm font-medium text-stone-700">
            {isPending ? t`Loading...` : isError ? '' : itemsFound(total, totalCapped)}
          </p>
          {/* Told of new listings on the student's own campus, with this search's words and filters. */}
          <SaveSearchButton
            search={{
              searchQuery: filters.searchQuery ?? '',
              category: filters.category,
              maxPrice: filters.maxPrice,
              freeOnly: filters.freeOnly || undefined,
            }}
          />
        </div>
        <div className="mt-2 sm:mt-3">
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
              {/* Nobody lists it yet: ask the campus instead (the board's form, filled in). */}
              <Button asChild>
                <Link to={paths.askCampus(choice.search, choice.category ?? undefined)}>
                  <Trans>Ask your campus</Trans>
                </Link>
              </Button>
              {/* A link: a tap on the pre-rendered page before its script has run still clears them. */}
              <Button variant="outline" asChild>
                <Link to={{ search: searchAfter(CLEARED) }}>
                  <Trans>Clear all filters</Trans>
                </Link>
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
          to={{ search: searchAfter({ pages: Math.max(loadedPages, choice.pages) + 1 }) }}
          label={t`Load more`}
        />
        {items.length > 0 && !hasNextPage && (
          <p className="mt-6 text-center text-muted">
            <Trans>
              Not what you need?{' '}
              <Link
                to={paths.askCampus(choice.search, choice.category ?? undefined)}
                className="font-medium text-brand-700 underline underline-offset-4"
              >
                Ask your campus
              </Link>
            </Trans>
          </p>
        )}
      </section>
    </div>
  );
}
