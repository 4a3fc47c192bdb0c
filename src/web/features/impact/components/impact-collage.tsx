import { Trans, useLingui } from '@lingui/react/macro';
import type { ImpactFigures } from '#shared/schemas/impact.ts';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { IMPACT_STATS } from './impact-stats.ts';

// Spec §2 Dashboard 'Our Impact': the four figures as a collage, items shared the largest tile.

const tiles = [
  'col-span-2 row-span-2 bg-gradient-to-br from-brand-700 to-emerald-800 text-white',
  'col-span-2 bg-amber-50 text-amber-950',
  'bg-sky-50 text-sky-950',
  'bg-stone-100 text-stone-900',
];

export function ImpactCollage({ figures }: { figures: ImpactFigures | undefined }) {
  const { i18n } = useLingui();
  return (
    <section aria-labelledby="our-impact-heading">
      <h2 id="our-impact-heading" className="text-2xl font-bold text-ink">
        <Trans>Our Impact</Trans>
      </h2>
      <ul className="mt-4 grid grid-cols-2 gap-4 lg:grid-cols-4 lg:grid-rows-2" aria-busy={!figures}>
        {IMPACT_STATS.map((stat, i) => (
          <li
            key={stat.key}
            className={cn('flex flex-col justify-between rounded-2xl p-5 shadow-sm', tiles[i])}
          >
            <stat.icon
              className={cn('h-7 w-7', i === 0 ? 'text-brand-100' : 'opacity-80')}
              aria-hidden="true"
            />
            <div className="mt-4">
              {figures ? (
                <p className={cn('font-extrabold', i === 0 ? 'text-5xl sm:text-6xl' : 'text-3xl')}>
                  {stat.value(figures)}
                </p>
              ) : (
                <Skeleton className="h-9 w-24" />
              )}
              <h3 className="mt-1 text-lg font-semibold">{i18n._(stat.label)}</h3>
              <p className={cn('text-sm', i === 0 ? 'text-brand-50' : 'opacity-80')}>{i18n._(stat.detail)}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
