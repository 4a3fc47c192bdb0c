import { Trans, useLingui } from '@lingui/react/macro';
import { Handshake, LockKeyhole } from 'lucide-react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import {
  CANCELLATION_POLICIES,
  CANCELLATION_POLICY_LABELS,
  CANCELLATION_POLICY_TEXT,
  DEFAULT_CANCELLATION_POLICY,
} from '#shared/booking/cancellation-policy.ts';
import { CATEGORIES, CONDITIONS, LIMITS, RENTAL_PERIODS } from '#shared/constants.ts';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input, inputClasses } from '../../../components/ui/input.tsx';
import { applyServerErrors } from '../../../lib/apply-server-errors.ts';
import { categoryLabel, conditionLabel, rentalPeriodLabel } from '../../../lib/item-labels.ts';
import { PhotoUploader } from '../../uploads/api.ts';
import { DaySelector } from './day-selector.tsx';
import { FormSection, SwitchRow, textareaClasses } from './form-section.tsx';
import {
  type ItemFormValues,
  type ItemPayload,
  itemFormResolver,
  SERVER_FIELDS,
} from './item-form-values.ts';

// Spec §2 List an Item / Edit Item, §4 Create/edit item form, §5 Item rules. The form validates with
// the server's own schema (itemInput, item-form-values.ts); the two switches only decide what goes into the payload.

export function ItemForm({
  defaultValues,
  submitLabel,
  pendingLabel,
  cancelTo,
  onSubmit,
}: {
  defaultValues: ItemFormValues;
  submitLabel: string;
  pendingLabel: string;
  cancelTo: string;
  /** Sends the payload; a rejection (shown by the caller as a toast) puts the server's field errors on the form. */
  onSubmit: (payload: ItemPayload) => Promise<unknown>;
}) {
  const { t } = useLingui();
  const {
    register,
    control,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ItemFormValues, unknown, ItemPayload>({ resolver: itemFormResolver, defaultValues });

  const submit = handleSubmit(async (payload) => {
    try {
      await onSubmit(payload);
    } catch (error) {
      // Everything typed stays; the server's per-field messages show on their fields.
      applyServerErrors(error, setError, SERVER_FIELDS);
    }
  });

  const chargeFee = watch('chargeFee');
  const policy = watch('cancellationPolicy') ?? DEFAULT_CANCELLATION_POLICY;
  const requireDeposit = watch('requireDeposit');
  const maxPhotos = LIMITS.photosPerItem;

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <FormSection title={t`Basic Information`} description={t`What are you lending?`}>
        <Field id="title" label={t`Title`} error={errors.title?.message}>
          <Input
            placeholder={t`e.g. TI-84 Plus graphing calculator`}
            autoComplete="off"
            {...describedBy('title', errors.title?.message)}
            {...register('title')}
          />
        </Field>
        <Field
          id="description"
          label={t`Description`}
          error={errors.description?.message}
          hint={t`At least 10 characters. Mention what's included and any quirks.`}
        >
          <textarea
            rows={5}
            className={textareaClasses}
            {...describedBy('description', errors.description?.message, true)}
            {...register('description')}
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="category" label={t`Category`} error={errors.category?.message}>
            <select
              className={inputClasses}
              {...describedBy('category', errors.category?.message)}
              {...register('category')}
            >
              <option value="">{t`Select a category`}</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {categoryLabel(c)}
                </option>
              ))}
            </select>
          </Field>
          <Field id="condition" label={t`Condition`} error={errors.condition?.message}>
            <select
              className={inputClasses}
              {...describedBy('condition', errors.condition?.message)}
              {...register('condition')}
            >
              <option value="">{t`Select the condition`}</option>
              {CONDITIONS.map((c) => (
                <option key={c} value={c}>
                  {conditionLabel(c)}
                </option>
              ))}
            </select>
          </Field>
          <Field
            id="cancellationPolicy"
            label={t`Cancellation policy`}
            error={errors.cancellationPolicy?.message}
            hint={CANCELLATION_POLICY_TEXT[policy]}
          >
            <select
              className={inputClasses}
              {...describedBy('cancellationPolicy', errors.cancellationPolicy?.message)}
              {...register('cancellationPolicy')}
            >
              {CANCELLATION_POLICIES.map((p) => (
                <option key={p} value={p}>
                  {CANCELLATION_POLICY_LABELS[p]}
                </option>
              ))}
            </select>
          </Field>
        </div>
      </FormSection>

      <FormSection
        title={t`Photos`}
        description={t`Add up to ${maxPhotos} photos. The first one is the cover.`}
      >
        <Controller
          control={control}
          name="images"
          render={({ field }) => (
            <PhotoUploader value={field.value} onChange={field.onChange} max={LIMITS.photosPerItem} />
          )}
        />
        {errors.images?.message && (
          <p role="alert" className="text-sm font-medium text-danger">
            {errors.images.message}
          </p>
        )}
      </FormSection>

      <FormSection title={t`Pricing & Deposit`} description={t`Lend it for free, or charge a small fee.`}>
        <Controller
          control={control}
          name="chargeFee"
          render={({ field }) => (
            <SwitchRow
              id="chargeFee"
              label={t`Charge a rental fee`}
              hint={t`Turn off to lend it for free.`}
              checked={field.value}
              onChange={field.onChange}
            />
          )}
        />
        {chargeFee && (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="rentalPrice" label={t`Rental price ($)`} error={errors.rentalPrice?.message}>
              <Input
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0"
                placeholder="5.00"
                {...describedBy('rentalPrice', errors.rentalPrice?.message)}
                {...register('rentalPrice')}
              />
            </Field>
            <Field id="rentalPeriod" label={t`Rental period`} error={errors.rentalPeriod?.message}>
              <select
                className={inputClasses}
                {...describedBy('rentalPeriod', errors.rentalPeriod?.message)}
                {...register('rentalPeriod')}
              >
                {RENTAL_PERIODS.map((p) => (
                  <option key={p} value={p}>
                    {rentalPeriodLabel(p)}
                  </option>
                ))}
              </select>
            </Field>
          </div>
        )}
        <Controller
          control={control}
          name="requireDeposit"
          render={({ field }) => (
            <SwitchRow
              id="requireDeposit"
              label={t`Require a refundable deposit`}
              hint={t`Held while the item is out; refunded when it comes back in good condition.`}
              checked={field.value}
              onChange={field.onChange}
            />
          )}
        />
        {requireDeposit && (
          <div className="sm:max-w-[calc(50%-0.5rem)]">
            <Field id="depositAmount" label={t`Deposit amount ($)`} error={errors.depositAmount?.message}>
              <Input
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0"
                placeholder="20.00"
                {...describedBy('depositAmount', errors.depositAmount?.message)}
                {...register('depositAmount')}
              />
            </Field>
          </div>
        )}
      </FormSection>

      <FormSection title={t`Availability & Pickup`} description={t`When and where people can borrow it.`}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="availableFrom" label={t`Available from`} error={errors.availableFrom?.message}>
            <Input
              type="date"
              {...describedBy('availableFrom', errors.availableFrom?.message)}
              {...register('availableFrom')}
            />
          </Field>
          <Field
            id="availableUntil"
            label={t`Available until (optional)`}
            error={errors.availableUntil?.message}
            hint={t`Leave blank to lend it indefinitely.`}
          >
            <Input
              type="date"
              {...describedBy('availableUntil', errors.availableUntil?.message, true)}
              {...register('availableUntil')}
            />
          </Field>
        </div>
        <Controller
          control={control}
          name="availableDays"
          render={({ field }) => (
            <DaySelector
              value={field.value}
              onChange={field.onChange}
              error={errors.availableDays?.message ?? errors.availableDays?.root?.message}
            />
          )}
        />
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-ink">
            <Trans>Pickup method</Trans>
          </legend>
          <div className="grid gap-3 sm:grid-cols-2">
            <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-stone-300 bg-white p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
              <input
                type="radio"
                value="meetup"
                className="h-5 w-5 accent-brand-700"
                {...register('pickupMethod')}
              />
              <Handshake className="h-5 w-5 text-brand-700" aria-hidden="true" />
              <span className="font-medium text-ink">
                <Trans>Campus meetup</Trans>
              </span>
            </label>
            <label className="flex min-h-11 cursor-not-allowed items-center gap-3 rounded-xl border border-dashed border-stone-300 bg-stone-50 p-3">
              <input
                type="radio"
                value="locker"
                disabled
                aria-describedby="locker-soon"
                className="h-5 w-5"
                {...register('pickupMethod')}
              />
              <LockKeyhole className="h-5 w-5 text-stone-500" aria-hidden="true" />
              <span className="font-medium text-stone-600">
                <Trans>Smart locker</Trans>
              </span>
              <span
                id="locker-soon"
                className="ms-auto rounded-full bg-stone-200 px-2 py-0.5 text-xs font-bold text-stone-800"
              >
                <Trans>Coming Soon</Trans>
              </span>
            </label>
          </div>
          {errors.pickupMethod?.message && (
            <p role="alert" className="text-sm font-medium text-danger">
              {errors.pickupMethod.message}
            </p>
          )}
        </fieldset>
        <Field
          id="pickupLocation"
          label={t`Pickup location`}
          error={errors.pickupLocation?.message}
          hint={t`A public spot on campus, e.g. the main library entrance.`}
        >
          <Input
            placeholder={t`e.g. Green Library entrance`}
            {...describedBy('pickupLocation', errors.pickupLocation?.message, true)}
            {...register('pickupLocation')}
          />
        </Field>
      </FormSection>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Link to={cancelTo} className={buttonClasses('outline', 'lg')}>
          <Trans>Cancel</Trans>
        </Link>
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
