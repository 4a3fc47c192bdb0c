import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarRange, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type ComponentProps, lazy, Suspense, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { DialogBodyLoading } from '../../../components/ui/dialog-body-loading.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useReserveParam } from '../../../lib/use-reserve-param.ts';
import type { DateRange } from './date-range-picker.tsx';
import type { ReservableItem } from './reserve-cost.tsx';

// The dialog's frame (its trigger, overlay, content, close button and, while loading, its title) loads
// with the page, so an open dialog is modal from its first frame: the page behind it is hidden from
// assistive technology and covered before anything else arrives. Only what goes inside (the date picker,
// the cost, the card form with Stripe, the request's schemas) is its own chunk, fetched when a pointer,
// a touch or the focus comes to a Reserve button, or when the dialog opens (decision 063).
type BodyModule = typeof import('./reserve-dialog-body.tsx');
let loadedBody: BodyModule | null = null;
let bodyRequest: Promise<BodyModule> | null = null;
const loadBody = () => {
  if (!bodyRequest) {
    bodyRequest = import('./reserve-dialog-body.tsx').then((module) => {
      loadedBody = module;
      return module;
    });
    // A failed fetch (offline) is tried again at the next hover or press.
    bodyRequest.catch(() => {
      bodyRequest = null;
    });
  }
  return bodyRequest;
};
const LazyBody = lazy(() => loadBody().then((m) => ({ default: m.ReserveDialogBody })));

/** Fetches the Reserve dialog's body ahead of a press (another Reserve button: the phone's sticky bar). */
export const preloadReserveDialog = () => void loadBody();

/**
 * The body, chosen once per opening: the module itself when it is already here (no placeholder flashes
 * by), else the lazily loaded one. Never switched while open, which would start the steps again.
 */
function Body(props: ComponentProps<BodyModule['ReserveDialogBody']>) {
  const [Component] = useState(() => loadedBody?.ReserveDialogBody ?? LazyBody);
  return <Component {...props} />;
}

// Spec §2 Item detail / §4 Reserve dialog: step 'details' (dates and the cost) and, when there is
// something to pay, step 'payment' (the summary and the card form). The card is authorised first;
// the request then goes to the lender with the payment's id. A free item is requested directly.

/** The signed-in non-owner's 'Reserve Item' button and its dialog. */
export function ReserveDialog({
  item,
  label,
  variant = 'primary',
  suggested = null,
}: {
  item: ReservableItem;
  /** Dates to start on when the address names none: the ones a waitlist said are free. */
  suggested?: DateRange | null;
  /** The button's words ('Reserve other dates' beside a request already made). */
  label?: string;
  variant?: 'primary' | 'outline';
}) {
  const { t } = useLingui();
  // Open while the address says ?reserve=1 (so signing in comes back with it open).
  const [open, setOpen] = useReserveParam();
  const [busy, setBusy] = useState(false);
  // The title the body's first step has (the same message), so it does not change when the body comes.
  const itemTitle = item.title;

  if (!item.isAvailable) {
    return (
      <div>
        <Button size="lg" className="w-full" disabled aria-describedby="reserve-unavailable">
          <CalendarRange className="h-5 w-5" aria-hidden="true" />
          <Trans>Reserve Item</Trans>
        </Button>
        <p id="reserve-unavailable" className="mt-1.5 text-center text-sm text-muted">
          <Trans>Not available right now</Trans>
        </p>
      </div>
    );
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next || !busy) && setOpen(next)}>
      <Dialog.Trigger asChild>
        <Button
          size="lg"
          variant={variant}
          className="w-full"
          onPointerEnter={preloadReserveDialog}
          onFocus={preloadReserveDialog}
          onTouchStart={preloadReserveDialog}
        >
          <CalendarRange className="h-5 w-5" aria-hidden="true" />
          {label ?? t`Reserve Item`}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-1rem)] w-[calc(100%-1rem)] max-w-lg -translate-x-1/2 md:max-w-3xl -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-4 shadow-xl sm:max-h-[calc(100dvh-2rem)] sm:p-6">
          <Suspense fallback={<BodyLoading title={t`Reserve ${itemTitle}`} />}>
            <Body item={item} suggested={suggested} onBusyChange={setBusy} onDone={() => setOpen(false)} />
          </Suspense>
          <Dialog.Close
            aria-label={t`Close`}
            disabled={busy}
            className="absolute end-2 top-2 flex h-11 w-11 items-center justify-center rounded-lg text-stone-600 hover:bg-stone-100 disabled:opacity-40"
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** While the body's chunk arrives: the title the first step will have, and the calendar's room. */
function BodyLoading({ title }: { title: string }) {
  return (
    <DialogBodyLoading title={title}>
      <Skeleton className="h-72 w-full rounded-xl" />
      <Skeleton className="h-12 w-full rounded-lg" />
    </DialogBodyLoading>
  );
}
