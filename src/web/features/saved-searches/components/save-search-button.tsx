import { Trans, useLingui } from '@lingui/react/macro';
import { BellOff, BellRing } from 'lucide-react';
import { Link } from 'react-router';
import { withReturnTo } from '#shared/return-path.ts';
import type { SavedSearchInput } from '#shared/schemas/saved-searches.ts';
import { Button } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useHere } from '../../../lib/return-to.ts';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../paths.ts';
import { useSession } from '../../auth/api.ts';
import { keptSearch, useDeleteSavedSearch, useSavedSearches, useSaveSearch } from '../api.ts';

// On Browse, for a search with words: "Tell me when something matches" keeps the search (its words
// and filters); once kept, "Saved — stop telling me" deletes it. A visitor signs in first and comes
// back to the same search.

const HAS_A_WORD = /[\p{L}\p{N}]/u;

export function SaveSearchButton({ search, className }: { search: SavedSearchInput; className?: string }) {
  const { t } = useLingui();
  const { user, isLoading } = useSession();
  const here = useHere();
  const kept = useSavedSearches(Boolean(user));
  const save = useSaveSearch();
  const remove = useDeleteSavedSearch();
  if (!HAS_A_WORD.test(search.searchQuery) || isLoading) return null;
  if (!user) {
    return (
      <Button asChild variant="outline" size="sm" className={className}>
        <Link to={withReturnTo(paths.login, here)}>
          <BellRing className="h-4 w-4" aria-hidden="true" />
          <Trans>Tell me when something matches</Trans>
        </Link>
      </Button>
    );
  }
  const existing = keptSearch(kept.data?.savedSearches, search);
  const busy = kept.isPending || save.isPending || remove.isPending;
  const query = search.searchQuery.trim();
  if (existing) {
    return (
      <Button
        variant="secondary"
        size="sm"
        className={className}
        disabled={busy}
        aria-pressed="true"
        onClick={() =>
          remove.mutate(existing.id, {
            onSuccess: () => toast({ title: t`We will stop telling you about “${query}”.` }),
            onError: (error) =>
              toast({
                variant: 'destructive',
                title: t`Could not delete the saved search`,
                description: errorMessage(error, t`Please try again.`),
              }),
          })
        }
      >
        <BellOff className="h-4 w-4" aria-hidden="true" />
        <Trans>Saved — stop telling me</Trans>
      </Button>
    );
  }
  return (
    <Button
      variant="outline"
      size="sm"
      className={className}
      disabled={busy}
      aria-pressed="false"
      onClick={() =>
        save.mutate(search, {
          onSuccess: () =>
            toast({
              title: t`Saved: we will tell you about new listings for “${query}”.`,
              description: t`You can see and delete your saved searches in Settings.`,
            }),
          onError: (error) =>
            toast({
              variant: 'destructive',
              title: t`Could not save the search`,
              description: errorMessage(error, t`Please try again.`),
            }),
        })
      }
    >
      <BellRing className="h-4 w-4" aria-hidden="true" />
      <Trans>Tell me when something matches</Trans>
    </Button>
  );
}
