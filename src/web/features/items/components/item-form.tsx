import { zodResolver } from '@hookform/resolvers/zod';
import { t as translate } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Handshake, LockKeyhole } from 'lucide-react';
import { Switch } from 'radix-ui';
import { type ReactNode, useId } from 'react';
import { Controller, type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import {
  CANCELLATION_POLICIES,
  CANCELLATION_POLICY_LABELS,
  CANCELLATION_POLICY_TEXT,
  type CancellationPolicy,
  DEFAULT_CANCELLATION_POLICY,
} from '#shared/booking/cancellation-policy.ts';
import { campusToday } from '#shared/calendar.ts';
import {
  CATEGORIES,
  type Category,
  CONDITIONS,
  type Condition,
  DEFAULT_CAMPUS_TIME_ZONE,
  LIMITS,
  type PickupMethod,
  RENTAL_PERIODS,
  type RentalPeriod,
} from '#shared/constants.ts';
import { type Item, type ItemInput, itemInput } from '#shared/schemas/items.ts';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input, inputClasses } from '../../../components/ui/input.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { applyServerErrors } from '../../auth/components/apply-server-errors.ts';
import { PhotoUploader } from '../../uploads/components/photo-uploader.tsx';
import {
  amountOf,
  categoryLabel,
  conditionLabel,
  DAYS,
  dayLong,
  dayShort,
  rentalPeriodLabel,
} from './item-labels.ts';

// Spec §2 List an Item / Edit Item, §4 Create/edit item form, §5 Item rules. The form validates with
// the server's own schema (itemInput); the two switches only decide what goes into the payload.

/** What the form holds: the payload's fields as typed, plus the two switches. */
export interface ItemFormValues {
  title: string;
  description: string;
  category: Category | '';
  condition: Condition | '';
  chargeFee: boolean;
  rentalPrice: string;
  rentalPeriod: RentalPeriod;
  requireDeposit: boolean;
  depositAmount: string;
  images: string[];
  availableFrom: string;
  availableUntil: string;
  availableDays: number[];
  pickupMethod: PickupMethod;
  pickupLocation: string;
  cancellationPolicy: CancellationPolicy;
}

/** What the form hands over on a valid submit: itemInput's parsed output, ready to send. */
export type ItemPayload = z.output<typeof itemInput>;

const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];
const WEEKDAYS = [1, 2, 3, 4, 5];
const WEEKENDS = [0, 6];

const SERVER_FIELDS = [
  'title',
  'description',
  'category',
  'condition',
  'rentalPrice',
  'rentalPeriod',
  'depositAmount',
  'images',
  'availableFrom',
  'availableUntil',
  'availableDays',
  'pickupMethod',
  'pickupLocation',
  'cancellationPolicy',
];

/** Today as the local calendar date ('2026-11-22'), not UTC's. */
/** Today on the campus calendar, which is what the server checks availability against. */
export function todayLocal(): string {
  return campusToday(DEFAULT_CAMPUS_TIME_ZONE).date;
}

export function emptyItemValues(): ItemFormValues {
  return {
    title: '',
    description: '',
    category: '',
    condition: 'good',
    chargeFee: false,
    rentalPrice: '',
    rentalPeriod: 'day',
    requireDeposit: false,
    depositAmount: '',
    images: [],
    availableFrom: todayLocal(),
    availableUntil: '',
    availableDays: [...ALL_DAYS],
    pickupMethod: 'meetup',
    pickupLocation: '',
    cancellationPolicy: DEFAULT_CANCELLATION_POLICY,
  };
}

/** Spec §4: on edit the switches start on only when the stored amount is above 0. */
export function itemToValues(item: Item): ItemFormValues {
  const chargeFee = amountOf(item.rentalPrice) > 0;
  const requireDeposit = amountOf(item.depositAmount) > 0;
  return {
    title: item.title,
    description: item.description,
    category: item.category,
    condition: item.condition,
    chargeFee,
    rentalPrice: chargeFee ? (item.rentalPrice ?? '') : '',
    rentalPeriod: item.rentalPeriod ?? 'day',
    requireDeposit,
    depositAmount: requireDeposit ? (item.depositAmount ?? '') : '',
    images: [...item.images],
    availableFrom: item.availableFrom.slice(0, 10),
    availableUntil: item.availableUntil?.slice(0, 10) ?? '',
    availableDays: item.availableDays.length ? [...item.availableDays].sort((a, b) => a - b) : [...ALL_DAYS],
    // The smart locker is 'Coming Soon': an older locker item is kept as it is.
    pickupMethod: item.pickupMethod,
    pickupLocation: item.pickupLocation ?? '',
    cancellationPolicy: item.cancellationPolicy ?? DEFAULT_CANCELLATION_POLICY,
  };
}

/** Spec §4: with the fee switch off, price and period are dropped; with the deposit switch off, the deposit. */
export function toItemInput(values: ItemFormValues): ItemInput {
  return {
    title: values.title,
    description: values.description,
    category: values.category as Category,
    condition: values.condition as Condition,
    ...(values.chargeFee ? { rentalPrice: values.rentalPrice, rentalPeriod: values.rentalPeriod } : {}),
    ...(values.requireDeposit ? { depositAmount: values.depositAmount } : {}),
    images: values.images,
    availableFrom: values.availableFrom,
    availableUntil: values.availableUntil || null,
    availableDays: values.availableDays,
    pickupMethod: values.pickupMethod,
    pickupLocation: values.pickupLocation,
    cancellationPolicy: values.cancellationPolicy,
  };
}

const schemaResolver = zodResolver(itemInput);

/** itemInput on the payload the form would send, plus: a switched-on fee or deposit needs an amount. */
const itemFormResolver: Resolver<ItemFormValues, unknown, ItemPayload> = async (values, context, options) => {
  const result = await schemaResolver(toItemInput(values), context, options as never);
  const errors: FieldErrors<ItemFormValues> = { ...(result.errors as FieldErrors<ItemFormValues>) };
  if (values.chargeFee && !errors.rentalPrice && amountOf(values.rentalPrice) === 0) {
    errors.rentalPrice = {
      type: 'required',
      message: translate`Enter a rental price, or turn off the rental fee`,
    };
  }
  if (values.requireDeposit && !errors.depositAmount && amountOf(values.depositAmount) === 0) {
    errors.depositAmount = {
      type: 'required',
      message: translate`Enter a deposit amount, or turn off the deposit`,
    };
  }
  if (Object.keys(errors).length > 0) return { values: {}, errors };
  return { values: result.values as ItemPayload, errors: {} };
};

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

const textareaClasses = cn(inputClasses.replace('h-11 ', ''), 'min-h-32 py-2 leading-relaxed');

function FormSection({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby={id} className="space-y-4">
        <div>
          <h2 id={id} className="text-lg font-bold text-ink">
            {title}
          </h2>
          <p className="text-sm text-muted">{description}</p>
        </div>
        {children}
      </section>
    </Card>
  );
}

function SwitchRow({
  id,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex min-h-11 items-center justify-between gap-4 rounded-xl bg-stone-50 p-3">
      <div className="min-w-0">
        <label htmlFor={id} className="block cursor-pointer font-semibold text-ink">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      </div>
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onChange}
        aria-describedby={`${id}-hint`}
        className="relative inline-flex h-7 w-12 shrink-0 cursor-pointer items-center rounded-full bg-stone-500 transition-colors data-[state=checked]:bg-brand-700"
      >
        <Switch.Thumb className="block h-5 w-5 translate-x-1 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-6" />
      </Switch.Root>
    </div>
  );
}

/** Spec §2/§4: seven day toggles, three quick picks, a summary; the last day cannot be turned off. */
function DaySelector({
  value,
  onChange,
  error,
}: {
  value: number[];
  onChange: (days: number[]) => void;
  error?: string;
}) {
  const { t } = useLingui();
  const selected = new Set(value);
  const dayCount = selected.size;
  const same = (days: number[]) => days.length === selected.size && days.every((d) => selected.has(d));
  const toggle = (day: number) => {
    if (selected.has(day)) {
      if (selected.size === 1) return;
      selected.delete(day);
    } else {
      selected.add(day);
    }
    onChange([...selected].sort((a, b) => a - b));
  };
  const quick: [string, string, number[]][] = [
    ['all', t`All Days`, ALL_DAYS],
    ['weekdays', t`Weekdays`, WEEKDAYS],
    ['weekends', t`Weekends`, WEEKENDS],
  ];

  return (
    <fieldset
      className="space-y-3"
      aria-describedby={error ? 'availableDays-error' : 'availableDays-summary'}
    >
      <legend className="text-sm font-semibold text-ink">
        <Trans>Available days</Trans>
      </legend>
      <div className="flex flex-wrap gap-2">
        {quick.map(([key, label, days]) => (
          <button
            key={key}
            type="button"
            onClick={() => onChange([...days])}
            aria-pressed={same(days)}
            className={cn(
              'min-h-11 rounded-full border px-4 text-sm font-semibold transition-colors',
              same(days)
                ? 'border-brand-700 bg-brand-50 text-brand-800'
                : 'border-stone-300 bg-white text-stone-700 hover:bg-stone-50',
            )}
          >
            {label}
          </button>
        ))}
      </div>
      <div className="grid grid-cols-7 gap-1 sm:flex sm:gap-2">
        {DAYS.map((day) => {
          const on = selected.has(day);
          return (
            <button
              key={day}
              type="button"
              onClick={() => toggle(day)}
              aria-pressed={on}
              aria-label={dayLong(day)}
              title={on && selected.size === 1 ? t`At least one day must stay selected` : undefined}
              className={cn(
                'flex h-11 min-w-0 items-center justify-center rounded-lg border text-sm font-semibold transition-colors sm:w-14',
                on
                  ? 'border-brand-700 bg-brand-700 text-white hover:bg-brand-800'
                  : 'border-stone-300 bg-white text-stone-700 hover:bg-stone-50',
              )}
            >
              {dayShort(day)}
            </button>
          );
        })}
      </div>
      <p id="availableDays-summary" className="text-sm font-medium text-brand-800" aria-live="polite">
        {selected.size === 7 ? (
          <Trans>Available every day</Trans>
        ) : (
          <Plural value={dayCount} one="Available # day(s) per week" other="Available # day(s) per week" />
        )}
      </p>
      {error && (
        <p id="availableDays-error" role="alert" className="text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The form's shape while the item loads (spec §2 Edit: loading skeleton while fetching). */
export function ItemFormSkeleton() {
  return (
    <div className="space-y-6" aria-hidden="true">
      {[0, 1, 2, 3].map((i) => (
        <Card key={i} className="space-y-4 p-4 sm:p-6">
          <Skeleton className="h-6 w-48" />
          <Skeleton className="h-11 w-full" />
          <Skeleton className="h-11 w-full" />
          {i === 0 && <Skeleton className="h-28 w-full" />}
        </Card>
      ))}
    </div>
  );
}
