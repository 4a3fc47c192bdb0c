import { cn } from '../../lib/cn.ts';

/** A person's photo, or the initial of their name on a coloured disc (spec §2 Profile). */
export function Avatar({
  name,
  src,
  size = 'md',
}: {
  name: string;
  src?: string | null;
  size?: 'sm' | 'md' | 'lg';
}) {
  const dims = { sm: 'h-8 w-8 text-sm', md: 'h-10 w-10 text-base', lg: 'h-20 w-20 text-3xl' }[size];
  if (src) return <img src={src} alt="" className={cn('rounded-full object-cover', dims)} />;
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex items-center justify-center rounded-full bg-brand-700 font-bold text-white',
        dims,
      )}
    >
      {(name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}
