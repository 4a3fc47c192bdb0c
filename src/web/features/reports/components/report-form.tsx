import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Flag, TriangleAlert } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { LIMITS, REPORT_REASONS } from '#shared/constants.ts';
import { reportForm } from '#shared/schemas/reports.ts';
import { Button } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { inputClasses } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { ApiError } from '../../../lib/api.ts';
import { applyServerErrors } from '../../../lib/apply-server-errors.ts';
import { toast } from '../../../lib/toast.ts';
import { type ReportTarget, useCreateReport } from '../queries.ts';
import { REPORT_REASON_NAMES } from '../report-reasons.ts';

// The Report dialog's form (report-dialog.tsx): its own chunk, with the form library and the report's
// schema, loaded when the dialog opens, so the item and profile pages' first scripts carry none of it.

/** What the request names: the item with its owner, the ask (the server finds its author) or the person. */
function reported(target: ReportTarget) {
  if (target.kind === 'item') return { reportedItemId: target.itemId, reportedUserId: target.ownerId };
  if (target.kind === 'ask') return { reportedAskId: target.askId };
  return { reportedUserId: target.userId };
}

type FormValues = z.input<typeof reportForm>;
type FormOutput = z.output<typeof reportForm>;

/** Mounted while the dialog is open, so each opening starts with an empty form. */
export function ReportForm({
  target,
  title,
  onDone,
}: {
  target: ReportTarget;
  title: string;
  onDone: () => void;
}) {
  const { t, i18n } = useLingui();
  const create = useCreateReport();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<FormValues, unknown, FormOutput>({
    resolver: zodResolver(reportForm),
    defaultValues: { reason: 'scam', description: '' },
  });
  const length = watch('description')?.trim().length ?? 0;
  const max = LIMITS.reportDescriptionMax;
  const min = LIMITS.reportDescriptionMin;
  const name = target.name;

  const onSubmit = handleSubmit((values) =>
    create.mutate(
      { ...values, ...reported(target) },
      {
        onSuccess: () => {
          toast({
            title: t`Report submitted successfully`,
            description: t`Thank you for helping keep CampusLoop safe. Our team will review your report shortly.`,
          });
          onDone();
        },
        onError: (error) => {
          // Field problems go on the fields; anything else is a toast (spec §8).
          if (error instanceof ApiError && error.status === 400 && error.issues?.length) {
            applyServerErrors(error, setError, ['reason', 'description']);
            if (error.issues.some((i) => i.path === 'reason' || i.path === 'description')) return;
          }
          // The server's word for what a person can act on (already reported, gone, too many);
          // the spec's 'Please try again later.' for everything else.
          const known = error instanceof ApiError && error.status >= 400 && error.status < 500;
          toast({
            variant: 'destructive',
            title: t`Failed to submit report`,
            description: known ? error.message : t`Please try again later.`,
          });
          if (error instanceof ApiError && error.status === 409) onDone();
        },
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="pe-10">
        <Dialog.Title className="text-xl font-bold text-ink">{title}</Dialog.Title>
        <Dialog.Description className="mt-1 text-stone-700">
          {target.kind === 'item' ? (
            <Trans>
              Tell us what's wrong with <span className="font-semibold text-ink">{name}</span>. Our moderators
              read every report; the owner won't see who sent it.
            </Trans>
          ) : target.kind === 'ask' ? (
            <Trans>
              Tell us what's wrong with the ask <span className="font-semibold text-ink">{name}</span>. Our
              moderators read every report; the asker won't see who sent it.
            </Trans>
          ) : (
            <Trans>
              Tell us what's wrong with <span className="font-semibold text-ink">{name}</span>. Our moderators
              read every report; they won't see who sent it.
            </Trans>
          )}
        </Dialog.Description>
      </div>

      <Field id="report-reason" label={t`Reason`} error={errors.reason?.message}>
        <select
          className={inputClasses}
          {...describedBy('report-reason', errors.reason?.message)}
          {...register('reason')}
        >
          {REPORT_REASONS.map((reason) => (
            <option key={reason} value={reason}>
              {i18n._(REPORT_REASON_NAMES[reason])}
            </option>
          ))}
        </select>
      </Field>

      <Field
        id="report-description"
        label={t`Description`}
        error={errors.description?.message}
        hint={t`${length}/${max} characters, at least ${min}`}
      >
        <Textarea
          rows={5}
          placeholder={t`What happened? Dates, messages and details help us review it quickly.`}
          {...describedBy('report-description', errors.description?.message, true)}
          {...register('description')}
        />
      </Field>

      <p className="flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
        <TriangleAlert className="mt-0.5 h-5 w-5 shrink-0 text-amber-800" aria-hidden="true" />
        <span>
          <Trans>
            <span className="font-semibold">False reports can lead to account restrictions.</span> Please
            report only real problems.
          </Trans>
        </span>
      </p>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Dialog.Close asChild>
          <Button variant="outline" disabled={create.isPending}>
            <Trans>Cancel</Trans>
          </Button>
        </Dialog.Close>
        <Button type="submit" variant="destructive" disabled={create.isPending}>
          <Flag className="h-4 w-4" aria-hidden="true" />
          {create.isPending ? t`Submitting...` : t`Submit Report`}
        </Button>
      </div>
    </form>
  );
}
