import { Trans, useLingui } from '@lingui/react/macro';
import { BadgeCheck, ChevronRight, MapPin } from 'lucide-react';
import { Link } from 'react-router';
import type { Item, Rating } from '#shared/schemas/items.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import { RatingSummary } from '../../../components/rating.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { paths } from '../../../paths.ts';

/**
 * Spec §2 Item detail: who lends the item, with a way to their profile, and their rating over every
 * revealed review they received (nothing without reviews).
 */
export function ProviderCard({ user, rating }: { user: Item['user']; rating?: Rating }) {
  return (
    <Card className="p-4 sm:p-5">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-muted">
        <Trans>Listed by</Trans>
      </h2>
      <Link to={paths.profile(user.id)} className="group mt-3 flex min-h-11 items-center gap-3 rounded-xl">
        <Avatar name={user.fullName} src={user.profileImage} />
        <span className="min-w-0 flex-1">
          <span className="flex items-center gap-1.5 font-semibold text-ink group-hover:text-brand-800">
            <span className="truncate">{user.fullName}</span>
            {user.isVerified && <VerifiedMark />}
          </span>
          <span className="block truncate text-sm text-muted">@{user.username}</span>
          <RatingSummary rating={rating} className="mt-0.5 text-sm" />
          {user.campusName && (
            <span className="mt-0.5 flex items-start gap-1 text-sm text-stone-700">
              <MapPin className="mt-1 h-3.5 w-3.5 shrink-0" aria-hidden="true" />
              <span className="min-w-0">{user.campusName}</span>
            </span>
          )}
        </span>
        <ChevronRight
          className="rtl:-scale-x-100 h-5 w-5 shrink-0 text-stone-500 group-hover:text-brand-700"
          aria-hidden="true"
        />
      </Link>
    </Card>
  );
}

/** A verified student's mark, announced as text; `label={false}` where visible text says it. */
export function VerifiedMark({
  className = 'h-4 w-4',
  label = true,
}: {
  className?: string;
  label?: boolean;
}) {
  const { t } = useLingui();
  const text = t`Verified student`;
  return (
    <span className="inline-flex shrink-0 text-brand-700" title={label ? text : undefined}>
      <BadgeCheck className={className} aria-hidden="true" />
      {label && <span className="sr-only">{text}</span>}
    </span>
  );
}
