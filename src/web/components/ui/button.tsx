import { Slot } from 'radix-ui';
import type { ButtonHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

const variants = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 shadow-sm',
  secondary: 'bg-brand-50 text-brand-800 hover:bg-brand-100',
  outline: 'border border-line bg-white text-ink hover:bg-stone-50',
  ghost: 'text-ink hover:bg-stone-100',
  destructive: 'bg-danger text-white hover:bg-red-800',
  link: 'text-brand-700 underline-offset-4 hover:underline px-0 h-auto',
  /** On a dark brand background. */
  inverse: 'bg-white text-brand-800 hover:bg-brand-50 shadow-sm',
  inverseOutline: 'border border-white/70 text-white hover:bg-white/10',
} as const;

const sizes = {
  sm: 'h-9 px-3 text-sm',
  md: 'h-11 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
  icon: 'h-11 w-11',
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /** Render the child element (a Link, say) with the button's looks. */
  asChild?: boolean;
}

export function buttonClasses(variant: keyof typeof variants = 'primary', size: keyof typeof sizes = 'md') {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors',
    'disabled:pointer-events-none disabled:opacity-60 select-none whitespace-nowrap',
    variants[variant],
    sizes[size],
  );
}

export function Button({ variant, size, asChild, className, type, ...props }: ButtonProps) {
  const Component = asChild ? Slot.Root : 'button';
  return (
    <Component
      className={cn(buttonClasses(variant, size), className)}
      {...(asChild ? {} : { type: type ?? 'button' })}
      {...props}
    />
  );
}
