import { useLingui } from '@lingui/react/macro';
import { LayoutGrid } from 'lucide-react';
import { CATEGORIES, type Category } from '#shared/constants.ts';
import { CATEGORY_ICONS } from '../../../components/category-icons.ts';
import { categoryLabel } from '../../../lib/category-labels.ts';
import { cn } from '../../../lib/cn.ts';

// Spec §2 category bar: 'All' plus the eight categories, one chosen at a time. A row of toggle
// buttons (aria-pressed) that scrolls sideways on narrow screens instead of widening the page.

const chipClasses =
  'inline-flex min-h-11 shrink-0 items-center gap-2 rounded-full border px-4 text-sm font-semibold transition-colors';

export function CategoryBar({
  value,
  onChange,
  label,
  className,
}: {
  value: Category | undefined;
  onChange: (category: Category | undefined) => void;
  /** The group's name for screen readers; 'Filter by category' unless given. */
  label?: string;
  className?: string;
}) {
  const { t } = useLingui();
  const options: { value: Category | undefined; label: string; icon: typeof LayoutGrid }[] = [
    { value: undefined, label: t`All`, icon: LayoutGrid },
    ...CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c), icon: CATEGORY_ICONS[c] })),
  ];
  return (
    <fieldset className={cn('min-w-0', className)}>
      <legend className="sr-only">{label ?? t`Filter by category`}</legend>
      {/* Negative margins let the chips scroll to the screen edge; padding keeps focus rings visible. */}
      <div className="-mx-4 flex gap-2 overflow-x-auto px-4 py-1.5 [scrollbar-width:thin]">
        {options.map((option) => {
          const selected = option.value === value;
          return (
            <button
              key={option.value ?? 'all'}
              type="button"
              aria-pressed={selected}
              onClick={() => onChange(option.value)}
              className={cn(
                chipClasses,
                selected
                  ? 'border-brand-700 bg-brand-700 text-white shadow-sm'
                  : 'border-line bg-white text-stone-700 hover:border-brand-200 hover:bg-brand-50 hover:text-brand-800',
              )}
            >
              <option.icon className="h-4 w-4" aria-hidden="true" />
              {option.label}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}
