import { Leaf, type LucideIcon, Package, PiggyBank, Recycle } from 'lucide-react';
import { formatCo2Tons, formatMoneySaved, formatWasteLbs } from '#shared/format.ts';
import type { ImpactFigures } from '#shared/schemas/impact.ts';

// Spec §3 Impact: the four figures every impact screen shows, displayed as spec §9 says.

export interface ImpactStat {
  key: keyof ImpactFigures;
  label: string;
  /** What the number means, in plain words. */
  detail: string;
  icon: LucideIcon;
  value: (figures: ImpactFigures) => string;
}

export const IMPACT_STATS: ImpactStat[] = [
  {
    key: 'itemsShared',
    label: 'Items shared',
    detail: 'borrows returned',
    icon: Package,
    value: (f) => f.itemsShared.toLocaleString('en-US'),
  },
  {
    key: 'moneySaved',
    label: 'Money saved',
    detail: 'not spent on buying new',
    icon: PiggyBank,
    value: (f) => formatMoneySaved(f.moneySaved),
  },
  {
    key: 'co2Saved',
    label: 'CO₂ saved',
    detail: 'tons not emitted making new things',
    icon: Leaf,
    value: (f) => formatCo2Tons(f.co2Saved),
  },
  {
    key: 'wasteReduced',
    label: 'Waste reduced',
    detail: 'kept out of landfill',
    icon: Recycle,
    value: (f) => formatWasteLbs(f.wasteReduced),
  },
];
