import { Trans, useLingui } from '@lingui/react/macro';
import { formatCo2Small, intlLocale } from '#shared/format.ts';
import type { CategoryImpact } from '#shared/schemas/impact.ts';
import { CATEGORY_ICONS } from '../../../components/category-icons.ts';
import { Card } from '../../../components/ui/card.tsx';
import { CATEGORY_MESSAGES } from '../../../lib/category-labels.ts';
import { cn } from '../../../lib/cn.ts';

/** Spec §2 Dashboard 'Impact by Category': borrows returned per category, most first. */
export function CategoryImpactCards({ categories }: { categories: CategoryImpact[] }) {
  const { i18n } = useLingui();
  return (
    <section aria-labelledby="categories-heading">
      <h2 id="categories-heading" className="text-2xl font-bold text-ink">
        <Trans>Impact by Category</Trans>
      </h2>
      <ul className="mt-4 grid grid-cols-2 gap-4 md:grid-cols-4">
        {categories.map(({ category, itemsShared, co2Saved }) => {
          const Icon = CATEGORY_ICONS[category];
          const shared = itemsShared.toLocaleString(intlLocale());
          const co2 = formatCo2Small(co2Saved);
          return (
            <li key={category}>
              <Card className={cn('h-full p-5', itemsShared === 0 && 'bg-stone-50')}>
                <Icon
                  className={cn('h-6 w-6', itemsShared > 0 ? 'text-brand-700' : 'text-stone-500')}
                  aria-hidden="true"
                />
                <h3 className="mt-3 font-semibold text-ink">{i18n._(CATEGORY_MESSAGES[category])}</h3>
                <p className="text-2xl font-extrabold text-ink">
                  <Trans>
                    {shared} <span className="text-sm font-semibold text-muted">shared</span>
                  </Trans>
                </p>
                <p className="text-sm text-muted">
                  {itemsShared > 0 ? <Trans>{co2} CO₂ saved</Trans> : <Trans>None returned yet</Trans>}
                </p>
              </Card>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
