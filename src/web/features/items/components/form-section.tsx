import { Switch } from 'radix-ui';
import { type ReactNode, useId } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import { inputClasses } from '../../../components/ui/input.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';

// The item form's building blocks: a titled card per part of the form, an on/off row, and the form's
// shape while the item loads.

export const textareaClasses = cn(inputClasses.replace('h-11 ', ''), 'min-h-32 py-2 leading-relaxed');

export function FormSection({
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

export function SwitchRow({
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
