import { Trans, useLingui } from '@lingui/react/macro';
import { Flag, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { lazy, Suspense, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { DialogBodyLoading } from '../../../components/ui/dialog-body-loading.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { openReportAbout, type ReportTarget, useMyReports } from '../queries.ts';

// Spec §2 Item detail / Profile: 'Report Item' and 'Report User' open the Report dialog: a reason,
// a description and the warning that false reports can lead to account restrictions (§5, §8). An ask
// on the campus board is reported the same way, from its card's 'Report'.

// The form (react-hook-form, the report's zod schema) is fetched when the dialog opens, or when a
// pointer or focus comes to its button (decision 063).
const loadForm = () => import('./report-form.tsx');
const ReportForm = lazy(() => loadForm().then((m) => ({ default: m.ReportForm })));
const prefetchForm = () => void loadForm();

/** The Report button, or a note that this person's earlier report is still being reviewed. */
export function ReportDialog({ target, className }: { target: ReportTarget; className?: string }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const myReports = useMyReports();
  const name = target.name;
  const label =
    target.kind === 'item' ? t`Report Item` : target.kind === 'ask' ? t`Report Ask` : t`Report User`;
  // A board lists many asks: each card's button says only 'Report', and its name says which ask.
  const button =
    target.kind === 'ask'
      ? { text: t({ message: 'Report', context: 'a button' }), name: t`Report “${name}”` }
      : { text: label, name: undefined };
  const existing = openReportAbout(myReports.data, target);

  if (existing) {
    return (
      <p className={`flex items-center gap-2 text-sm text-muted ${className ?? ''}`} role="status">
        <Flag className="h-4 w-4 shrink-0" aria-hidden="true" />
        {target.kind === 'item' ? (
          <Trans>You reported this item. Our team is reviewing it.</Trans>
        ) : target.kind === 'ask' ? (
          <Trans>You reported this ask. Our team is reviewing it.</Trans>
        ) : (
          <Trans>You reported this user. Our team is reviewing it.</Trans>
        )}
      </p>
    );
  }

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button
          variant="ghost"
          size="sm"
          className={`text-stone-700 ${className ?? ''}`}
          onPointerEnter={prefetchForm}
          onFocus={prefetchForm}
          onTouchStart={prefetchForm}
          aria-label={button.name}
        >
          <Flag className="h-4 w-4" aria-hidden="true" />
          {button.text}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-1rem)] w-[calc(100%-1rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl sm:p-6">
          <Suspense
            fallback={
              <DialogBodyLoading title={label}>
                <Skeleton className="h-48 w-full rounded-xl" />
              </DialogBodyLoading>
            }
          >
            <ReportForm target={target} title={label} onDone={() => setOpen(false)} />
          </Suspense>
          <Dialog.Close
            aria-label={t`Close`}
            className="absolute end-2 top-2 flex h-11 w-11 items-center justify-center rounded-lg text-stone-600 hover:bg-stone-100"
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
