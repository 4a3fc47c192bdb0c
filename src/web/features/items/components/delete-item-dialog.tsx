import { Trans, useLingui } from '@lingui/react/macro';
import { Trash2 } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { cn } from '../../../lib/cn.ts';
import { toast } from '../../../lib/toast.ts';
import { paths } from '../../../paths.ts';
import { useDeleteItem } from '../item-mutations.ts';

/** Spec §2 Item detail: the owner's Delete Item, confirmed first; afterwards home (spec §8 toasts). */
export function DeleteItemDialog({ itemId, title }: { itemId: string; title: string }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const remove = useDeleteItem();

  const onConfirm = () =>
    remove.mutate(itemId, {
      onSuccess: () => {
        setOpen(false);
        toast({ title: t`Item deleted`, description: t`Your item has been deleted successfully.` });
        navigate(paths.home);
      },
      onError: (error) => {
        setOpen(false);
        toast({
          variant: 'destructive',
          title: t`Failed to delete item`,
          description: errorMessage(error, t`Please try again.`),
        });
      },
    });

  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !remove.isPending && setOpen(next)}>
      <AlertDialog.Trigger asChild>
        <Button variant="outline" size="lg" className="w-full border-red-300 text-danger hover:bg-red-50">
          <Trash2 className="h-4 w-4" aria-hidden="true" />
          <Trans>Delete Item</Trans>
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-bold text-ink">
            <Trans>Delete this item?</Trans>
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-stone-700">
            <Trans>
              This action cannot be undone. “{title}” will be permanently removed from CampusLoop.
            </Trans>
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('outline')} disabled={remove.isPending}>
              <Trans>Cancel</Trans>
            </AlertDialog.Cancel>
            <AlertDialog.Action
              className={cn(buttonClasses('destructive'))}
              disabled={remove.isPending}
              onClick={(event) => {
                // Stay open until the server answers.
                event.preventDefault();
                onConfirm();
              }}
            >
              {remove.isPending ? <Trans>Deleting...</Trans> : <Trans>Delete Item</Trans>}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
