import { Trans, useLingui } from '@lingui/react/macro';
import { AlertDialog, Dialog } from 'radix-ui';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { offers, type PartyRole, type ReservationAction } from '#shared/booking/reservation-rules.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { amountOf } from '../../../lib/item-labels.ts';
import type { ClaimAction, StatusUpdate } from '../queries.ts';
import { DisputeClaim, ReportProblem } from './deposit-claim.tsx';
import { ItemReturned, ReturnedInGoodCondition } from './early-return.tsx';

// A reservation card's actions (spec §4): approve, decline, the handover, the return, the deposit claim,
// cancel. The card only asks; the page makes the calls.

/** The card's buttons: what this person may do from this status (spec §4). */
export function ReservationActions({
  reservation: r,
  role,
  busy,
  onApprove,
  onDecline,
  onUpdateStatus,
  onClaimAction,
}: {
  reservation: Reservation;
  role: PartyRole;
  busy: boolean;
  onApprove: (id: string) => void;
  onDecline: (id: string) => void;
  onUpdateStatus: (update: StatusUpdate) => Promise<unknown>;
  onClaimAction: (action: ClaimAction) => Promise<unknown>;
}) {
  const update = (status: StatusUpdate['status'], earlyRefund?: string) =>
    void onUpdateStatus({ id: r.id, status, ...(earlyRefund === undefined ? {} : { earlyRefund }) }).catch(
      () => {},
    );
  // Which buttons: the shared table of spec §4 (src/shared/booking/reservation-rules.ts), the server's own, less what the card leaves to another word.
  const may = (action: ReservationAction) => offers(r.status, action, role);
  const buttons: ReactNode[] = [];
  if (may('approve'))
    buttons.push(
      <Button key="approve" onClick={() => onApprove(r.id)} disabled={busy}>
        <Trans>Approve</Trans>
      </Button>,
    );
  if (may('decline'))
    buttons.push(
      <Button key="decline" variant="outline" onClick={() => onDecline(r.id)} disabled={busy}>
        <Trans>Decline</Trans>
      </Button>,
    );
  // One word for the handover on both sides: the borrower says so, the lender proves it with the code.
  if (may('start'))
    buttons.push(
      role === 'borrower' ? (
        <Button key="start" onClick={() => update('active')} disabled={busy}>
          <Trans>Picked Up</Trans>
        </Button>
      ) : (
        <LenderPickup key="start" reservationId={r.id} busy={busy} onUpdateStatus={onUpdateStatus} />
      ),
    );
  // The borrower says it is back; the lender confirms it or reports a problem. Before the
  // last day it is an early return, and the button first says what that frees and refunds (decision 034).
  if (may('return'))
    buttons.push(
      <ItemReturned
        key="return"
        reservation={r}
        busy={busy}
        onConfirm={(earlyRefund) => update('returned', earlyRefund)}
      />,
    );
  if (may('complete'))
    buttons.push(
      <ReturnedInGoodCondition
        key="complete"
        reservation={r}
        busy={busy}
        onConfirm={(earlyRefund) => update('completed', earlyRefund)}
      />,
    );
  // A claim needs a deposit that was paid; an active borrow only once it is 24 hours overdue.
  const claimable =
    amountOf(r.depositAmount) > 0 &&
    Boolean(r.stripePaymentIntentId) &&
    (r.status === 'returned' ||
      (r.overdue && Boolean(r.claim?.claimableFrom) && Date.parse(r.claim!.claimableFrom!) <= Date.now()));
  if (may('claim') && claimable)
    buttons.push(<ReportProblem key="claim" reservation={r} busy={busy} onClaimAction={onClaimAction} />);
  if (may('acceptClaim'))
    buttons.push(
      <Button
        key="accept"
        onClick={() => void onClaimAction({ id: r.id, kind: 'accept' }).catch(() => {})}
        disabled={busy}
      >
        <Trans>Accept claim</Trans>
      </Button>,
    );
  if (may('dispute'))
    buttons.push(<DisputeClaim key="dispute" reservation={r} busy={busy} onClaimAction={onClaimAction} />);
  if (may('cancel'))
    buttons.push(<CancelReservation key="cancel" busy={busy} onConfirm={() => update('cancelled')} />);
  if (!buttons.length) return null;
  return (
    <div className="mt-4 flex flex-wrap gap-2 border-t border-line pt-4 [&>*]:flex-1 sm:[&>*]:flex-none">
      {buttons}
    </div>
  );
}

function CancelReservation({ busy, onConfirm }: { busy: boolean; onConfirm: () => void }) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <Button variant="outline" className="border-red-300 text-danger hover:bg-red-50" disabled={busy}>
          <Trans>Cancel</Trans>
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-bold text-ink">
            <Trans>Cancel this reservation?</Trans>
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-stone-700">
            <Trans>
              The other person will be notified. Any payment held for it is released or refunded. This can't
              be undone.
            </Trans>
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('outline')}>
              <Trans>Keep Reservation</Trans>
            </AlertDialog.Cancel>
            <AlertDialog.Action className={buttonClasses('destructive')} onClick={onConfirm} disabled={busy}>
              <Trans>Cancel Reservation</Trans>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** The lender's 'Picked Up': the handover is proven by the code the borrower shows (spec §4). */
function LenderPickup({
  reservationId,
  busy,
  onUpdateStatus,
}: {
  reservationId: string;
  busy: boolean;
  onUpdateStatus: (update: StatusUpdate) => Promise<unknown>;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const inputId = useId();

  const onOpenChange = (next: boolean) => {
    if (submitting) return;
    setOpen(next);
    if (!next) {
      setCode('');
      setError(undefined);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const pickupCode = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(pickupCode)) {
      setError(t`The pickup code has 6 digits`);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    onUpdateStatus({ id: reservationId, status: 'active', pickupCode }).then(
      () => {
        setSubmitting(false);
        setOpen(false);
        setCode('');
      },
      (failure: unknown) => {
        setSubmitting(false);
        setError(errorMessage(failure, t`Failed to update reservation.`));
      },
    );
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <Button disabled={busy}>
          <Trans>Picked Up</Trans>
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-bold text-ink">
            <Trans>Confirm pickup</Trans>
          </Dialog.Title>
          <Dialog.Description className="mt-2 text-stone-700">
            <Trans>Ask the borrower for the 6-digit pickup code on their My Reservations page.</Trans>
          </Dialog.Description>
          <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
            <Field id={inputId} label={t`Pickup code`} error={error}>
              <Input
                {...describedBy(inputId, error)}
                value={code}
                onChange={(event) => setCode(event.target.value.replace(/[^\d\s]/g, '').slice(0, 7))}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={7}
                placeholder="123456"
                className="font-mono text-xl tracking-[0.3em]"
              />
            </Field>
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Dialog.Close className={buttonClasses('outline')} disabled={submitting}>
                <Trans>Cancel</Trans>
              </Dialog.Close>
              <Button type="submit" disabled={submitting || busy}>
                {submitting ? t`Confirming...` : t`Confirm Pickup`}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
