import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Leaf, type LucideIcon, Package, PiggyBank, Recycle } from 'lucide-react';
import { formatCo2, formatMoneySaved, formatWasteLbs, intlLocale } from '#shared/format.ts';
import type { ImpactFigures } from '#shared/schemas/impact.ts';

// Spec §3 Impact: the four figures every impact screen shows, displayed as spec §9 says.

export interface ImpactStat {
  key: keyof ImpactFigures;
  /** Shown with i18n._(label). */
  label: MessageDescriptor;
  /** What the number means, in plain words. */
  detail: MessageDescriptor;
  icon: LucideIcon;
  value: (figures: ImpactFigures) => string;
}

export const IMPACT_STATS: ImpactStat[] = [
  {
    key: 'itemsShared',
    label: msg`Items shared`,
    detail: msg`borrows returned`,
    icon: Package,
    value: (f) => f.itemsShared.toLocaleString(intlLocale()),
  },
  {
    key: 'moneySaved',
    label: msg`Money saved`,
    detail: msg`not spent on buying new`,
    icon: PiggyBank,
    value: (f) => formatMoneySaved(f.moneySaved),
  },
  {
    key: 'co2Saved',
    label: msg`CO₂ saved`,
    detail: msg`not emitted making new things`,
    icon: Leaf,
    value: (f) => formatCo2(f.co2Saved),
  },
  {
    key: 'wasteReduced',
    label: msg`Waste reduced`,
    detail: msg`kept out of landfill`,
    icon: Recycle,
    value: (f) => formatWasteLbs(f.wasteReduced),
  },
];
