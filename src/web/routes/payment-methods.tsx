import { Trans, useLingui } from '@lingui/react/macro';
import { CreditCard, Plus, Trash2, X } from 'lucide-react';
import { AlertDialog, Dialog } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { intlLocale } from '#shared/format.ts';
import type { SavedPaymentMethod } from '#shared/schemas/payments.ts';
import { Button, buttonClasses } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { IconTooltip } from '../components/ui/tooltip.tsx';
import { CardSetupForm } from '../features/payments/components/card-setup-form.tsx';
import {
  useDeletePaymentMethod,
  usePaymentMethods,
  useSavePaymentMethod,
  useSetDefaultPaymentMethod,
} from '../features/payments/queries.ts';
import { ApiError } from '../lib/api.ts';
import { toast } from '../lib/toast.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

// Spec §2 Payment Methods: saved cards, the default one, adding and removing cards (spec §8 toasts).

export default function PaymentMethodsRoute() {
  return (
    <AuthGuard>
      <PaymentMethodsPage />
    </AuthGuard>
  );
}

function PaymentMethodsPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Payment Methods`);
  const { data: methods = [], isPending, isError, refetch } = usePaymentMethods();
  const [adding, setAdding] = useState(false);
  useRedirectedSetup();

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-ink">
            <Trans>Payment Methods</Trans>
          </h1>
          <p className="mt-1 text-muted">
            <Trans>Manage the cards you pay with</Trans>
          </p>
        </div>
        {methods.length > 0 && (
          <Button onClick={() => setAdding(true)}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            <Trans>Add New</Trans>
          </Button>
        )}
      </div>

      <div className="mt-6">
        {isPending ? (
          <div className="space-y-3" role="status">
            <span className="sr-only">
              <Trans>Loading your payment methods...</Trans>
            </span>
            {[0, 1].map((i) => (
              <Skeleton key={i} className="h-28 w-full rounded-2xl" />
            ))}
          </div>
        ) : isError ? (
          <Card role="alert" className="px-6 py-10 text-center">
            <p className="font-semibold text-ink">
              <Trans>Your payment methods could not be loaded.</Trans>
            </p>
            <Button variant="outline" className="mt-4" onClick={() => void refetch()}>
              <Trans>Try again</Trans>
            </Button>
          </Card>
        ) : methods.length === 0 ? (
          <Card className="flex flex-col items-center px-6 py-12 text-center">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
              <CreditCard className="h-6 w-6" aria-hidden="true" />
            </span>
            <h2 className="mt-3 text-lg font-semibold text-ink">
              <Trans>No payment methods</Trans>
            </h2>
            <p className="mt-1 max-w-sm text-muted">
              <Trans>Add a payment method to make borrowing items easier and faster.</Trans>
            </p>
            <Button className="mt-5" onClick={() => setAdding(true)}>
              <Plus className="h-4 w-4" aria-hidden="true" />
              <Trans>Add Payment Method</Trans>
            </Button>
          </Card>
        ) : (
          <ul className="space-y-3">
            {methods.map((method) => (
              <li key={method.id}>
                <PaymentMethodCard method={method} />
              </li>
            ))}
          </ul>
        )}
      </div>

      <AddCardDialog open={adding} onOpenChange={setAdding} />
    </div>
  );
}

function PaymentMethodCard({ method }: { method: SavedPaymentMethod }) {
  const { t } = useLingui();
  const setDefault = useSetDefaultPaymentMethod();
  const brand = (method.brand ?? (method.type === 'card' ? t`Card` : method.type)).toUpperCase();
  const expires =
    method.expiryMonth && method.expiryYear
      ? `${String(method.expiryMonth).padStart(2, '0')}/${method.expiryYear}`
      : null;
  const added = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium' }).format(
    new Date(method.createdAt),
  );

  const onSetDefault = () =>
    setDefault.mutate(method.id, {
      onSuccess: () =>
        toast({
          title: t`Default payment method updated`,
          description: t`This payment method is now your default.`,
        }),
      onError: () =>
        toast({
          variant: 'destructive',
          title: t`Error`,
          description: t`Failed to update default payment method. Please try again.`,
        }),
    });

  // Phone: the delete button beside the card's name and Set as Default under it; wider: one row.
  return (
    <Card className="grid grid-cols-[auto_1fr_auto] items-center gap-x-4 gap-y-3 p-4 sm:grid-cols-[auto_1fr_auto_auto] sm:p-5">
      <span className="flex h-11 w-14 shrink-0 items-center justify-center rounded-lg bg-stone-100 text-stone-700">
        <CreditCard className="h-6 w-6" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold text-ink">
          <span>{brand}</span>
          <span className="font-mono tracking-wider">•••• {method.last4 ?? '····'}</span>
          {method.isDefault && (
            <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">
              <Trans>Default</Trans>
            </span>
          )}
        </p>
        <p className="mt-1 text-sm text-muted">
          <Trans>Added {added}</Trans>
          {expires && (
            <>
              <span aria-hidden="true"> · </span>
              <span className="whitespace-nowrap">
                <Trans>Expires {expires}</Trans>
              </span>
            </>
          )}
        </p>
      </div>
      {!method.isDefault && (
        <Button
          variant="outline"
          size="sm"
          className="col-start-2 row-start-2 justify-self-start sm:col-start-3 sm:row-start-1"
          onClick={onSetDefault}
          disabled={setDefault.isPending}
        >
          {setDefault.isPending ? t`Saving...` : t`Set as Default`}
        </Button>
      )}
      <div className="col-start-3 row-start-1 sm:col-start-4">
        <DeleteCardButton method={method} />
      </div>
    </Card>
  );
}

function DeleteCardButton({ method }: { method: SavedPaymentMethod }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const last4 = method.last4;
  const remove = useDeletePaymentMethod();

  const onConfirm = () =>
    remove.mutate(method.id, {
      onSuccess: () => {
        setOpen(false);
        toast({
          title: t`Payment method deleted`,
          description: t`The payment method has been removed from your account.`,
        });
      },
      onError: () => {
        setOpen(false);
        toast({
          variant: 'destructive',
          title: t`Error`,
          description: t`Failed to delete payment method. Please try again.`,
        });
      },
    });

  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !remove.isPending && setOpen(next)}>
      <IconTooltip label={t`Delete card`}>
        <AlertDialog.Trigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className="text-danger hover:bg-red-50"
            aria-label={last4 ? t`Delete card ending in ${last4}` : t`Delete card`}
          >
            <Trash2 className="h-5 w-5" aria-hidden="true" />
          </Button>
        </AlertDialog.Trigger>
      </IconTooltip>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-bold text-ink">
            <Trans>Delete payment method?</Trans>
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-stone-700">
            <Trans>Are you sure you want to delete this payment method?</Trans>
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('outline')} disabled={remove.isPending}>
              <Trans>Cancel</Trans>
            </AlertDialog.Cancel>
            <AlertDialog.Action
              className={buttonClasses('destructive')}
              disabled={remove.isPending}
              onClick={(event) => {
                // Stay open until the server answers.
                event.preventDefault();
                onConfirm();
              }}
            >
              {remove.isPending ? t`Deleting...` : t`Delete`}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

function AddCardDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useLingui();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-1rem)] w-[calc(100%-1rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl sm:max-h-[calc(100dvh-2rem)] sm:p-6">
          <Dialog.Title className="pe-10 text-xl font-bold text-ink">
            <Trans>Add Payment Method</Trans>
          </Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-stone-700">
            <Trans>
              Your card is kept by our payment provider; CampusLoop stores only its brand, last four digits
              and expiry date.
            </Trans>
          </Dialog.Description>
          <div className="mt-5">
            {/* Mounted only while open: each opening starts a fresh card setup. */}
            {open && (
              <CardSetupForm
                onSaved={() => {
                  onOpenChange(false);
                  toast({ title: t`Payment method added`, description: t`Your card has been saved.` });
                }}
                // A refused card is said under the card field; a toast would repeat it over the form.
                onError={(message, shownInForm) => {
                  if (shownInForm) return;
                  toast({
                    variant: 'destructive',
                    title: t`Payment setup failed`,
                    description: message || t`Please try again.`,
                  });
                }}
              />
            )}
          </div>
          <Dialog.Close
            className="absolute end-3 top-3 flex h-10 w-10 items-center justify-center rounded-lg text-stone-600 hover:bg-stone-100"
            aria-label={t`Close`}
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * A card whose bank needed a redirect comes back here with ?setup_intent=…&redirect_status=…:
 * save it (Stripe's webhook may have done so already), then tidy the address.
 */
function useRedirectedSetup() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const save = useSavePaymentMethod();
  const handled = useRef(false);
  const setupIntentId = params.get('setup_intent');
  const status = params.get('redirect_status');
  const { mutate } = save;
  // The toasts' words, in the language of the page (plain strings: the effect runs once).
  const addedTitle = t`Payment method added`;
  const addedText = t`Your card has been saved.`;
  const failedTitle = t`Payment setup failed`;
  const failedText = t`Please try again.`;

  useEffect(() => {
    if (!setupIntentId || handled.current) return;
    handled.current = true;
    setParams({}, { replace: true });
    const added = () => toast({ title: addedTitle, description: addedText });
    const failed = () => toast({ variant: 'destructive', title: failedTitle, description: failedText });
    if (status !== 'succeeded') {
      failed();
      return;
    }
    mutate(setupIntentId, {
      onSuccess: added,
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'CARD_ALREADY_SAVED') added();
        else failed();
      },
    });
  }, [setupIntentId, status, setParams, mutate, addedTitle, addedText, failedTitle, failedText]);
}
