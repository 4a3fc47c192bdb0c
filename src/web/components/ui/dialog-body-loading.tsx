import { Trans } from '@lingui/react/macro';
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';

/**
 * A dialog's body while its chunk arrives (decision 063): inside the dialog's content, so the dialog is
 * open, modal and named from its first frame and the page behind it is already hidden; it says it is
 * loading (its description, and a polite status), and the blocks given keep the body's room so nothing
 * jumps when the body comes.
 */
export function DialogBodyLoading({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="space-y-4" aria-busy="true">
      {/* Clear of the close button, as the bodies' headers are. */}
      <div className="pe-10">
        <Dialog.Title className="break-words text-xl font-bold text-ink">{title}</Dialog.Title>
        <Dialog.Description role="status" className="mt-1 text-sm text-stone-700">
          <Trans>Loading…</Trans>
        </Dialog.Description>
      </div>
      {children}
    </div>
  );
}
