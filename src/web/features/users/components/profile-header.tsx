import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { CalendarDays, CalendarX, MapPin } from 'lucide-react';
import { useId } from 'react';
import type { ProfileResponse } from '#shared/schemas/users.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import { Stars } from '../../../components/rating.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { formatDate } from '../../../lib/item-labels.ts';
import { VerifiedMark } from '../../items/api.ts';
import { BadgeList } from './badge-list.tsx';

/** Spec §2 Profile: who they are, their rating (revealed reviews only) and their badges. */
export function ProfileHeader({ profile, own }: { profile: ProfileResponse; own: boolean }) {
  const { user, stats, badges } = profile;
  const badgesHeadingId = useId();
  const average = stats.averageRating;
  const joined = formatDate(user.createdAt, 'MMMM yyyy');
  const reviewCount = stats.reviewCount;
  return (
    <Card className="p-5 sm:p-8">
      <div className="flex flex-col items-center gap-5 text-center sm:flex-row sm:items-start sm:text-start">
        <Avatar name={user.fullName} src={user.profileImage} size="lg" />
        <div className="min-w-0 flex-1">
          <h1 className="break-words text-2xl font-bold tracking-tight text-ink sm:text-3xl">
            {user.fullName}
          </h1>
          <p className="text-muted">@{user.username}</p>
          <div className="mt-3 flex flex-wrap items-center justify-center gap-x-4 gap-y-1 text-sm text-stone-700 sm:justify-start">
            {user.isVerified && (
              // Spelled out here; the item page's lender card shows the same mark as an icon with a label.
              <span className="inline-flex items-center gap-1.5 font-semibold text-brand-800">
                <VerifiedMark label={false} />
                <Trans>Verified student</Trans>
              </span>
            )}
            {user.campusName && (
              <span className="inline-flex items-center gap-1.5">
                <MapPin className="h-4 w-4 shrink-0" aria-hidden="true" />
                {user.campusName}
              </span>
            )}
            <span className="inline-flex items-center gap-1.5">
              <CalendarDays className="h-4 w-4 shrink-0" aria-hidden="true" />
              <Trans>Joined {joined}</Trans>
            </span>
          </div>
          <p className="mt-3 flex flex-wrap items-center justify-center gap-2 sm:justify-start">
            {average === null ? (
              <span className="text-sm text-muted">
                <Trans>No ratings yet</Trans>
              </span>
            ) : (
              <>
                <Stars rating={average} decorative className="h-5 w-5" />
                <span className="font-semibold text-ink">
                  <span className="sr-only">
                    <Trans>Average rating</Trans>{' '}
                  </span>
                  {average.toFixed(1)}{' '}
                  <span className="font-normal text-muted">
                    (<Plural value={reviewCount} one="# review" other="# reviews" />)
                  </span>
                </span>
              </>
            )}
          </p>
          {stats.lenderCancellations.approved >= RELIABILITY_SHOWN_FROM && (
            <LenderCancellations {...stats.lenderCancellations} />
          )}
        </div>
      </div>
      {(badges.length > 0 || own) && (
        <section aria-labelledby={badgesHeadingId} className="mt-6 border-t border-line pt-5">
          <h2 id={badgesHeadingId} className="font-bold text-ink">
            <Trans>Badges</Trans>
          </h2>
          <div className="mt-3">
            {badges.length > 0 ? (
              <BadgeList badges={badges} headingId={badgesHeadingId} />
            ) : (
              <p className="text-sm text-muted">
                <Trans>No badges yet. Lend, borrow and collect good reviews to earn them.</Trans>
              </p>
            )}
          </div>
        </section>
      )}
    </Card>
  );
}

/**
 * How many approved borrows a lender needs before their cancellations show (decision 054): over fewer,
 * the figure says more about chance than about the lender, and a new lender's profile led with it.
 */
export const RELIABILITY_SHOWN_FROM = 5;

/**
 * A lender's own cancellations of bookings they had approved, so a borrower knows how far
 * to count on them. Nothing until they have approved one.
 */
export function LenderCancellations({ cancelled, approved }: { cancelled: number; approved: number }) {
  const { t } = useLingui();
  if (approved === 0) return null;
  return (
    <p className="mt-2 inline-flex items-center gap-1.5 text-sm text-stone-700">
      <CalendarX className="h-4 w-4 shrink-0" aria-hidden="true" />
      {t`Cancelled ${cancelled} of ${plural(approved, { one: '# borrow', other: '# borrows' })}`}
    </p>
  );
}

/** Spec §2 Profile: Items Listed, Available Now, Reviews. */
export function ProfileStats({ stats }: { stats: ProfileResponse['stats'] }) {
  const { t } = useLingui();
  const cards = [
    ['listed', t`Items Listed`, stats.itemsListed],
    ['available', t`Available Now`, stats.availableNow],
    ['reviews', t`Reviews`, stats.reviewCount],
  ] as const;
  return (
    <dl className="grid grid-cols-3 gap-2 sm:gap-4">
      {cards.map(([key, label, value]) => (
        <Card key={key} className="flex flex-col-reverse items-center px-2 py-4 text-center sm:py-5">
          <dt className="text-xs font-medium text-muted sm:text-sm">{label}</dt>
          <dd className="text-2xl font-bold text-ink sm:text-3xl">{value}</dd>
        </Card>
      ))}
    </dl>
  );
}
