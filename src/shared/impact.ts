import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import './i18n.ts';
import type { Category } from './constants.ts';

// What one completed borrow saves, and the dashboard's fixed rules (spec §9). The method, the sources
// and a worked example are in docs/impact-methodology.md; the /impact page states the same
// assumptions in plain words. Server (the impact ledger) and web (the assumptions table) read this file.

/**
 * Share of borrows that stand in for a purchase. Library of Things (UK) found about half of its
 * borrows avoid buying the thing (its 2024 impact method, from its borrower survey). Only an avoided
 * purchase saves money, emissions and waste, so every saving below is multiplied by this share.
 */
export const PURCHASE_AVOIDANCE = 0.5;

/**
 * Cradle-to-gate emission factors, kg CO2e per kg of material: rounded working values in the range
 * the ICE database (University of Bath) and the UK government's GHG conversion factors (material use)
 * give. Combining them by what a thing is made of is the Edinburgh Tool Library's method.
 */
export const MATERIAL_FACTORS = {
  steel: 2.0,
  aluminium: 9.0,
  plastic: 3.0,
  /** Finished garments: fibre, spinning, weaving, dyeing and making up. */
  textile: 20.0,
  /** Printed and bound paper. */
  paper: 1.2,
  /** Processed timber and board, fossil emissions only. */
  wood: 0.6,
  /** Circuit boards, chips, screens and batteries, per kg of those parts. */
  electronics: 40.0,
} as const;
export type Material = keyof typeof MATERIAL_FACTORS;

export interface CategoryFactor {
  /** What a typical thing of the category is, in the words the dashboard shows. */
  typical: string;
  /** What that thing costs new in the US, in cents. */
  newPriceCents: number;
  /** Its mass and what it is made of, kg per material (the mass is their sum). */
  materials: Partial<Record<Material, number>>;
}

/** One typical new thing per category: its price, and its materials for mass and embodied CO2e. */
export const CATEGORY_FACTORS: Record<Category, CategoryFactor> = {
  clothing: { typical: 'a jacket, dress or costume', newPriceCents: 6000, materials: { textile: 0.8 } },
  tools: {
    typical: 'a power tool, ladder or tool set',
    newPriceCents: 9000,
    materials: { steel: 1.5, plastic: 0.8, electronics: 0.2 },
  },
  books: { typical: 'a textbook', newPriceCents: 8000, materials: { paper: 1.0 } },
  kitchen: {
    typical: 'a small appliance or cookware',
    newPriceCents: 6000,
    materials: { steel: 1.4, plastic: 0.9, electronics: 0.2 },
  },
  professional: {
    typical: 'a suit, blazer or graduation gown',
    newPriceCents: 15000,
    materials: { textile: 1.2 },
  },
  electronics: {
    typical: 'a calculator, speaker, projector or console',
    newPriceCents: 18000,
    materials: { electronics: 0.5, plastic: 0.4, aluminium: 0.2 },
  },
  furniture: {
    typical: 'a lamp, desk riser, chair or folding table',
    newPriceCents: 10000,
    materials: { wood: 5.0, steel: 3.0, plastic: 1.5, textile: 0.5 },
  },
  other: {
    typical: 'sports, camping, music or hobby gear',
    newPriceCents: 7000,
    materials: { plastic: 0.8, textile: 0.5, steel: 0.5, aluminium: 0.2 },
  },
};

/** The typical new thing's mass, kg. */
export function massKg(category: Category): number {
  return Object.values(CATEGORY_FACTORS[category].materials).reduce((sum, kg) => sum + kg, 0);
}

/** The typical new thing's embodied emissions, kg CO2e: Σ material mass × material factor. */
export function embodiedCo2Kg(category: Category): number {
  return Object.entries(CATEGORY_FACTORS[category].materials).reduce(
    (sum, [material, kg]) => sum + kg * MATERIAL_FACTORS[material as Material],
    0,
  );
}

export interface BorrowImpact {
  moneySavedCents: number;
  co2SavedGrams: number;
  wasteReducedGrams: number;
}

/**
 * The expected saving of one completed borrow (docs/impact-methodology.md):
 *   money = avoidance × max(0, new price − rental fee paid)
 *   CO2e  = avoidance × embodied CO2e of a new one
 *   waste = avoidance × mass of a new one (what would one day be thrown away)
 * The deposit is not a cost: it comes back on return.
 */
export function borrowImpact(category: Category, rentalFeeCents: number): BorrowImpact {
  const factor = CATEGORY_FACTORS[category];
  return {
    moneySavedCents: Math.round(PURCHASE_AVOIDANCE * Math.max(0, factor.newPriceCents - rentalFeeCents)),
    co2SavedGrams: Math.round(PURCHASE_AVOIDANCE * embodiedCo2Kg(category) * 1000),
    wasteReducedGrams: Math.round(PURCHASE_AVOIDANCE * massKg(category) * 1000),
  };
}

/** Spec §9: the campus's monthly sharing goal. */
export const MONTHLY_SHARING_GOAL = 500;

/** Spec §9: monthly progress toward the goal, in percent with one decimal, capped at 100. */
export function goalProgressPercent(itemsShared: number, goal = MONTHLY_SHARING_GOAL): number {
  return Math.min(100, Math.round((itemsShared / goal) * 1000) / 10);
}

/** Change from last month in whole percent; null when last month had nobody to compare with. */
export function changePercent(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 100);
}

export type AchievementMetric = 'itemsShared' | 'co2SavedKg' | 'members';

/** An achievement whose title and description are written in the active language when read. */
function achievement<const A extends { id: string; metric: AchievementMetric; threshold: number }>(
  a: A,
  title: MessageDescriptor,
  description: MessageDescriptor,
): A & { readonly title: string; readonly description: string } {
  return {
    ...a,
    get title() {
      return i18n._(title);
    },
    get description() {
      return i18n._(description);
    },
  };
}

/** Spec §9 Campus Achievements, unlocked by the campus's real figures. */
export const IMPACT_ACHIEVEMENTS = [
  achievement(
    { id: 'first-100', metric: 'itemsShared', threshold: 100 },
    msg`First 100`,
    msg`100 items shared on campus`,
  ),
  achievement(
    { id: 'green-campus', metric: 'co2SavedKg', threshold: 1000 },
    msg`Green Campus`,
    msg`1 ton of CO₂ saved`,
  ),
  achievement(
    { id: 'community-builder', metric: 'members', threshold: 100 },
    msg`Community Builder`,
    msg`100 community members`,
  ),
  achievement(
    { id: 'sustainability-champion', metric: 'itemsShared', threshold: 1000 },
    msg`Sustainability Champion`,
    msg`1,000 items shared on campus`,
  ),
] as const;
