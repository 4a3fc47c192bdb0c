import { Trans } from '@lingui/react/macro';
import { Loader2 } from 'lucide-react';
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
