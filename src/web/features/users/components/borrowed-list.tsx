import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router';
import { thumbnailOf } from '#shared/photos.ts';
import type { Borrowing } from '#shared/schemas/users.ts';
import { cn } from '../../../lib/cn.ts';
import { formatDate, reservationStatusLabel, usableImages } from '../../../lib/item-labels.ts';
import { paths } from '../../../paths.ts';
import { PLACEHOLDER_IMAGE } from '../../items/api.ts';

/** Spec §9 status badge colours: pending yellow, approved blue, active green, completed grey, else red. */
const STATUS_CLASSES: Record<string, string> = {
  pending: 'bg-yellow-100 text-yellow-900',
  approved: 'bg-blue-100 text-blue-900',
  active: 'bg-green-100 text-green-900',
  completed: 'bg-stone-200 text-stone-800',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={cn(
        'inline-flex shrink-0 rounded-full px-2.5 py-0.5 text-xs font-bold',
        STATUS_CLASSES[status] ?? 'bg-red-100 text-red-900',
      )}
    >
      {reservationStatusLabel(status)}
    </span>
  );
}

/** The own profile's Borrowed tab: what they borrowed, from whom, when, and where it stands. */
export function BorrowedList({ borrowed }: { borrowed: readonly Borrowing[] }) {
  return (
    <ul className="space-y-3">
      {borrowed.map((entry) => {
        const cover = usableImages(entry.item?.images)[0];
        const provider = entry.provider.fullName;
        const start = formatDate(entry.startDate, 'MMM d');
        const end = formatDate(entry.endDate, 'MMM d');
        return (
          <li
            key={entry.id}
            className="flex items-center gap-3 rounded-2xl border border-line bg-white p-3 sm:gap-4"
          >
            <img
              src={cover ? thumbnailOf(cover) : PLACEHOLDER_IMAGE}
              alt=""
              loading="lazy"
              onError={(event) => {
                const img = event.currentTarget;
                if (cover && img.src.endsWith('-thumb.jpg')) img.src = cover;
                else if (!img.src.endsWith(PLACEHOLDER_IMAGE)) img.src = PLACEHOLDER_IMAGE;
              }}
              className="h-16 w-16 shrink-0 rounded-xl bg-stone-100 object-cover"
            />
            <div className="min-w-0 flex-1">
              <div className="flex items-start justify-between gap-2">
                {entry.item ? (
                  <Link
                    to={paths.item(entry.item.id)}
                    className="line-clamp-2 font-semibold text-ink underline-offset-4 hover:text-brand-800 hover:underline"
                  >
                    {entry.item.title}
                  </Link>
                ) : (
                  <span className="font-semibold text-ink">
                    <Trans>Unknown Item</Trans>
                  </span>
                )}
                <StatusBadge status={entry.status} />
              </div>
              <p className="truncate text-sm text-stone-700">
                <Trans>from {provider}</Trans>
              </p>
              <p className="text-sm text-muted">
                {start} - {end}
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
