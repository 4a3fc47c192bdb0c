import { Trans } from '@lingui/react/macro';
import { CalendarClock, Loader2 } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useWaitlistParam } from '../../../lib/use-waitlist-param.ts';

/** The days wanted are booked: hand over to "Notify me when available" on the item page. */
export function WaitlistHandover() {
  const [, openWaitlist] = useWaitlistParam();
  return (
    <p className="text-sm text-stone-700">
      <Trans>
        Days you need already booked?{' '}
        <button
          type="button"
          className="min-h-11 font-semibold text-brand-700 underline-offset-4 hover:underline"
          onClick={() => openWaitlist(true)}
        >
          Get notified when they free up
        </button>
      </Trans>
    </p>
  );
}

/**
 * The chosen days include days someone else asked for and the lender has not answered: they can still be
 * requested (the lender decides), but the lender may approve the other request first. Students who may
 * wait are offered the waitlist for them, as for booked days. A live region that is always there, so
 * choosing such days is announced.
 */
export function RequestedDaysNote({ show, mayWait }: { show: boolean; mayWait: boolean }) {
  const [, openWaitlist] = useWaitlistParam();
  return (
    <div role="status">
      {show && (
        <div className="flex gap-2 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
          <CalendarClock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <div>
            <p>
              <Trans>Some of these days are requested by someone: the lender may approve them first.</Trans>
            </p>
            {mayWait && (
              <button
                type="button"
                className="min-h-11 font-semibold text-brand-800 underline-offset-4 hover:underline"
                onClick={() => openWaitlist(true)}
              >
                <Trans>Get notified if they free up</Trans>
              </button>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

export function Header({ title, description }: { title: string; description: string }) {
  return (
    <div className="pe-10">
      <Dialog.Title className="break-words text-xl font-bold text-ink">{title}</Dialog.Title>
      <Dialog.Description className="mt-1 text-sm text-stone-700">{description}</Dialog.Description>
    </div>
  );
}

export function Status({ children }: { children: string }) {
  return (
    <p
      role="status"
      className="flex items-center justify-center gap-2 py-6 text-sm font-medium text-stone-700"
    >
      <Loader2 className="h-5 w-5 motion-safe:animate-spin" aria-hidden="true" />
      {children}
    </p>
  );
}
