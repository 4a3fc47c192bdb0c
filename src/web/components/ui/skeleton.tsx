import { cn } from '../../lib/cn.ts';

/** A pulsing grey block standing in for content that is loading. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-lg bg-stone-200', className)} />;
}
