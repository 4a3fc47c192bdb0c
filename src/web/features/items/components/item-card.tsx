import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Handshake, LockKeyhole, MapPin } from 'lucide-react';
import { useCallback, useId, useState } from 'react';
import { Link } from 'react-router';
import { formatPrice } from '#shared/format.ts';
import { thumbnailOf } from '#shared/photos.ts';
import type { Item } from '#shared/schemas/items.ts';
import { RatingSummary } from '../../../components/rating.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { isServerRendered } from '../../../lib/server-rendered.ts';
import { paths } from '../../../paths.ts';

// Spec §2 Item card: cover, title, price, deposit badge, pickup label, rating, and a 'Not Available'
// overlay. The whole card is one link to the item page. The spec's fixed five-star '(5)' placeholder
// is the item's real rating instead, or nothing without reviews (decision 020).

export const PLACEHOLDER_IMAGE = '/placeholder-item.svg';

/** The cover photo: the first real image (spec: missing, empty, 'null' and 'undefined' are none). */
export function coverImage(images: readonly string[] | null | undefined): string | undefined {
  return images?.find(
    (url) => typeof url === 'string' && url.trim() && !/^(null|undefined)$/.test(url.trim()),
  );
}

/** No rental price, or zero: the card says FREE (as formatPrice decides it). */
function isFree(rentalPrice: string | null | undefined): boolean {
  const n = Number.parseFloat(rentalPrice ?? '');
  return !n || Number.isNaN(n);
}

/** '$12.00/day', 'FREE' (a free item has no period); '$12.00/día', 'GRATIS' in Spanish. */
export function priceLabel(item: Pick<Item, 'rentalPrice' | 'rentalPeriod'>): string {
  const price = formatPrice(item.rentalPrice);
  if (isFree(item.rentalPrice) || !item.rentalPeriod) return price;
  switch (item.rentalPeriod) {
    case 'day':
      return t`${price}/day`;
    case 'week':
      return t`${price}/week`;
    case 'month':
      return t`${price}/month`;
    default:
      return `${price}/${item.rentalPeriod}`;
  }
}

/**
 * 1234.5 → '1,234.50' with `digits` decimals. Written out rather than with Intl: the first number
 * format a page makes loads locale data, tens of milliseconds on a phone before the cards show.
 * Amounts come as decimal strings with at most two decimals, so `toFixed` rounds nothing.
 */
function formatAmount(n: number, digits: number): string {
  const [whole = '', fraction] = n.toFixed(digits).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

/** '$20 deposit', '$12.50 deposit'; undefined when there is no deposit. */
export function depositLabel(depositAmount: string | null | undefined): string | undefined {
  const n = Number.parseFloat(depositAmount ?? '');
  if (!(n > 0)) return undefined;
  const amount = `$${formatAmount(n, Number.isInteger(n) ? 0 : 2)}`;
  return t`${amount} deposit`;
}

const pickupLabels: Record<Item['pickupMethod'], { label: MessageDescriptor; icon: typeof Handshake }> = {
  meetup: { label: msg`Meetup`, icon: Handshake },
  locker: { label: msg`Locker`, icon: LockKeyhole },
};

/**
 * The cover, falling back from the small copy to the original upload, then to the placeholder. A
 * `priority` cover (in view when the page opens) is fetched at once and first, others when scrolled near.
 */
function CoverImage({
  images,
  alt,
  dimmed,
  priority,
}: {
  images: readonly string[];
  alt: string;
  dimmed: boolean;
  priority: boolean;
}) {
  const cover = coverImage(images);
  const sources = cover ? [...new Set([thumbnailOf(cover), cover]), PLACEHOLDER_IMAGE] : [PLACEHOLDER_IMAGE];
  const [attempt, setAttempt] = useState(0);
  const src = sources[Math.min(attempt, sources.length - 1)];
  const last = sources.length - 1;
  const next = useCallback(() => setAttempt((a) => Math.min(a + 1, last)), [last]);
  // A server-rendered photo may have failed before the page hydrated, when nothing listened yet.
  const checkLoaded = useCallback(
    (img: HTMLImageElement | null) => {
      if (img?.complete && img.naturalWidth === 0 && isServerRendered()) next();
    },
    [next],
  );
  return (
    <img
      ref={checkLoaded}
      src={src}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      width={400}
      height={300}
      onError={next}
      className={cn(
        'h-full w-full object-cover transition duration-300 motion-safe:group-hover:scale-[1.03]',
        dimmed && 'opacity-50 grayscale',
      )}
    />
  );
}

export function ItemCard({ item, priority = false }: { item: Item; priority?: boolean }) {
  const { i18n, t } = useLingui();
  const id = useId();
  const deposit = depositLabel(item.depositAmount);
  const price = priceLabel(item);
  const pickup = pickupLabels[item.pickupMethod] ?? pickupLabels.meetup;
  const unavailable = !item.isAvailable || item.hidden;
  // Only its owner (on their profile) and moderators ever get a hidden item in a list.
  const status = item.hidden ? t`Hidden` : t`Not Available`;
  return (
    <Link
      to={paths.item(item.id)}
      aria-labelledby={`${id}-title`}
      aria-describedby={unavailable ? `${id}-status ${id}-details` : `${id}-details`}
      className={cn(
        'group flex h-full flex-col overflow-hidden rounded-2xl border border-line bg-white shadow-sm',
        'transition hover:border-brand-200 hover:shadow-md',
      )}
    >
      <div className="relative aspect-[4/3] overflow-hidden bg-stone-100">
        <CoverImage
          key={coverImage(item.images) ?? 'none'}
          images={item.images ?? []}
          alt={item.title}
          dimmed={unavailable}
          priority={priority}
        />
        {unavailable && (
          <span className="absolute inset-0 flex items-center justify-center bg-white/30">
            <span
              id={`${id}-status`}
              className="rounded-full bg-stone-900/85 px-3 py-1 text-xs font-bold uppercase tracking-wide text-white sm:text-sm"
            >
              {status}
            </span>
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-3 sm:p-4">
        <h3
          id={`${id}-title`}
          className="line-clamp-2 text-sm font-semibold leading-snug text-ink group-hover:text-brand-800 sm:text-base"
        >
          {item.title}
        </h3>
        <div id={`${id}-details`} className="mt-auto flex flex-col gap-1.5">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className={cn('font-bold', isFree(item.rentalPrice) ? 'text-brand-700' : 'text-ink')}>
              {price}
            </span>
            {deposit && (
              <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                {deposit}
              </span>
            )}
          </p>
          <p className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1 text-xs text-stone-700">
            <span className="inline-flex items-center gap-1 font-medium">
              <pickup.icon className="h-3.5 w-3.5" aria-hidden="true" />
              {i18n._(pickup.label)}
            </span>
            <RatingSummary rating={item.rating} />
          </p>
          {item.user?.campusName && (
            // The whole campus name, wrapping between words (never cut mid-word).
            <p className="flex min-w-0 items-start gap-1 text-xs text-muted">
              <MapPin className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden="true" />
              <span className="min-w-0">{item.user.campusName}</span>
            </p>
          )}
        </div>
      </div>
    </Link>
  );
}

export function ItemCardSkeleton() {
  return (
    <div aria-hidden="true" className="overflow-hidden rounded-2xl border border-line bg-white shadow-sm">
      <Skeleton className="aspect-[4/3] w-full rounded-none" />
      <div className="space-y-2 p-3 sm:p-4">
        <Skeleton className="h-4 w-4/5" />
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-3 w-2/3" />
        <Skeleton className="h-3 w-1/2" />
      </div>
    </div>
  );
}

/**
 * The responsive card grid: two columns on phones, three from md, four from lg. While `loading`,
 * `skeletons` placeholder cards follow the items already shown (none on a first load, the loaded
 * pages while 'Load more' fetches the next). The first `priority` cards' photos load first (a page
 * whose grid is in view when it opens).
 */
export function ItemGrid({
  items = [],
  loading = false,
  skeletons = 8,
  priority = 0,
  className,
}: {
  items?: readonly Item[];
  loading?: boolean;
  skeletons?: number;
  priority?: number;
  className?: string;
}) {
  return (
    <div className={className}>
      <ul
        aria-busy={loading || undefined}
        className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4"
      >
        {items.map((item, i) => (
          <li key={item.id}>
            <ItemCard item={item} priority={i < priority} />
          </li>
        ))}
        {loading &&
          Array.from({ length: skeletons }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <li key={`skeleton-${i}`} aria-hidden="true">
              <ItemCardSkeleton />
            </li>
          ))}
      </ul>
      {loading && (
        <span role="status" className="sr-only">
          <Trans>Loading items…</Trans>
        </span>
      )}
    </div>
  );
}
