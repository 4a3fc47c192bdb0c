import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Award, Trophy } from 'lucide-react';
import { Link } from 'react-router';
import { formatCo2Small } from '#shared/format.ts';
import type { LeaderboardEntry } from '#shared/schemas/impact.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { paths } from '../../../paths.ts';
import { ImpactError } from './impact-error.tsx';

// Spec §2 Home 'Top Contributors This Week' (spec §3 Leaderboard entry), from the impact ledger:
// lenders ranked by their things returned since Monday.

const rankColours = [
  'bg-amber-400 text-amber-950',
  'bg-stone-300 text-stone-900',
  'bg-orange-300 text-orange-950',
];

export function TopContributorsList({
  entries,
  loading,
  error,
  onRetry,
  retrying,
  headingLevel = 3,
}: {
  entries: LeaderboardEntry[] | undefined;
  loading: boolean;
  error: boolean;
  onRetry: () => void;
  retrying?: boolean;
  headingLevel?: 2 | 3;
}) {
  const { t } = useLingui();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="flex h-full flex-col rounded-2xl border border-line bg-white p-5 shadow-sm">
      <Heading className="flex items-center gap-2 text-lg font-bold text-ink">
        <Trophy className="h-5 w-5 text-amber-600" aria-hidden="true" />
        <Trans>Top Contributors This Week</Trans>
      </Heading>
      {error && !loading ? (
        <ImpactError className="mt-4" onRetry={onRetry} retrying={retrying} />
      ) : loading || !entries ? (
        <ul className="mt-4 space-y-3" aria-label={t`Loading top contributors`}>
          {[0, 1, 2].map((i) => (
            <li key={i} className="flex items-center gap-3">
              <Skeleton className="h-10 w-10 rounded-full" />
              <div className="flex-1 space-y-2">
                <Skeleton className="h-4 w-1/2" />
                <Skeleton className="h-3 w-3/4" />
              </div>
            </li>
          ))}
        </ul>
      ) : entries.length === 0 ? (
        <p className="mt-4 text-muted">
          <Trans>
            Nothing has come back yet this week. Lend something, and when it is returned you could top this
            board.
          </Trans>
        </p>
      ) : (
        <ol className="mt-4 space-y-3">
          {entries.map((entry) => (
            <ContributorRow key={entry.userId} entry={entry} />
          ))}
        </ol>
      )}
    </div>
  );
}

/** One lender on the board: rank, photo, name, badges, and what they shared. */
function ContributorRow({ entry }: { entry: LeaderboardEntry }) {
  const { rank, badges, itemsShared } = entry;
  const co2 = formatCo2Small(entry.co2Saved);
  return (
    <li className="flex items-center gap-3">
      <span
        className={cn(
          'flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-sm font-bold',
          rankColours[rank - 1] ?? 'bg-brand-50 text-brand-800',
        )}
      >
        <Trans>
          <span className="sr-only">Rank </span>
          {rank}
        </Trans>
      </span>
      <Avatar name={entry.name} src={entry.profileImage} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <Link
            to={paths.profile(entry.userId)}
            className="min-w-0 truncate font-semibold text-ink hover:underline"
          >
            {entry.name}
          </Link>
          <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
            <Award className="h-3.5 w-3.5" aria-hidden="true" />
            <Plural value={badges} one="# badge" other="# badges" />
          </span>
        </div>
        <p className="text-sm text-muted">
          <Plural
            value={itemsShared}
            one={`# item shared · ${co2} CO₂ saved`}
            other={`# items shared · ${co2} CO₂ saved`}
          />
        </p>
      </div>
    </li>
  );
}
