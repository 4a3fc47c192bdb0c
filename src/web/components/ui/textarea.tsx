import type { TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';
import { inputClasses } from './input.tsx';

export const textareaClasses = cn(inputClasses.replace('h-11 ', ''), 'min-h-28 py-2 leading-relaxed');

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cn(textareaClasses, className)} {...props} />;
}
