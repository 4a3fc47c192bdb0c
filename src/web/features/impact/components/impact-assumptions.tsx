import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ExternalLink } from 'lucide-react';
import { CATEGORIES, type Category } from '#shared/constants.ts';
import { formatMoney, intlLocale } from '#shared/format.ts';
import {
  CATEGORY_FACTORS,
  embodiedCo2Kg,
  MATERIAL_FACTORS,
  type Material,
  massKg,
  PURCHASE_AVOIDANCE,
} from '#shared/impact.ts';
import { Card } from '../../../components/ui/card.tsx';
import { CATEGORY_MESSAGES } from '../../../lib/category-labels.ts';

// The dashboard states its assumptions in plain words, then the method with every factor, read from
// the same module the server counts with (docs/impact-methodology.md has the sources in full).

// The sources are named by their own titles, in their own language (English), whatever the page's.
const SOURCES = [
  {
    name: 'Library of Things: how we calculate our impact (2024 update)', // i18n-ignore: a source's own title
    href: 'https://www.libraryofthings.co.uk/blog/how-we-calculate-our-impact-2024-update',
  },
  {
    name: 'Edinburgh Tool Library: carbon data for sharing libraries', // i18n-ignore: a source's own title
    href: 'https://edinburghtoollibrary.org.uk/carbon-data-for-sharing-libraries',
  },
];

/**
 * The typical new thing of each category, as the table names it: the words of CATEGORY_FACTORS' `typical`
 * (src/shared/impact.ts), here so they can be read in every language.
 */
export const TYPICAL_ITEMS: Record<Category, MessageDescriptor> = {
  clothing: msg`a jacket, dress or costume`,
  tools: msg`a power tool, ladder or tool set`,
  books: msg`a textbook`,
  kitchen: msg`a small appliance or cookware`,
  professional: msg`a suit, blazer or graduation gown`,
  electronics: msg`a calculator, speaker, projector or console`,
  furniture: msg`a lamp, desk riser, chair or folding table`,
  other: msg`sports, camping, music or hobby gear`,
};

/** The materials of MATERIAL_FACTORS, named. */
const MATERIAL_NAMES: Record<Material, MessageDescriptor> = {
  steel: msg`steel`,
  aluminium: msg`aluminium`,
  plastic: msg`plastic`,
  textile: msg`textile`,
  paper: msg`paper`,
  wood: msg`wood`,
  electronics: msg`electronics`,
};

const kgText = (kg: number) => `${kg.toLocaleString(intlLocale(), { maximumFractionDigits: 1 })} kg`;

export function ImpactAssumptions() {
  const { t, i18n } = useLingui();
  const half =
    PURCHASE_AVOIDANCE === 0.5
      ? t`half`
      : `${(PURCHASE_AVOIDANCE * 100).toLocaleString(intlLocale(), { maximumFractionDigits: 1 })}%`;
  const factor = PURCHASE_AVOIDANCE.toLocaleString(intlLocale());
  const materialFactors = Object.entries(MATERIAL_FACTORS)
    .map(
      ([material, kgPerKg]) =>
        `${i18n._(MATERIAL_NAMES[material as Material])} ${kgPerKg.toLocaleString(intlLocale())}`,
    )
    .join(', ');
  return (
    <section aria-labelledby="assumptions-heading" id="how-we-count">
      <h2 id="assumptions-heading" className="text-2xl font-bold text-ink">
        <Trans>How we count</Trans>
      </h2>
      <Card className="mt-4 p-6">
        <ul className="list-disc space-y-2 ps-5 text-ink">
          <li>
            <Trans>A borrow counts once, when the item is marked returned.</Trans>
          </li>
          <li>
            <Trans>
              Not every borrow stops someone buying: surveys of borrowers suggest about {half} do. So each
              borrow counts for {half} of what buying new would have cost, emitted and later thrown away.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Money saved</strong> is {half} of a typical new price for the item's category, less the
              rental fee paid. Deposits come back, so they are not a cost.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>CO₂ saved</strong> is {half} of the emissions of making a typical new item of the
              category, worked out from what it is made of.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Waste reduced</strong> is {half} of the typical item's weight: what would one day have
              been thrown away.
            </Trans>
          </li>
          <li>
            <Trans>
              These are estimates for a typical item of each category, not measurements of your item. Use them
              to see the size of the difference sharing makes, not as exact figures.
            </Trans>
          </li>
        </ul>
        <details className="mt-5 rounded-xl border border-line p-4">
          <summary className="cursor-pointer font-semibold text-brand-800">
            <Trans>The method and every factor</Trans>
          </summary>
          <p className="mt-3 text-sm text-muted">
            <Trans>
              For each returned borrow: money = {factor} × (new price − rental fee, never below 0); CO₂e ={' '}
              {factor} × (Σ material weight × material factor); waste = {factor} × weight.
            </Trans>
          </p>
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[36rem] text-start text-sm">
              <caption className="sr-only">
                <Trans>A typical new item per category</Trans>
              </caption>
              <thead className="text-muted">
                <tr>
                  <th scope="col" className="py-2 pe-3 font-semibold">
                    <Trans>Category</Trans>
                  </th>
                  <th scope="col" className="py-2 pe-3 font-semibold">
                    <Trans>Typical item</Trans>
                  </th>
                  <th scope="col" className="py-2 pe-3 font-semibold">
                    <Trans>New price</Trans>
                  </th>
                  <th scope="col" className="py-2 pe-3 font-semibold">
                    <Trans>Weight</Trans>
                  </th>
                  <th scope="col" className="py-2 font-semibold">
                    <Trans>CO₂e to make</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {CATEGORIES.map((category) => (
                  <tr key={category} className="border-t border-line">
                    <th scope="row" className="py-2 pe-3 font-semibold text-ink">
                      {i18n._(CATEGORY_MESSAGES[category])}
                    </th>
                    <td className="py-2 pe-3">{i18n._(TYPICAL_ITEMS[category])}</td>
                    <td className="py-2 pe-3">{formatMoney(CATEGORY_FACTORS[category].newPriceCents)}</td>
                    <td className="py-2 pe-3">{kgText(massKg(category))}</td>
                    <td className="py-2">{kgText(embodiedCo2Kg(category))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="mt-3 text-sm text-muted">
            <Trans>
              Material factors, kg CO₂e per kg: {materialFactors}. Rounded values in the range of the ICE
              database (University of Bath) and the UK government's greenhouse gas conversion factors.
            </Trans>
          </p>
          <ul className="mt-3 space-y-1 text-sm">
            {SOURCES.map((source) => (
              <li key={source.href}>
                <a
                  href={source.href}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-1 font-semibold text-brand-800 underline-offset-4 hover:underline"
                >
                  {source.name}
                  <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
                  <span className="sr-only">
                    <Trans>(opens in a new tab)</Trans>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </details>
      </Card>
    </section>
  );
}
