import { ExternalLink } from 'lucide-react';
import { CATEGORIES, CATEGORY_LABELS } from '#shared/constants.ts';
import { formatMoney } from '#shared/format.ts';
import {
  CATEGORY_FACTORS,
  embodiedCo2Kg,
  MATERIAL_FACTORS,
  massKg,
  PURCHASE_AVOIDANCE,
} from '#shared/impact.ts';
import { Card } from '../../../components/ui/card.tsx';

// The dashboard states its assumptions in plain words, then the method with every factor, read from
// the same module the server counts with (docs/impact-methodology.md has the sources in full).

const SOURCES = [
  {
    name: 'Library of Things: how we calculate our impact (2024 update)',
    href: 'https://www.libraryofthings.co.uk/blog/how-we-calculate-our-impact-2024-update',
  },
  {
    name: 'Edinburgh Tool Library: carbon data for sharing libraries',
    href: 'https://edinburghtoollibrary.org.uk/carbon-data-for-sharing-libraries',
  },
];

const kgText = (kg: number) => `${kg.toLocaleString('en-US', { maximumFractionDigits: 1 })} kg`;
const half = PURCHASE_AVOIDANCE === 0.5 ? 'half' : `${PURCHASE_AVOIDANCE * 100}%`;

export function ImpactAssumptions() {
  return (
    <section aria-labelledby="assumptions-heading" id="how-we-count">
      <h2 id="assumptions-heading" className="text-2xl font-bold text-ink">
        How we count
      </h2>
      <Card className="mt-4 p-6">
        <ul className="list-disc space-y-2 ps-5 text-ink">
          <li>A borrow counts once, when the item is marked returned.</li>
          <li>
            Not every borrow stops someone buying: surveys of borrowers suggest about {half} do. So each
            borrow counts for {half} of what buying new would have cost, emitted and later thrown away.
          </li>
          <li>
            <strong>Money saved</strong> is {half} of a typical new price for the item's category, less the
            rental fee paid. Deposits come back, so they are not a cost.
          </li>
          <li>
            <strong>CO₂ saved</strong> is {half} of the emissions of making a typical new item of the
            category, worked out from what it is made of.
          </li>
          <li>
            <strong>Waste reduced</strong> is {half} of the typical item's weight: what would one day have
            been thrown away.
          </li>
          <li>
            These are estimates for a typical item of each category, not measurements of your item. Use them
            to see the size of the difference sharing makes, not as exact figures.
          </li>
        </ul>
        <details className="mt-5 rounded-xl border border-line p-4">
          <summary className="cursor-pointer font-semibold text-brand-800">
            The method and every factor
          </summary>
          <p className="mt-3 text-sm text-muted">
            For each returned borrow: money = {PURCHASE_AVOIDANCE} × (new price − rental fee, never below 0);
            CO₂e = {PURCHASE_AVOIDANCE} × (Σ material weight × material factor); waste = {PURCHASE_AVOIDANCE}{' '}
            × weight.
          </p>
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[36rem] text-start text-sm">
              <caption className="sr-only">A typical new item per category</caption>
              <thead className="text-muted">
                <tr>
                  <th scope="col" className="py-2 pe-3 font-semibold">
                    Category
                  </th>
                  <th scope="col" className="py-2 pe-3 font-semibold">
                    Typical item
                  </th>
                  <th scope="col" className="py-2 pe-3 font-semibold">
                    New price
                  </th>
                  <th scope="col" className="py-2 pe-3 font-semibold">
                    Weight
                  </th>
                  <th scope="col" className="py-2 font-semibold">
                    CO₂e to make
                  </th>
                </tr>
              </thead>
              <tbody>
                {CATEGORIES.map((category) => (
                  <tr key={category} className="border-t border-line">
                    <th scope="row" className="py-2 pe-3 font-semibold text-ink">
                      {CATEGORY_LABELS[category]}
                    </th>
                    <td className="py-2 pe-3">{CATEGORY_FACTORS[category].typical}</td>
                    <td className="py-2 pe-3">{formatMoney(CATEGORY_FACTORS[category].newPriceCents)}</td>
                    <td className="py-2 pe-3">{kgText(massKg(category))}</td>
                    <td className="py-2">{kgText(embodiedCo2Kg(category))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="mt-3 text-sm text-muted">
            Material factors, kg CO₂e per kg:{' '}
            {Object.entries(MATERIAL_FACTORS)
              .map(([material, factor]) => `${material} ${factor}`)
              .join(', ')}
            . Rounded values in the range of the ICE database (University of Bath) and the UK government's
            greenhouse gas conversion factors.
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
                  <span className="sr-only">(opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </details>
      </Card>
    </section>
  );
}
