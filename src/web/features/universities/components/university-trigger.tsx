import { useLingui } from '@lingui/react/macro';
import { ChevronsUpDown } from 'lucide-react';
import type { University } from '#shared/schemas/universities.ts';
import { cn } from '../../../lib/cn.ts';

// What the university selector's button shows, shared by the button that comes with the page
// (university-select.tsx) and the combobox that replaces it once loaded (university-combobox.tsx):
// the same markup either way, so the swap neither moves nor changes anything on screen.

export interface UniversitySelectProps {
  id: string;
  value: University | null;
  onChange: (university: University) => void;
  invalid?: boolean;
  describedBy?: string;
  /** The trigger's text while nothing is chosen ('Select your university'). */
  placeholder?: string;
  /** The open list's accessible name ('Choose your university'). */
  contentLabel?: string;
  /** How the trigger shows the chosen university. */
  display?: (university: University) => string;
}

export const showUniversity = (university: University) => `${university.name} (${university.state})`;

export function triggerClassName(invalid: boolean | undefined): string {
  return cn(
    'flex min-h-11 w-full items-center justify-between gap-2 rounded-lg border bg-white px-3 py-2 text-start text-base leading-snug text-ink',
    invalid ? 'border-danger' : 'border-stone-300',
  );
}

export function TriggerFace({
  value,
  placeholder,
  display = showUniversity,
}: Pick<UniversitySelectProps, 'value' | 'placeholder' | 'display'>) {
  const { t } = useLingui();
  return (
    <>
      {/* A campus name is shown whole, wrapping between words, never cut. */}
      <span className={cn('min-w-0', !value && 'text-stone-500')}>
        {value ? display(value) : (placeholder ?? t`Select your university`)}
      </span>
      <ChevronsUpDown className="h-4 w-4 shrink-0 text-stone-500" aria-hidden="true" />
    </>
  );
}
