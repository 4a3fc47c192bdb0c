import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarRange, MessageCircle } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { formatPrice } from '#shared/format.ts';
import { withReturnTo } from '#shared/return-path.ts';
import type { Item } from '#shared/schemas/items.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { amountOf, formatRentalPrice } from '../../../lib/item-labels.ts';
import { toast } from '../../../lib/toast.ts';
import { useReserveParam } from '../../../lib/use-reserve-param.ts';
import { paths } from '../../../paths.ts';
import { useSession } from '../../auth/api.ts';

// On the item page: the visitor's login buttons come back here (with the
// Reserve dialog open after 'Login to Reserve'), chatting as a visitor says 'Login required' first,
// a missing item says so in a toast as well, and phones get a sticky bar with the price, the deposit
// and Reserve.

/** Spec §2/§8: a visitor's 'Login to Chat' and 'Login to Reserve'; both return here after signing in. */
export function VisitorActions({ itemId }: { itemId: string }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Button asChild variant="outline" size="lg">
        <Link to={withReturnTo(paths.login, paths.item(itemId))} onClick={loginRequiredToChat}>
          <MessageCircle className="h-5 w-5" aria-hidden="true" />
          <Trans>Login to Chat</Trans>
        </Link>
      </Button>
      <Button asChild size="lg">
        <Link to={withReturnTo(paths.login, paths.reserveItem(itemId))}>
          <CalendarRange className="h-5 w-5" aria-hidden="true" />
          <Trans>Login to Reserve</Trans>
        </Link>
      </Button>
    </div>
  );
}

/** Spec §8 'Chat as visitor': the toast, then the link goes on to the sign-in page. */
function loginRequiredToChat() {
  toast({
    variant: 'destructive',
    title: t`Login required`,
    description: t`Please log in to chat with the seller.`,
  });
}

/** Spec §8 'Item missing': the toast that goes with the 'Item not found' page, once per visit. */
export function useItemNotFoundToast() {
  useEffect(() => {
    toast({ variant: 'destructive', title: t`Error`, description: t`Item not found.` });
  }, []);
}

type BarItem = Pick<Item, 'id' | 'userId' | 'rentalPrice' | 'rentalPeriod' | 'depositAmount' | 'isAvailable'>;

/**
 * Phones only: the price, the deposit and the way to reserve, fixed above the bottom bar while the
 * page scrolls. Nothing for the owner or on a closed (hidden) listing, as in the page's own actions.
 */
export function ItemActionBar({
  item,
  closed,
  onReserveIntent,
}: {
  item: BarItem;
  closed: boolean;
  /** A pointer, a touch or the focus came to Reserve: the page fetches the dialog's body ahead. */
  onReserveIntent?: () => void;
}) {
  const { t } = useLingui();
  const { user, isLoading } = useSession();
  const [, openReserve] = useReserveParam();
  if (user && (user.id === item.userId || closed)) return null;
  const deposit = amountOf(item.depositAmount);
  const depositPrice = formatPrice(item.depositAmount);
  return (
    <>
      {/* Room at the end of the page, so the bar never hides its last lines. */}
      <div aria-hidden="true" className="h-20 md:hidden" />
      <section
        aria-label={t`Price and reserve`}
        data-toast-avoid=""
        className="fixed inset-x-0 bottom-[calc(3.5rem+1px+env(safe-area-inset-bottom))] z-30 border-t border-line bg-white/95 px-4 py-2.5 shadow-[0_-4px_12px_rgba(0,0,0,0.06)] backdrop-blur md:hidden"
      >
        <div className="flex items-center justify-between gap-3">
          <div className="min-w-0">
            <p className="truncate text-lg font-bold leading-tight text-ink">
              {formatRentalPrice(item.rentalPrice, item.rentalPeriod)}
            </p>
            <p className="truncate text-sm text-stone-700">
              {deposit > 0 ? <Trans>+ {depositPrice} refundable deposit</Trans> : <Trans>No deposit</Trans>}
            </p>
          </div>
          {isLoading ? (
            <Skeleton className="h-11 w-28" />
          ) : !user ? (
            <Button asChild className="shrink-0">
              <Link to={withReturnTo(paths.login, paths.reserveItem(item.id))}>
                <Trans>Sign in to reserve</Trans>
              </Link>
            </Button>
          ) : item.isAvailable ? (
            <Button
              className="shrink-0"
              onClick={() => openReserve(true)}
              onPointerEnter={onReserveIntent}
              onFocus={onReserveIntent}
              onTouchStart={onReserveIntent}
            >
              <CalendarRange className="h-4 w-4" aria-hidden="true" />
              <Trans>Reserve</Trans>
            </Button>
          ) : (
            <Button className="shrink-0" disabled>
              <Trans>Not available</Trans>
            </Button>
          )}
        </div>
      </section>
    </>
  );
}
