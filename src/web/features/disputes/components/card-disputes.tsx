import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Gavel, Loader2, Snowflake } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import type { DisputeFinding, DisputeStatus } from '#shared/constants.ts';
import { intlLocale } from '#shared/format.ts';
import type { AdminDispute, DisputeEvidence } from '#shared/schemas/disputes.ts';
import { disputeFindingInput, submitEvidenceInput } from '#shared/schemas/disputes.ts';
import {
  MoneyCaseHeader,
  MoneyList,
  MoneyListNotReady,
  PaymentIdFact,
} from '../../../components/moderator-money.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { useDisputeEvidence, useDisputes, useRecordFinding, useSubmitEvidence } from '../api.ts';

// The card disputes section of /admin/payments (decision 059): each dispute with what it took, when
// its evidence is due and whether the lender's transfers wait for it; the evidence made of the booking,
// previewed before it is sent; and, for a lost one, the finding of who bears the loss.

const STATUS_LABELS: Record<DisputeStatus, MessageDescriptor> = {
  warning_needs_response: msg`Inquiry: needs a response`,
  warning_under_review: msg`Inquiry: under review`,
  warning_closed: msg`Inquiry closed`,
  needs_response: msg`Needs evidence`,
  under_review: msg`Under review by the bank`,
  won: msg`Won`,
  lost: msg`Lost`,
  prevented: msg`Prevented`,
};

/** The provider's evidence fields, named for the moderator reading them. */
const EVIDENCE_LABELS: Record<keyof DisputeEvidence, MessageDescriptor> = {
  product_description: msg`The listing`,
  customer_name: msg`Cardholder`,
  customer_email_address: msg`Cardholder's e-mail`,
  service_date: msg`First day of the booking`,
  cancellation_policy_disclosure: msg`Cancellation policy`,
  refund_policy_disclosure: msg`Deposit refunds`,
  access_activity_log: msg`Pickup and return`,
  uncategorized_text: msg`The booking, handovers and chat`,
};

const day = (iso: string) =>
  new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium' }).format(new Date(iso));

export function CardDisputes() {
  const disputes = useDisputes();
  if (disputes.status !== 'success') {
    return (
      <MoneyListNotReady
        className="mt-8"
        query={disputes}
        loading={<Trans>Loading card disputes…</Trans>}
        failed={<Trans>Failed to load card disputes</Trans>}
      />
    );
  }
  const list = disputes.data.disputes;
  const count = list.length;
  return (
    <MoneyList
      id="disputes-heading"
      className="mt-8"
      heading={<Trans>Card disputes ({count})</Trans>}
      intro={
        <Trans>
          A borrower's bank took a card payment back. While a dispute is open, or lost with no finding, the
          lender's transfers for that booking wait.
        </Trans>
      }
      allClear={<Trans>No card payment has been disputed.</Trans>}
      items={list}
      keyOf={(dispute) => dispute.id}
    >
      {(dispute) => <DisputeCard dispute={dispute} />}
    </MoneyList>
  );
}

function DisputeCard({ dispute }: { dispute: AdminDispute }) {
  const { t, i18n } = useLingui();
  const amount = dispute.amount;
  const reason = dispute.reason.replaceAll('_', ' ');
  const borrowerName = dispute.borrowerName;
  const lenderName = dispute.lenderName;
  const awaitingEvidence = dispute.status === 'needs_response' || dispute.status === 'warning_needs_response';
  return (
    <Card className="p-4 sm:p-5">
      <MoneyCaseHeader
        icon={Gavel}
        title={<Trans>Dispute of ${amount}</Trans>}
        itemTitle={dispute.itemTitle}
        subtitle={
          <>
            <Trans>Reason: {reason}</Trans>
            {borrowerName ? ` · ${t`${borrowerName} borrowing from ${lenderName}`}` : ''}
          </>
        }
        badge={{ text: i18n._(STATUS_LABELS[dispute.status]), tone: 'amber' }}
      />
      <DisputeFacts dispute={dispute} i18n={i18n} />
      {awaitingEvidence && <EvidenceForm dispute={dispute} />}
      {dispute.status === 'lost' && !dispute.finding && <FindingForm dispute={dispute} />}
    </Card>
  );
}

function DisputeFacts({ dispute, i18n }: { dispute: AdminDispute; i18n: I18n }) {
  const withdrawn = dispute.withdrawn;
  const reinstated = dispute.reinstated;
  const reversal = dispute.reversal ?? '0.00';
  return (
    <>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm text-stone-700 sm:grid-cols-2">
        {dispute.evidenceDueBy && (
          <div className="flex gap-2">
            <dt className="text-muted">
              <Trans>Evidence due by</Trans>
            </dt>
            <dd>{day(dispute.evidenceDueBy)}</dd>
          </div>
        )}
        <div className="flex gap-2">
          <dt className="text-muted">
            <Trans>Taken / given back</Trans>
          </dt>
          <dd className="tabular-nums">
            ${withdrawn} / ${reinstated}
          </dd>
        </div>
        {dispute.evidenceSubmittedAt && (
          <div className="flex gap-2">
            <dt className="text-muted">
              <Trans>Evidence sent</Trans>
            </dt>
            <dd>{day(dispute.evidenceSubmittedAt)}</dd>
          </div>
        )}
        {dispute.finding && (
          <div className="flex gap-2 sm:col-span-2">
            <dt className="text-muted">
              <Trans>Finding</Trans>
            </dt>
            <dd>
              {dispute.finding === 'lender_at_fault'
                ? i18n._(msg`The lender was at fault: $${reversal} of their transfer is reversed`)
                : i18n._(msg`CampusLoop bears the loss`)}
            </dd>
          </div>
        )}
        <PaymentIdFact id={dispute.paymentIntentId} />
      </dl>
      {/* A sentence, not a term and its value: outside the list (a <dl> holds only dt/dd groups). */}
      {dispute.freezesTransfers && (
        <p className="mt-1 flex items-center gap-2 text-sm font-medium text-sky-900">
          <Snowflake className="h-4 w-4" aria-hidden="true" />
          <Trans>The lender's transfers for this booking are on hold.</Trans>
        </p>
      )}
    </>
  );
}

function EvidenceForm({ dispute }: { dispute: AdminDispute }) {
  const { t, i18n } = useLingui();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const preview = useDisputeEvidence(dispute.id, open);
  const submit = useSubmitEvidence();

  const send = (event: FormEvent) => {
    event.preventDefault();
    const parsed = submitEvidenceInput.safeParse({ note: note || undefined });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    submit.mutate(
      { id: dispute.id, note: parsed.data?.note },
      {
        onSuccess: () =>
          toast({ title: t`Evidence sent`, description: t`The bank will decide the dispute.` }),
        onError: (failure) => setError(errorMessage(failure, t`Please try again.`)),
      },
    );
  };

  return (
    <div className="mt-4 space-y-3">
      <Button variant="outline" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        {open ? <Trans>Hide the evidence</Trans> : <Trans>Preview the evidence</Trans>}
      </Button>
      {open && preview.isPending && (
        <p role="status" className="text-sm text-muted">
          <Trans>Putting the evidence together…</Trans>
        </p>
      )}
      {open && preview.isError && (
        <p role="alert" className="text-sm text-danger">
          {errorMessage(preview.error, t`Please try again.`)}
        </p>
      )}
      {open && preview.data && (
        <dl className="space-y-2 rounded-lg bg-stone-50 p-3 text-sm">
          {(Object.keys(EVIDENCE_LABELS) as (keyof DisputeEvidence)[])
            .filter((field) => preview.data.evidence[field])
            .map((field) => (
              <div key={field}>
                <dt className="font-semibold text-ink">{i18n._(EVIDENCE_LABELS[field])}</dt>
                <dd className="max-h-64 overflow-auto whitespace-pre-wrap break-words text-stone-800">
                  {preview.data.evidence[field]}
                </dd>
              </div>
            ))}
        </dl>
      )}
      <form onSubmit={send} className="space-y-3" noValidate>
        <Field id={`${id}-note`} label={t`Your summary for the bank (optional, in English)`} error={error}>
          <Textarea
            {...describedBy(`${id}-note`, error)}
            value={note}
            onChange={(e) => {
              setNote(e.target.value);
              setError(undefined);
            }}
            maxLength={2000}
            className="min-h-20"
          />
        </Field>
        <Button type="submit" disabled={submit.isPending}>
          {submit.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
          <Trans>Send the evidence</Trans>
        </Button>
      </form>
    </div>
  );
}

function FindingForm({ dispute }: { dispute: AdminDispute }) {
  const { t } = useLingui();
  const id = useId();
  const [finding, setFinding] = useState<DisputeFinding | ''>('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const record = useRecordFinding();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = disputeFindingInput.safeParse({ finding: finding || undefined, note: note || undefined });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    record.mutate(
      { id: dispute.id, ...parsed.data },
      {
        onSuccess: () =>
          toast({ title: t`Finding recorded`, description: t`The lender's transfers are released.` }),
        onError: (failure) => setError(errorMessage(failure, t`Please try again.`)),
      },
    );
  };

  const options: { value: DisputeFinding; label: string }[] = [
    { value: 'lender_at_fault', label: t`The lender was at fault: reverse their earning of this booking` },
    { value: 'platform_bears', label: t`CampusLoop bears the loss` },
  ];
  return (
    <form onSubmit={submit} className="mt-4 space-y-3" noValidate>
      <fieldset {...describedBy(`${id}-finding`, error)}>
        <legend className="text-sm font-semibold text-ink">
          <Trans>Who bears the loss?</Trans>
        </legend>
        <div className="mt-2 space-y-2">
          {options.map((option) => (
            <label key={option.value} className="flex items-start gap-2 text-sm text-stone-800">
              <input
                type="radio"
                name={`${id}-finding`}
                value={option.value}
                checked={finding === option.value}
                onChange={() => {
                  setFinding(option.value);
                  setError(undefined);
                }}
                className="mt-0.5 h-4 w-4 accent-brand-700 focus-visible:outline-2 focus-visible:outline-brand-700"
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      <Field id={`${id}-finding`} label={t`Note (optional)`} error={error}>
        <Textarea
          value={note}
          onChange={(e) => {
            setNote(e.target.value);
            setError(undefined);
          }}
          maxLength={2000}
          className="min-h-16"
        />
      </Field>
      <Button type="submit" variant="outline" disabled={record.isPending}>
        {record.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
        <Trans>Record the finding</Trans>
      </Button>
    </form>
  );
}
