import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { ASK_LIMITS } from '#shared/asks.ts';
import { CATEGORIES, type Category } from '#shared/constants.ts';
import { askInput } from '#shared/schemas/asks.ts';
import { Button } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input, inputClasses } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { categoryLabel } from '../../../lib/category-labels.ts';
import { toast } from '../../../lib/toast.ts';
import { dayRange } from '../../reservations/api.ts';
import { useCreateAsk } from '../api.ts';

// "Ask your campus": what you need, a note, the days, and the most you would pay (an amount, or free
// only). Checked with the server's own schema before it is sent; the server's refusals land on their
// fields.

type FieldName = 'title' | 'category' | 'note' | 'startDate' | 'endDate' | 'maxPrice';

export function AskForm({
  initialTitle = '',
  initialCategory = '',
  today,
  onDone,
  onCancel,
}: {
  initialTitle?: string;
  initialCategory?: Category | '';
  /** The first day that may be asked for ('YYYY-MM-DD'). */
  today: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const create = useCreateAsk();
  const [title, setTitle] = useState(initialTitle);
  const [category, setCategory] = useState<Category | ''>(initialCategory);
  const [note, setNote] = useState('');
  const [startDate, setStartDate] = useState(today);
  const [endDate, setEndDate] = useState(today);
  const [freeOnly, setFreeOnly] = useState(false);
  const [maxPrice, setMaxPrice] = useState('');
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const values = { title, category, note, startDate, endDate, maxPrice: freeOnly ? 'free' : maxPrice };
    const parsed = askInput.safeParse(values);
    if (!parsed.success) {
      const found: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) {
        const path = String(issue.path[0]) as FieldName;
        found[path] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setFormError(null);
    create.mutate(values as Parameters<typeof create.mutate>[0], {
      onSuccess: ({ ask }) => {
        const days = dayRange(ask.startDate, ask.endDate);
        toast({
          title: t`Your ask is on the board`,
          description: t`Students of your campus can offer one for ${days}.`,
        });
        onDone();
      },
      onError: (error) => {
        const issues = error instanceof ApiError ? (error.issues ?? []) : [];
        if (issues.length) {
          setErrors(Object.fromEntries(issues.map((i) => [i.path, i.message])));
        } else setFormError(errorMessage(error, t`Please try again.`));
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t`Ask your campus`}>
      <Field
        id="ask-title"
        label={t`What do you need?`}
        error={errors.title}
        hint={t`For example: a cordless drill, a rice cooker, a tent for two.`}
      >
        <Input
          value={title}
          maxLength={ASK_LIMITS.titleMax}
          onChange={(e) => setTitle(e.target.value)}
          required
          {...describedBy('ask-title', errors.title, true)}
        />
      </Field>
      <Field id="ask-category" label={t`Category`} error={errors.category}>
        <select
          className={inputClasses}
          value={category}
          onChange={(e) => setCategory(e.target.value as Category | '')}
          {...describedBy('ask-category', errors.category)}
        >
          <option value="">{t`Select a category`}</option>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {categoryLabel(c)}
            </option>
          ))}
        </select>
      </Field>
      <Field id="ask-note" label={t`A note (optional)`} error={errors.note}>
        <Textarea
          value={note}
          maxLength={ASK_LIMITS.noteMax}
          onChange={(e) => setNote(e.target.value)}
          className="min-h-20"
          {...describedBy('ask-note', errors.note)}
        />
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="ask-start" label={t`From`} error={errors.startDate}>
          <Input
            type="date"
            min={today}
            value={startDate}
            onChange={(e) => {
              setStartDate(e.target.value);
              if (endDate < e.target.value) setEndDate(e.target.value);
            }}
            required
            {...describedBy('ask-start', errors.startDate)}
          />
        </Field>
        <Field id="ask-end" label={t`Until`} error={errors.endDate}>
          <Input
            type="date"
            min={startDate || today}
            value={endDate}
            onChange={(e) => setEndDate(e.target.value)}
            required
            {...describedBy('ask-end', errors.endDate)}
          />
        </Field>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-ink">
          <Trans>The most you would pay</Trans>
        </legend>
        <label className="flex min-h-11 items-center gap-2 text-ink">
          <input
            type="radio"
            name="ask-price"
            checked={!freeOnly}
            onChange={() => setFreeOnly(false)}
            className="h-5 w-5 accent-brand-700"
          />
          <Trans>Up to an amount</Trans>
        </label>
        {!freeOnly && (
          <Field id="ask-max-price" label={t`Amount in dollars`} error={errors.maxPrice}>
            <Input
              inputMode="decimal"
              value={maxPrice}
              placeholder="10.00"
              onChange={(e) => setMaxPrice(e.target.value)}
              {...describedBy('ask-max-price', errors.maxPrice)}
            />
          </Field>
        )}
        <label className="flex min-h-11 items-center gap-2 text-ink">
          <input
            type="radio"
            name="ask-price"
            checked={freeOnly}
            onChange={() => setFreeOnly(true)}
            className="h-5 w-5 accent-brand-700"
          />
          <Trans>Free only</Trans>
        </label>
        {freeOnly && errors.maxPrice && (
          <p role="alert" className="text-sm font-medium text-danger">
            {errors.maxPrice}
          </p>
        )}
      </fieldset>
      <p className="text-sm text-muted">
        <Trans>
          Students of your campus see your first name, your campus and this ask; never your contact details.
        </Trans>
      </p>
      {formError && (
        <p role="alert" className="text-sm font-medium text-danger">
          {formError}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? t`Asking...` : t`Ask your campus`}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}
