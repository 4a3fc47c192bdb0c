import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog } from 'radix-ui';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { LIMITS } from '#shared/constants.ts';
import { thumbnailOf } from '#shared/photos.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { amountOf } from '../../../lib/item-labels.ts';
import { PhotoUploader } from '../../uploads/api.ts';
import type { ClaimAction } from '../queries.ts';
import { answerBy } from './next-step.tsx';

// On the reservation card: the stage of a return and its deposit claim with its
// deadline and amounts, the lender's "Report a problem" and the borrower's "Dispute" dialogs. The card
// decides which buttons show (the shared rules table); this file only shows and asks.

const money = (amount: string | number) => `$${amountOf(String(amount)).toFixed(2)}`;

/** What the card says about the return and the claim, for both people: stage, deadline, amounts. */
export function ClaimDetails({ reservation: r }: { reservation: Reservation }) {
  const { t } = useLingui();
  const c = r.claim;
  if (!c) return null;
  const deposit = money(r.depositAmount);
  const lines: ReactNode[] = [];
  if (r.status === 'returned' && c.confirmBy) {
    const returned = c.returnedAt ? answerBy(c.returnedAt) : '';
    const confirmBy = answerBy(c.confirmBy);
    lines.push(
      <p key="window">
        <Trans>
          <span className="font-semibold">Returned {returned}.</span> The {deposit} deposit is released when
          the lender confirms, or on its own on {confirmBy}.
        </Trans>
      </p>,
    );
  }
  if (c.amountClaimed) {
    const claimed = money(c.amountClaimed);
    lines.push(
      <p key="claim">
        <span className="font-semibold">
          <Trans>
            Claim: {claimed} of the {deposit} deposit.
          </Trans>
        </span>{' '}
        {c.description && <q className="italic">{c.description}</q>}
      </p>,
    );
    if (c.photos.length)
      lines.push(
        <Photos key="claim-photos" urls={c.photos} labelOf={(number) => t`Photo ${number} of the problem`} />,
      );
  }
  if (c.disputeNote) {
    lines.push(
      <p key="dispute">
        <span className="font-semibold">
          <Trans>Disputed:</Trans>
        </span>{' '}
        <q className="italic">{c.disputeNote}</q>
      </p>,
    );
    if (c.disputePhotos.length)
      lines.push(
        <Photos
          key="dispute-photos"
          urls={c.disputePhotos}
          labelOf={(number) => t`Photo ${number} of the borrower's side`}
        />,
      );
  }
  if (c.amountAwarded !== null && c.depositRefund !== null) {
    const kept = money(c.amountAwarded);
    const refunded = money(c.depositRefund);
    lines.push(
      <p key="settled">
        <Trans>
          <span className="font-semibold">Settled:</span> the lender keeps {kept}; {refunded} of the deposit
          is refunded.
        </Trans>
      </p>,
    );
  }
  if (!lines.length) return null;
  const tone =
    r.status === 'claimed' || r.status === 'disputed'
      ? 'border-orange-200 bg-orange-50 text-orange-950'
      : 'border-line bg-stone-50 text-ink';
  return (
    <section aria-label={t`Deposit`} className={`mt-4 space-y-1 rounded-xl border p-3 text-sm ${tone}`}>
      {lines}
    </section>
  );
}

/**
 * Small photos that open the full one: a claim's or a dispute's (also on the moderators' queue).
 * `labelOf` names each by its number, in one message: 'Photo 1 of the problem'.
 */
export function Photos({ urls, labelOf }: { urls: readonly string[]; labelOf: (number: number) => string }) {
  return (
    <ul className="flex flex-wrap gap-2 pt-1">
      {urls.map((url, index) => (
        <li key={url}>
          <a
            href={url}
            target="_blank"
            rel="noreferrer"
            aria-label={labelOf(index + 1)}
            className="block rounded-lg"
          >
            <img
              src={thumbnailOf(url)}
              alt=""
              loading="lazy"
              width={64}
              height={64}
              onError={(event) => {
                if (!event.currentTarget.src.endsWith(url)) event.currentTarget.src = url;
              }}
              className="h-16 w-16 rounded-lg bg-stone-100 object-cover"
            />
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The lender's "Report a problem": what is wrong and how much of the deposit, at most all of it. */
export function ReportProblem({
  reservation: r,
  busy,
  onClaimAction,
}: {
  reservation: Reservation;
  busy: boolean;
  onClaimAction: (action: ClaimAction) => Promise<unknown>;
}) {
  const { t } = useLingui();
  const [description, setDescription] = useState('');
  const [amount, setAmount] = useState('');
  const deposit = money(r.depositAmount);
  const borrower = r.borrower.fullName;
  const [photos, setPhotos] = useState<string[]>([]);
  const descriptionId = useId();
  const amountId = useId();
  return (
    <FormDialog
      trigger={t`Report a problem`}
      triggerVariant="outline"
      title={t`Report a problem`}
      description={t`Describe what is wrong and how much of the ${deposit} deposit you claim. ${borrower} can accept it or dispute it.`}
      submitLabel={t`Send claim`}
      busy={busy}
      onReset={() => {
        setDescription('');
        setAmount('');
        setPhotos([]);
      }}
      onSubmit={() =>
        onClaimAction({ id: r.id, kind: 'claim', description: description.trim(), amount, photos })
      }
    >
      {(error) => (
        <>
          <Field id={descriptionId} label={t`What is wrong`}>
            <Textarea
              id={descriptionId}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              rows={4}
              maxLength={2000}
            />
          </Field>
          <Field id={amountId} label={t`Amount claimed (up to ${deposit})`} error={error}>
            <Input
              {...describedBy(amountId, error)}
              value={amount}
              onChange={(event) => setAmount(event.target.value.replace(/[^\d.]/g, ''))}
              inputMode="decimal"
              placeholder="0.00"
            />
          </Field>
          <PhotoUploader value={photos} onChange={setPhotos} max={LIMITS.photosPerItem} />
        </>
      )}
    </FormDialog>
  );
}

/** The borrower's "Dispute": their side, for the moderator. */
export function DisputeClaim({
  reservation: r,
  busy,
  onClaimAction,
}: {
  reservation: Reservation;
  busy: boolean;
  onClaimAction: (action: ClaimAction) => Promise<unknown>;
}) {
  const { t } = useLingui();
  const [note, setNote] = useState('');
  const [photos, setPhotos] = useState<string[]>([]);
  const noteId = useId();
  return (
    <FormDialog
      trigger={t`Dispute`}
      triggerVariant="outline"
      title={t`Dispute the claim`}
      description={t`Tell the moderator your side. They see both sides and decide how much of the claim the lender keeps.`}
      submitLabel={t`Send dispute`}
      busy={busy}
      onReset={() => {
        setNote('');
        setPhotos([]);
      }}
      onSubmit={() => onClaimAction({ id: r.id, kind: 'dispute', note: note.trim(), photos })}
    >
      {(error) => (
        <>
          <Field id={noteId} label={t`Your side`} error={error}>
            <Textarea
              {...describedBy(noteId, error)}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              rows={4}
              maxLength={2000}
            />
          </Field>
          <PhotoUploader value={photos} onChange={setPhotos} max={LIMITS.photosPerItem} />
        </>
      )}
    </FormDialog>
  );
}

/** A button that opens a form in a dialog; the form's refusal shows inside it (also the handover forms'). */
export function FormDialog({
  trigger,
  triggerVariant,
  title,
  description,
  submitLabel,
  busy,
  onSubmit,
  onReset,
  children,
}: {
  trigger: string;
  triggerVariant: 'outline' | 'secondary';
  title: string;
  description: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: () => Promise<unknown>;
  onReset: () => void;
  children: (error: string | undefined) => ReactNode;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const onOpenChange = (next: boolean) => {
    if (submitting) return;
    setOpen(next);
    if (!next) {
      setError(undefined);
      onReset();
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    setError(undefined);
    onSubmit().then(
      () => {
        setSubmitting(false);
        setOpen(false);
        onReset();
      },
      (failure: unknown) => {
        setSubmitting(false);
        setError(errorMessage(failure, t`Please check the form and try again.`));
      },
    );
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <Button variant={triggerVariant} disabled={busy}>
          {trigger}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-bold text-ink">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-stone-700">{description}</Dialog.Description>
          <form onSubmit={submit} noValidate className="mt-4 space-y-4">
            {children(error)}
            <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <Dialog.Close className={buttonClasses('outline')} disabled={submitting}>
                <Trans>Cancel</Trans>
              </Dialog.Close>
              <Button type="submit" disabled={submitting || busy}>
                {submitting ? t`Sending...` : submitLabel}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
