import type { InputHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

export const inputClasses =
  'block w-full h-11 rounded-lg border border-stone-300 bg-white px-3 text-base text-ink placeholder:text-stone-500 ' +
  'focus:border-brand-600 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-600 ' +
  'aria-invalid:border-danger disabled:bg-stone-100';

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(inputClasses, className)} {...props} />;
}
