import { Trans, useLingui } from '@lingui/react/macro';
import { Search, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import { formatPrice } from '#shared/format.ts';
import type { SavedSearch } from '#shared/schemas/saved-searches.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { categoryLabel } from '../../../lib/category-labels.ts';
import { toast } from '../../../lib/toast.ts';
import { browseSavedSearch, paths } from '../../../paths.ts';
import { useDeleteSavedSearch, useSavedSearches } from '../api.ts';

// Settings: the searches the student asked to be told about, each with its filters, a link to its
// results, and Delete.

export function SavedSearchesSection() {
  const kept = useSavedSearches();
  const titleId = 'saved-searches-title';
  return (
    <Card className="p-5 sm:p-6" aria-labelledby={titleId} role="region" id="saved-searches">
      <h2 id={titleId} className="text-lg font-bold text-ink">
        <Trans>Saved searches</Trans>
      </h2>
      <p className="mt-1 text-sm text-muted">
        <Trans>
          We tell you when something new on your campus matches one of these, by the notification choices
          above.
        </Trans>
      </p>
      <div className="mt-5">
        {kept.isPending ? (
          <div role="status" className="space-y-2">
            <span className="sr-only">
              <Trans>Loading your saved searches...</Trans>
            </span>
            <Skeleton className="h-14 w-full rounded-xl" />
            <Skeleton className="h-14 w-full rounded-xl" />
          </div>
        ) : kept.isError ? (
          <div role="alert" className="text-sm">
            <p className="font-medium text-danger">
              <Trans>Your saved searches could not be loaded.</Trans>
            </p>
            <Button variant="outline" size="sm" className="mt-2" onClick={() => void kept.refetch()}>
              <Trans>Try again</Trans>
            </Button>
          </div>
        ) : kept.data.savedSearches.length === 0 ? (
          <div className="text-sm text-muted">
            <p>
              <Trans>
                No saved searches yet. Search on Browse, then choose “Tell me when something matches”.
              </Trans>
            </p>
            <Button asChild variant="outline" size="sm" className="mt-3">
              <Link to={paths.browse}>
                <Search className="h-4 w-4" aria-hidden="true" />
                <Trans>Browse Items</Trans>
              </Link>
            </Button>
          </div>
        ) : (
          <>
            <ul className="space-y-2">
              {kept.data.savedSearches.map((search) => (
                <SavedSearchRow key={search.id} search={search} />
              ))}
            </ul>
            <SavedCount count={kept.data.savedSearches.length} limit={kept.data.limit} />
          </>
        )}
      </div>
    </Card>
  );
}

function SavedCount({ count, limit }: { count: number; limit: number }) {
  const { t } = useLingui();
  return <p className="mt-3 text-xs text-muted">{t`${count} of ${limit} saved searches`}</p>;
}

function SavedSearchRow({ search }: { search: SavedSearch }) {
  const { t } = useLingui();
  const remove = useDeleteSavedSearch();
  const price = search.maxPrice === null ? '' : formatPrice(search.maxPrice);
  const filters = [
    search.category ? categoryLabel(search.category) : null,
    search.freeOnly ? t`Free only` : null,
    search.maxPrice !== null && !search.freeOnly ? t`Up to ${price}` : null,
  ].filter(Boolean);
  const query = search.searchQuery;
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border border-line bg-stone-50 px-3 py-2">
      <div className="min-w-0 flex-1">
        <Link
          to={browseSavedSearch(search)}
          className="break-words font-semibold text-ink underline-offset-2 hover:underline focus-visible:underline"
        >
          “{query}”
        </Link>
        {filters.length > 0 && <p className="text-xs text-muted">{filters.join(' · ')}</p>}
      </div>
      <Button
        variant="ghost"
        size="sm"
        disabled={remove.isPending}
        aria-label={t`Delete the saved search “${query}”`}
        onClick={() =>
          remove.mutate(search.id, {
            onError: (error) =>
              toast({
                variant: 'destructive',
                title: t`Could not delete the saved search`,
                description: errorMessage(error, t`Please try again.`),
              }),
          })
        }
      >
        <Trash2 className="h-4 w-4" aria-hidden="true" />
        <Trans>Delete</Trans>
      </Button>
    </li>
  );
}
