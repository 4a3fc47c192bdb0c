import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { thumbnailOf } from '#shared/photos.ts';
import { cn } from '../../../lib/cn.ts';
import { usableImages } from '../../../lib/item-labels.ts';
import { PLACEHOLDER_IMAGE } from './item-card.tsx';

/** Spec §2 Item detail: the main photo, a row of thumbnails to switch it, the placeholder when none. */
export function ItemGallery({ images, title }: { images: readonly string[]; title: string }) {
  const { t } = useLingui();
  const photos = usableImages(images);
  const [selected, setSelected] = useState(0);
  const [broken, setBroken] = useState<ReadonlySet<string>>(new Set());
  const index = Math.min(selected, Math.max(photos.length - 1, 0));
  const current = photos[index];
  const markBroken = (src: string) => setBroken((prev) => new Set(prev).add(src));
  const mainSrc = current && !broken.has(current) ? current : PLACEHOLDER_IMAGE;
  const number = index + 1;
  const count = photos.length;

  return (
    <div className="space-y-3">
      <div className="aspect-[4/3] overflow-hidden rounded-2xl border border-line bg-stone-100">
        <img
          key={mainSrc}
          src={mainSrc}
          alt={current ? t`${title}, photo ${number} of ${count}` : t`${title} (no photo yet)`}
          onError={() => current && markBroken(current)}
          // The page's largest picture: fetched first (the server also preloads it).
          fetchPriority="high"
          className="h-full w-full object-cover"
        />
      </div>
      {photos.length > 1 && (
        <ul className="flex flex-wrap gap-2" aria-label={t`Photos`}>
          {photos.map((src, i) => (
            <li key={src}>
              <button
                type="button"
                onClick={() => setSelected(i)}
                aria-label={t`Show photo ${{ number: i + 1 }}`}
                aria-pressed={i === index}
                className={cn(
                  'block h-16 w-16 overflow-hidden rounded-lg border-2 bg-stone-100 transition sm:h-20 sm:w-20',
                  i === index ? 'border-brand-700' : 'border-transparent opacity-80 hover:opacity-100',
                )}
              >
                <img
                  src={broken.has(src) ? PLACEHOLDER_IMAGE : thumbnailOf(src)}
                  alt=""
                  loading="lazy"
                  onError={(event) => {
                    // The small copy may be missing: try the original, then the placeholder.
                    const img = event.currentTarget;
                    if (img.src.endsWith('-thumb.jpg')) img.src = src;
                    else markBroken(src);
                  }}
                  className="h-full w-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
