import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Star } from 'lucide-react';
import { useState } from 'react';
import { LIMITS } from '#shared/constants.ts';
import { cn } from '../lib/cn.ts';

// A 1-5 star choice built on native radio buttons, so it is one tab stop and the arrow keys move
// between stars, with every star announced as "N stars (word)".

// 'Good' and 'Fair' also name an item's condition; the context keeps the two apart for the translator.
export const RATING_WORDS: Record<number, MessageDescriptor> = {
  1: msg({ message: 'Poor', context: 'rating' }),
  2: msg({ message: 'Fair', context: 'rating' }),
  3: msg({ message: 'Good', context: 'rating' }),
  4: msg({ message: 'Very good', context: 'rating' }),
  5: msg({ message: 'Excellent', context: 'rating' }),
};

const STARS = Array.from({ length: LIMITS.ratingMax }, (_, i) => i + 1);

export function StarRatingInput({
  id,
  name,
  value,
  onChange,
  onBlur,
  error,
  disabled,
  legend,
}: {
  /** Prefix of the radios' ids and of the error's id (`${id}-error`). */
  id: string;
  name: string;
  value: number | undefined;
  onChange: (rating: number) => void;
  onBlur?: () => void;
  error?: string;
  disabled?: boolean;
  /** What is rated, when a form asks more than one rating; 'Rating' unless given. */
  legend?: string;
}) {
  const { i18n, t } = useLingui();
  const [hovered, setHovered] = useState<number | null>(null);
  const word = (n: number) => {
    const message = RATING_WORDS[n];
    return message ? i18n._(message) : '';
  };
  /** '4 stars (Very good)'. */
  const starsLabel = (n: number) => {
    const ratingWord = word(n);
    return t`${plural(n, { one: '# star', other: '# stars' })} (${ratingWord})`;
  };
  const shown = hovered ?? value ?? 0;
  return (
    <fieldset aria-describedby={error ? `${id}-error` : `${id}-hint`} className="space-y-1.5">
      <legend className="text-sm font-semibold text-ink">{legend ?? <Trans>Rating</Trans>}</legend>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: hover only previews; the radios do the choosing. */}
      <div className="flex flex-wrap items-center gap-x-1" onMouseLeave={() => setHovered(null)}>
        {STARS.map((n) => (
          <span key={n} className="relative">
            <input
              type="radio"
              id={`${id}-${n}`}
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              onBlur={onBlur}
              disabled={disabled}
              aria-invalid={error ? true : undefined}
              className="peer sr-only"
            />
            <label
              htmlFor={`${id}-${n}`}
              onMouseEnter={() => setHovered(n)}
              className={cn(
                'flex h-11 w-11 cursor-pointer items-center justify-center rounded-lg hover:bg-amber-50',
                'peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 peer-focus-visible:outline',
                'peer-disabled:cursor-default peer-disabled:opacity-60',
              )}
            >
              <Star
                aria-hidden="true"
                className={cn(
                  'h-8 w-8',
                  n <= shown ? 'fill-amber-400 text-amber-600' : 'fill-none text-stone-500',
                )}
              />
              <span className="sr-only">{starsLabel(n)}</span>
            </label>
          </span>
        ))}
        <span aria-hidden="true" className="ms-2 min-w-20 text-sm font-medium text-stone-700">
          {shown ? word(shown) : ''}
        </span>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-sm text-muted">
          <Trans>From 1 star (poor) to 5 stars (excellent).</Trans>
        </p>
      )}
    </fieldset>
  );
}
