import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Search, SearchX, SlidersHorizontal } from 'lucide-react';
import { type ChangeEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type Category, PICKUP_METHODS, type PickupMethod } from '#shared/constants.ts';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { inputClasses } from '../components/ui/input.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useSession } from '../features/auth/api.ts';
import { type ItemFilters, useInfiniteItems } from '../features/items/api.ts';
import { CategoryBar } from '../features/items/components/category-bar.tsx';
import { ItemGrid } from '../features/items/components/item-card.tsx';
import { LoadMore } from '../features/items/components/load-more.tsx';
import { itemsFound } from '../features/items/items-found.ts';
import { ALL_CAMPUSES, CampusSwitch } from '../features/universities/components/campus-switch.tsx';
import { useCampusName } from '../features/universities/queries.ts';
import { cn } from '../lib/cn.ts';
import { useDebounced } from '../lib/use-debounced.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

// Spec §2 Browse: every campus; issue 16: the signed-in student's campus first, with a campus switch
// whose choice is the address bar's ?campus=. The search text is the box's own and follows to the address bar
// (?q=) once typing pauses, replacing the entry so Back leaves the page rather than stepping through
// keystrokes. The box never reads back what it wrote: the address bar lags typing on a slow phone and
// reading it back dropped keys (issue 16). Category and filters are local.

/** Spec §9: 12 skeletons while loading; 'Load more' adds 12 (the server's default page). */
export const BROWSE_PAGE_SIZE = 12;
const PAGE_SIZE = BROWSE_PAGE_SIZE;
/** The cards in view when the page opens: two rows on a phone, the first row on a wide screen. */
const FIRST_VIEW_CARDS = 4;
const SEARCH_DEBOUNCE_MS = 300;

const PICKUP_LABELS: Record<PickupMethod, MessageDescriptor> = {
  meetup: msg`Campus meetup`,
  locker: msg`Smart locker`,
};

const pickupOptions: { value: PickupMethod | ''; label: MessageDescriptor }[] = [
  { value: '', label: msg`Any method` },
  ...PICKUP_METHODS.map((value) => ({ value, label: PICKUP_LABELS[value] })),
];

/** The max-price box as a filter: empty (or not a number of at least 0) means no limit. */
function parseMaxPrice(text: string): number | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

interface BrowseState {
  search: string;
  /** A campus domain, or 'all' (issue 16: in the address bar as ?campus=). */
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
 * The campus Browse shows (issue 16): the address bar's ?campus= when there is one, else the signed-in
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
  const { t, i18n } = useLingui();
  useDocumentTitle(t`Browse Items`);
  const ids = useId();
  const { search, setSearch, settledSearch, clearSearch, input: searchInput } = useSearchText();
  const { campus, ownCampus, choose: chooseCampus } = useBrowseCampus();
  const campusName = useCampusName(campus).data?.campusName;
  const initial = initialBrowseState(search);
  const [category, setCategory] = useState<Category | undefined>(initial.category);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [freeOnly, setFreeOnly] = useState(initial.freeOnly);
  const [availableNow, setAvailableNow] = useState(initial.availableNow);
  const [maxPrice, setMaxPrice] = useState(initial.maxPrice);
  const [pickupMethod, setPickupMethod] = useState<PickupMethod | ''>(initial.pickupMethod);

  const debouncedMaxPrice = useDebounced(maxPrice, SEARCH_DEBOUNCE_MS);
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
  const resetFilters = () => {
    setFreeOnly(false);
    setAvailableNow(true);
    setMaxPrice('');
    setPickupMethod('');
  };
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

      <Card id={`${ids}-filters`} hidden={!filtersOpen} className="mt-3 p-4 sm:p-5">
        <fieldset>
          <legend className="sr-only">
            <Trans>Filters</Trans>
          </legend>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Checkbox
              id={`${ids}-free`}
              label={t`Free only`}
              checked={freeOnly}
              onChange={(event) => setFreeOnly(event.target.checked)}
            />
            <Checkbox
              id={`${ids}-now`}
              label={t`Available now`}
              checked={availableNow}
              onChange={(event) => setAvailableNow(event.target.checked)}
            />
            <div className="space-y-1.5">
              <label htmlFor={`${ids}-max`} className="block text-sm font-semibold text-ink">
                <Trans>Max price ($)</Trans>
              </label>
              <input
                id={`${ids}-max`}
                type="number"
                inputMode="decimal"
                min={0}
                step={0.01}
                value={maxPrice}
                onChange={(event) => setMaxPrice(event.target.value)}
                placeholder={t`No limit`}
                className={inputClasses}
              />
            </div>
            <div className="space-y-1.5">
              <label htmlFor={`${ids}-pickup`} className="block text-sm font-semibold text-ink">
                <Trans>Pickup method</Trans>
              </label>
              <select
                id={`${ids}-pickup`}
                value={pickupMethod}
                onChange={(event) => setPickupMethod(event.target.value as PickupMethod | '')}
                className={inputClasses}
              >
                {pickupOptions.map((option) => (
                  <option key={option.value || 'any'} value={option.value}>
                    {i18n._(option.label)}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </fieldset>
        {activeFilters > 0 && (
          <div className="mt-3 flex justify-end">
            <Button variant="ghost" onClick={resetFilters} className="text-brand-800">
              <Trans>Reset filters</Trans>
            </Button>
          </div>
        )}
      </Card>

      <section aria-labelledby={`${ids}-results`} className="mt-6">
        <h2 id={`${ids}-results`} className="sr-only">
          <Trans>Results</Trans>
        </h2>
        <p role="status" className="text-sm font-medium text-stone-700">
          {isPending ? t`Loading...` : isError ? '' : itemsFound(total, totalCapped)}
        </p>
        <div className="mt-3">
          {isError ? (
            <EmptyState
              title={t`Failed to fetch items`}
              text={t`Something went wrong while loading the listings.`}
            >
              <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
                <Trans>Try again</Trans>
              </Button>
            </EmptyState>
          ) : !isPending && items.length === 0 ? (
            <EmptyState
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
            </EmptyState>
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

/**
 * The search box's text, and the address bar's ?q= kept in step with it both ways: typing writes q
 * once it pauses (replacing the entry); a q that arrives from elsewhere (Back, Forward, a link with
 * ?q=) becomes the text. Only a q this hook did not write itself is taken in, so the echo of an
 * earlier write never overwrites keys typed since.
 */
function useSearchText() {
  const [searchParams, setSearchParams] = useSearchParams();
  const addressBar = searchParams.get('q') ?? '';
  const [search, setSearch] = useState(addressBar);
  const written = useRef(addressBar);
  // React Router makes a new setter whenever the address changes; the write below must not re-run then.
  const setParams = useRef(setSearchParams);
  setParams.current = setSearchParams;

  const writeAddressBar = (text: string) => {
    written.current = text;
    setParams.current(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (text) next.set('q', text);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  };

  useEffect(() => {
    if (addressBar === written.current) return;
    written.current = addressBar;
    setSearch(addressBar);
  }, [addressBar]);

  // Browse arrives pre-rendered: on a slow phone someone can type before the script has taken over the
  // page, and no change event reaches React for those keys. Once it has, the box's own text wins.
  const input = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, right after hydration
  useEffect(() => {
    const typed = input.current?.value;
    if (typed !== undefined && typed !== search) setSearch(typed);
  }, []);

  const settled = useDebounced(search, SEARCH_DEBOUNCE_MS);
  // biome-ignore lint/correctness/useExhaustiveDependencies: writes only when the typed text settles
  useEffect(() => {
    if (settled !== written.current) writeAddressBar(settled);
  }, [settled]);

  return {
    search,
    setSearch,
    /** The search box: read once after hydration for keys typed before it. */
    input,
    /** The text once typing pauses, as the list searches it. */
    settledSearch: settled.trim(),
    clearSearch: () => {
      setSearch('');
      writeAddressBar('');
    },
  };
}

function Checkbox({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  return (
    <div className="flex items-end">
      <label
        htmlFor={id}
        className="flex min-h-11 w-full cursor-pointer items-center gap-3 rounded-lg border border-line px-3 hover:bg-stone-50 has-[:checked]:border-brand-200 has-[:checked]:bg-brand-50"
      >
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={onChange}
          className="h-5 w-5 shrink-0 cursor-pointer accent-brand-700"
        />
        <span className="text-sm font-semibold text-ink">{label}</span>
      </label>
    </div>
  );
}

function EmptyState({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <Card className="flex flex-col items-center px-6 py-12 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <SearchX className="h-6 w-6" aria-hidden="true" />
      </span>
      <h3 className="mt-3 text-lg font-semibold text-ink">{title}</h3>
      <p className="mt-1 max-w-sm text-muted">{text}</p>
      <div className="mt-5 flex flex-wrap justify-center gap-3">{children}</div>
    </Card>
  );
}
