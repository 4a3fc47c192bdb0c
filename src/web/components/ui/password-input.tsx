import { useLingui } from '@lingui/react/macro';
import { Eye, EyeOff } from 'lucide-react';
import { type InputHTMLAttributes, useState } from 'react';
import { cn } from '../../lib/cn.ts';
import { inputClasses } from './input.tsx';
import { IconTooltip } from './tooltip.tsx';

/** A password field with the spec's show/hide toggle. */
export function PasswordInput({ className, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const { t } = useLingui();
  const [visible, setVisible] = useState(false);
  const label = visible ? t`Hide password` : t`Show password`;
  return (
    <div className="relative">
      <input
        type={visible ? 'text' : 'password'}
        className={cn(inputClasses, 'pe-12', className)}
        {...props}
      />
      <IconTooltip label={label}>
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={label}
          aria-pressed={visible}
          className="absolute end-1 top-1/2 flex h-9 w-9 -translate-y-1/2 items-center justify-center rounded-md text-stone-600 hover:bg-stone-100"
        >
          {visible ? (
            <EyeOff className="h-5 w-5" aria-hidden="true" />
          ) : (
            <Eye className="h-5 w-5" aria-hidden="true" />
          )}
        </button>
      </IconTooltip>
    </div>
  );
}
