import { useState } from 'react';
import { thumbnailOf } from '#shared/photos.ts';
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
  // A photo that cannot be loaded (storage down, a deleted file) falls back to the initial.
  const [broken, setBroken] = useState<string | null>(null);
  if (src && broken !== src) {
    return (
      <img
        // The small copy (128 px) for the header, cards and chat; the photo itself on a profile.
        src={size === 'lg' ? src : thumbnailOf(src)}
        alt=""
        onError={() => setBroken(src)}
        className={cn('shrink-0 rounded-full object-cover', dims)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full bg-brand-700 font-bold text-white',
        dims,
      )}
    >
      {(name.trim()[0] ?? '?').toUpperCase()}
    </span>
  );
}
