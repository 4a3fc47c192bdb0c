import { Trans, useLingui } from '@lingui/react/macro';
import {
  ArrowLeft,
  CalendarDays,
  CalendarRange,
  EyeOff,
  Handshake,
  LockKeyhole,
  MapPin,
  MessageCircle,
  Pencil,
  SearchX,
  ShieldCheck,
  Tag,
} from 'lucide-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { formatPrice } from '#shared/format.ts';
import type { Item } from '#shared/schemas/items.ts';
import { CATEGORY_ICONS } from '../components/category-icons.ts';
import { RatingSummary } from '../components/rating.tsx';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useSession } from '../features/auth/api.ts';
import { useStartConversation } from '../features/chat/api.ts';
import { type ItemDetail, useItem } from '../features/items/api.ts';
import {
  ItemActionBar,
  useItemNotFoundToast,
  VisitorActions,
} from '../features/items/components/item-action-bar.tsx';
import { ItemGallery } from '../features/items/components/item-gallery.tsx';
import { ProviderCard } from '../features/items/components/provider-card.tsx';
import { ReviewsList } from '../features/items/components/reviews-list.tsx';
import { ReportDialog } from '../features/reports/components/report-dialog.tsx';
import { CancellationPolicyNote } from '../features/reservations/components/cancellation-policy-note.tsx';
import { ReserveOrRequested } from '../features/reservations/components/my-request.tsx';
import { preloadReserveDialog } from '../features/reservations/components/reserve-dialog.tsx';
import { toldDates, useWaitlist } from '../features/waitlist/api.ts';
import { WaitlistPanel } from '../features/waitlist/components/waitlist-panel.tsx';
import { ApiError, errorMessage } from '../lib/api.ts';
import {
  amountOf,
  categoryLabel,
  conditionLabel,
  formatDate,
  formatDays,
  formatRentalPrice,
  pickupLabel,
} from '../lib/item-labels.ts';
import { toast } from '../lib/toast.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

// Only the owner has Delete Item: its confirmation and mutation are fetched for them alone, not with
// every visitor's first script (decision 063).
const DeleteItemDialog = lazy(() =>
  import('../features/items/components/delete-item-dialog.tsx').then((m) => ({
    default: m.DeleteItemDialog,
  })),
);

export default function ItemDetailPage() {
  const { t } = useLingui();
  const { id } = useParams();
  const { data, isPending, error, refetch, isFetching } = useItem(id);
  useDocumentTitle(data?.item.title ?? (isPending ? t`Item` : t`Item not found`));

  if (isPending) return <ItemDetailSkeleton />;
  if (error && !(error instanceof ApiError && (error.status === 404 || error.status === 400))) {
    return (
      <Problem
        title={t`Failed to fetch item`}
        text={errorMessage(error, t`Something went wrong. Please try again.`)}
        action={
          <Button onClick={() => void refetch()} disabled={isFetching}>
            <Trans>Try again</Trans>
          </Button>
        }
      />
    );
  }
  if (!data) return <ItemNotFound />;

  const { item, reviews, lenderRating, moderation } = data;
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <BackToBrowse />
      <HiddenNotice item={item} moderation={moderation} />
      <div className="mt-4 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:gap-10">
        <ItemGallery images={item.images} title={item.title} />
        <div className="min-w-0 space-y-5">
          <Summary item={item} />
          <ItemActions item={item} closed={item.hidden || Boolean(moderation?.ownerSuspendedAt)} />
          <ProviderCard user={item.user} rating={lenderRating} />
        </div>
      </div>

      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:gap-10">
        <section aria-labelledby="description-heading" className="min-w-0">
          <h2 id="description-heading" className="text-xl font-bold text-ink">
            <Trans>Description</Trans>
          </h2>
          <p className="mt-3 whitespace-pre-line break-words leading-relaxed text-stone-700">
            {item.description}
          </p>
        </section>
        <PickupAndAvailability item={item} />
      </div>

      <section aria-labelledby="reviews-heading" className="mt-10">
        <h2 id="reviews-heading" className="text-xl font-bold text-ink">
          <Trans>Reviews</Trans>{' '}
          {reviews.length > 0 && <span className="font-normal text-muted">({reviews.length})</span>}
        </h2>
        <div className="mt-4">
          <ReviewsList reviews={reviews} ratingOf="item" />
        </div>
      </section>
      <ItemActionBar
        item={item}
        closed={item.hidden || Boolean(moderation?.ownerSuspendedAt)}
        onReserveIntent={preloadReserveDialog}
      />
    </div>
  );
}

function Summary({ item }: { item: Item }) {
  const CategoryIcon = CATEGORY_ICONS[item.category];
  const deposit = amountOf(item.depositAmount);
  const free = amountOf(item.rentalPrice) === 0;
  const depositPrice = formatPrice(item.depositAmount);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1 font-semibold text-brand-800">
          <CategoryIcon className="h-4 w-4" aria-hidden="true" />
          {categoryLabel(item.category)}
        </span>
        <span className="inline-flex items-center gap-1.5 rounded-full bg-stone-100 px-3 py-1 font-semibold text-stone-800">
          <Tag className="h-4 w-4" aria-hidden="true" />
          <span>
            <span className="sr-only">
              <Trans>Condition:</Trans>{' '}
            </span>
            {conditionLabel(item.condition)}
          </span>
        </span>
        {!item.isAvailable && (
          <span className="rounded-full bg-stone-900 px-3 py-1 font-semibold text-white">
            <Trans>Not Available</Trans>
          </span>
        )}
      </div>
      <h1 className="break-words text-2xl font-bold tracking-tight text-ink sm:text-3xl">{item.title}</h1>
      {item.rating && (
        <p className="text-sm">
          <RatingSummary rating={item.rating} starClassName="h-4 w-4" />
        </p>
      )}
      {/* data-toast-avoid: the toast that says the item was listed never covers its price (decision 026). */}
      <p className="flex flex-wrap items-baseline gap-x-2" data-toast-avoid="">
        <span className="sr-only">
          <Trans>Rental price:</Trans>{' '}
        </span>
        <span className={free ? 'text-3xl font-bold text-brand-700' : 'text-3xl font-bold text-ink'}>
          {formatRentalPrice(item.rentalPrice, item.rentalPeriod)}
        </span>
        {free && (
          <span className="text-sm text-muted">
            <Trans>No rental fee</Trans>
          </span>
        )}
      </p>
      {deposit > 0 ? (
        <div className="flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4">
          <ShieldCheck className="mt-0.5 h-5 w-5 shrink-0 text-amber-800" aria-hidden="true" />
          <div>
            <p className="font-semibold text-ink">
              <Trans>{depositPrice} refundable deposit</Trans>{' '}
              <span className="ms-1 rounded-full bg-white px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-amber-900">
                <Trans>Protected</Trans>
              </span>
            </p>
            <p className="mt-1 text-sm text-stone-700">
              <Trans>Refunded when the item is returned in good condition</Trans>
            </p>
          </div>
        </div>
      ) : (
        <p className="flex items-center gap-2 text-sm text-stone-700">
          <ShieldCheck className="h-4 w-4 text-brand-700" aria-hidden="true" />
          <Trans>No deposit required</Trans>
        </p>
      )}
      <CancellationPolicyNote policy={item.cancellationPolicy} />
    </div>
  );
}

/** Spec §2/§6: what each viewer may do with the item (`closed`: hidden, only its owner acts on it). */
function ItemActions({ item, closed }: { item: Item; closed: boolean }) {
  const { user, isLoading } = useSession();
  if (isLoading) return <Skeleton className="h-11 w-full" />;
  if (!user) return <VisitorActions itemId={item.id} />;
  if (user.id === item.userId) {
    return (
      <div className="grid gap-3 sm:grid-cols-2">
        <Button asChild size="lg">
          <Link to={paths.editItem(item.id)}>
            <Pencil className="h-4 w-4" aria-hidden="true" />
            <Trans>Edit Item</Trans>
          </Link>
        </Button>
        <Suspense fallback={<Skeleton className="h-12 w-full" />}>
          <DeleteItemDialog itemId={item.id} title={item.title} />
        </Suspense>
      </div>
    );
  }
  // A moderator looking at a hidden listing: nobody can chat about it or reserve it.
  if (closed) return null;
  // Another signed-in student.
  return <StudentActions item={item} />;
}

/** Chat, Reserve (on dates a waitlist said are free), the waitlist and Report. */
function StudentActions({ item }: { item: Item }) {
  const { user } = useSession();
  const waitlist = useWaitlist(item.id, Boolean(user) && user?.campus === item.campus);
  return (
    <div className="space-y-2">
      <div className="grid gap-3 sm:grid-cols-2">
        <ChatWithSeller itemId={item.id} />
        <ReserveOrRequested item={item} suggested={toldDates(waitlist.data)} />
        <WaitlistPanel item={item} />
      </div>
      <ReportDialog
        target={{ kind: 'item', itemId: item.id, ownerId: item.userId, name: item.title }}
        className="-ms-3"
      />
    </div>
  );
}

/**
 * Only the owner and the moderators reach a hidden item (or one of a suspended owner);
 * the page says so, and why, at the top.
 */
function HiddenNotice({ item, moderation }: { item: Item; moderation: ItemDetail['moderation'] }) {
  const { t } = useLingui();
  const ownerSuspended = Boolean(moderation?.ownerSuspendedAt);
  if (!item.hidden && !ownerSuspended) return null;
  // Separate sentences, each whole in every language.
  const text = moderation
    ? [
        item.hidden &&
          t`Hidden by a moderator: it is out of browse and search, and its page is closed to everyone but its owner and the moderators.`,
        ownerSuspended && t`Its owner's account is suspended, so it is out of browse too.`,
      ]
        .filter(Boolean)
        .join(' ')
    : t`CampusLoop's moderators hid this listing after a report. Nobody else can find or reserve it. If you think this is a mistake, contact support.`;
  return (
    <div
      role="status"
      className="mt-4 flex gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-red-950"
    >
      <EyeOff className="mt-0.5 h-5 w-5 shrink-0 text-red-800" aria-hidden="true" />
      <p>
        <span className="font-semibold">{item.hidden ? t`Hidden.` : t`Owner suspended.`} </span>
        {text}
      </p>
    </div>
  );
}

/** Spec §2/§8: start (or reopen) the conversation about this item, then go to it. */
function ChatWithSeller({ itemId }: { itemId: string }) {
  const { t } = useLingui();
  const start = useStartConversation();
  const navigate = useNavigate();
  const onClick = () =>
    start.mutate(itemId, {
      onSuccess: (conversation) => {
        toast({ title: t`Chat started`, description: t`Redirecting to your conversation...` });
        navigate(paths.chat(conversation.id));
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t`Failed to start chat`,
          description: error instanceof Error ? error.message : undefined,
        }),
    });
  return (
    <Button variant="outline" size="lg" onClick={onClick} disabled={start.isPending}>
      <MessageCircle className="h-5 w-5" aria-hidden="true" />
      <Trans>Chat with Seller</Trans>
    </Button>
  );
}

function PickupAndAvailability({ item }: { item: Item }) {
  const { t } = useLingui();
  const PickupIcon = item.pickupMethod === 'locker' ? LockKeyhole : Handshake;
  const from = formatDate(item.availableFrom);
  const until = item.availableUntil ? formatDate(item.availableUntil) : undefined;
  return (
    <section aria-labelledby="pickup-heading" className="min-w-0">
      <h2 id="pickup-heading" className="text-xl font-bold text-ink">
        <Trans>Pickup &amp; Availability</Trans>
      </h2>
      <Card className="mt-3 divide-y divide-line">
        <Fact icon={<PickupIcon />} label={t`Pickup method`}>
          {pickupLabel(item.pickupMethod)}
        </Fact>
        <Fact icon={<MapPin />} label={t`Pickup location`}>
          {item.pickupLocation?.trim() || t`Arrange with the lender`}
        </Fact>
        <Fact icon={<CalendarDays />} label={t`Dates`}>
          <Trans>Available from {from}</Trans>
          <br />
          {until ? <Trans>until {until}</Trans> : <Trans>No end date</Trans>}
        </Fact>
        <Fact icon={<CalendarRange />} label={t`Days`}>
          {formatDays(item.availableDays)}
        </Fact>
      </Card>
    </section>
  );
}

function Fact({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="flex gap-3 p-4">
      <span className="mt-0.5 shrink-0 text-brand-700 [&_svg]:h-5 [&_svg]:w-5" aria-hidden="true">
        {icon}
      </span>
      <div className="min-w-0">
        <p className="text-sm font-semibold text-muted">{label}</p>
        <p className="break-words text-ink">{children}</p>
      </div>
    </div>
  );
}

function BackToBrowse() {
  return (
    <Link
      to={paths.browse}
      className="inline-flex min-h-11 items-center gap-2 rounded-lg text-sm font-semibold text-brand-700 hover:text-brand-800"
    >
      <ArrowLeft className="rtl:-scale-x-100 h-4 w-4" aria-hidden="true" />
      <Trans>Back to Browse</Trans>
    </Link>
  );
}

function ItemNotFound() {
  const { t } = useLingui();
  useItemNotFoundToast();
  return (
    <Problem
      title={t`Item not found`}
      text={t`The item you're looking for doesn't exist.`}
      action={
        <Button asChild>
          <Link to={paths.browse}>
            <Trans>Back to Browse</Trans>
          </Link>
        </Button>
      }
    />
  );
}

function Problem({ title, text, action }: { title: string; text: string; action: ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <Card className="flex flex-col items-center p-8 text-center">
        <span className="flex h-14 w-14 items-center justify-center rounded-full bg-stone-100 text-stone-600">
          <SearchX className="h-7 w-7" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-ink">{title}</h1>
        <p className="mt-2 text-muted">{text}</p>
        <div className="mt-6">{action}</div>
      </Card>
    </div>
  );
}

function ItemDetailSkeleton() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-6 sm:py-8" aria-busy="true">
      <span className="sr-only" role="status">
        <Trans>Loading item…</Trans>
      </span>
      <Skeleton className="h-6 w-32" />
      <div className="mt-4 grid gap-6 lg:grid-cols-2 lg:gap-10">
        <Skeleton className="aspect-[4/3] w-full rounded-2xl" />
        <div className="space-y-4">
          <Skeleton className="h-7 w-40 rounded-full" />
          <Skeleton className="h-9 w-4/5" />
          <Skeleton className="h-9 w-1/3" />
          <Skeleton className="h-20 w-full rounded-xl" />
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-24 w-full rounded-2xl" />
        </div>
      </div>
    </div>
  );
}
