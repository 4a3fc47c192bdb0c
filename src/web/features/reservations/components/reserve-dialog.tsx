import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarRange, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { Suspense, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useReserveParam } from '../../../lib/use-reserve-param.ts';
import type { DateRange } from './date-range-picker.tsx';
import type { ReservableItem } from './reserve-cost.tsx';
import { ReserveDialogBody } from './reserve-dialog-body.tsx';

// The dialog's body is loaded with the page: loaded lazily, the item page kept its Reserve button
// visible to assistive technology behind the open dialog (decision 063).

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
        <Button size="lg" variant={variant} className="w-full">
          <CalendarRange className="h-5 w-5" aria-hidden="true" />
          {label ?? t`Reserve Item`}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-1rem)] w-[calc(100%-1rem)] max-w-lg -translate-x-1/2 md:max-w-3xl -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-4 shadow-xl sm:max-h-[calc(100dvh-2rem)] sm:p-6">
          <Suspense fallback={<BodyLoading />}>
            <ReserveDialogBody
              item={item}
              suggested={suggested}
              onBusyChange={setBusy}
              onDone={() => setOpen(false)}
            />
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

/** While the body's chunk arrives: the dialog keeps its name, and the space its calendar will take. */
function BodyLoading() {
  return (
    <div className="space-y-4 pe-10" aria-busy="true">
      <Dialog.Title className="text-xl font-bold text-ink">
        <Trans>Reserve Item</Trans>
      </Dialog.Title>
      <Dialog.Description className="sr-only">
        <Trans>Loading…</Trans>
      </Dialog.Description>
      <Skeleton className="h-72 w-full rounded-xl" />
      <Skeleton className="h-12 w-full rounded-lg" />
    </div>
  );
}
