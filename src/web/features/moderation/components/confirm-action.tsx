import { Trans, useLingui } from '@lingui/react/macro';
import { EyeOff } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { type ReactNode, useState } from 'react';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';

/** A button whose action runs only after the moderator confirms it (hide an item, suspend a person). */
export function ConfirmAction({
  trigger,
  title,
  description,
  confirmLabel,
  busy,
  onConfirm,
}: {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busy: boolean;
  /** Resolves when the server has answered; the dialog closes then. */
  onConfirm: () => Promise<unknown>;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <AlertDialog.Trigger asChild>
        <Button variant="outline" className="border-red-300 text-danger hover:bg-red-50" disabled={busy}>
          {trigger}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-bold text-ink">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-stone-700">{description}</AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('outline')} disabled={busy}>
              <Trans>Cancel</Trans>
            </AlertDialog.Cancel>
            <AlertDialog.Action
              className={buttonClasses('destructive')}
              disabled={busy}
              onClick={(event) => {
                // Stay open until the server answers.
                event.preventDefault();
                void onConfirm().finally(() => setOpen(false));
              }}
            >
              {busy ? t`Working...` : confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** "Hide item", "Hide ask": the button and its confirmation say the same words. */
export function ConfirmHide({
  label,
  ...rest
}: { label: string } & Omit<Parameters<typeof ConfirmAction>[0], 'trigger' | 'confirmLabel'>) {
  return (
    <ConfirmAction
      trigger={
        <>
          <EyeOff className="h-4 w-4" aria-hidden="true" />
          {label}
        </>
      }
      confirmLabel={label}
      {...rest}
    />
  );
}
