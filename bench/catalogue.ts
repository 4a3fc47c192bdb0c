import {
  CATEGORIES,
  type Category,
  type Condition,
  type PickupMethod,
  type RentalPeriod,
} from '#shared/constants.ts';
import { CONDITION_OPENINGS, HANDOVER_NOTES, PRODUCT_LINES, type ProductLine } from './catalogue-words.ts';

// The bench catalogue: listing number n, always the same for the same n, combined from the word lists
// (product line, brand, model, edition, size, colour, kit), so 10,000 listings have thousands of
// distinct titles and 500,000 have as many as a real marketplace would repeat.

export interface Listing {
  line: ProductLine;
  title: string;
  description: string;
  category: Category;
  condition: Condition;
  priceCents: number | null;
  period: RentalPeriod | null;
  depositCents: number | null;
  pickup: PickupMethod;
  /** Weekdays it can be picked up and returned, 0 = Sunday. */
  days: number[];
}

/** A well-mixed 32-bit hash of (n, salt): each listing's choices are independent of each other. */
export function mix(n: number, salt: number): number {
  let h = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 0x632be5ab, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
const unit = (n: number, salt: number) => mix(n, salt) / 2 ** 32;
const pick = <T>(list: readonly T[], n: number, salt: number): T => list[mix(n, salt) % list.length]!;

/** Share of listings per category: textbooks and electronics are what students lend most. */
const CATEGORY_WEIGHTS: Record<Category, number> = {
  books: 18,
  electronics: 17,
  kitchen: 13,
  tools: 11,
  furniture: 11,
  clothing: 11,
  other: 11,
  professional: 8,
};

/** Cumulative weights of the product lines: a category's weight shared by its lines. */
const LINE_CUMULATIVE = (() => {
  const perCategory = new Map<Category, number>();
  for (const line of PRODUCT_LINES) perCategory.set(line.category, (perCategory.get(line.category) ?? 0) + 1);
  const total = CATEGORIES.reduce((s, c) => s + (perCategory.has(c) ? CATEGORY_WEIGHTS[c] : 0), 0);
  let at = 0;
  return PRODUCT_LINES.map((line) => {
    at += CATEGORY_WEIGHTS[line.category] / perCategory.get(line.category)! / total;
    return at;
  });
})();

/** The first listings are one of each product line, so even a tiny test campus has every kind of thing. */
function lineOf(n: number): ProductLine {
  if (n >= 1 && n <= PRODUCT_LINES.length) return PRODUCT_LINES[n - 1]!;
  const u = unit(n, 1);
  let lo = 0;
  let hi = LINE_CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (LINE_CUMULATIVE[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return PRODUCT_LINES[lo]!;
}

const CONDITIONS_WEIGHTED: readonly Condition[] = [
  ...Array<Condition>(8).fill('new'),
  ...Array<Condition>(25).fill('like-new'),
  ...Array<Condition>(37).fill('good'),
  ...Array<Condition>(18).fill('fair'),
  ...Array<Condition>(12).fill('worn'),
];

const NOUN_SENTENCES = [
  'Lending my {noun}.',
  'My {noun}, free most weeks.',
  'Up for grabs: my {noun}.',
  'Borrow my {noun} instead of buying one.',
  '',
];

/** What lenders add to a title on any marketplace; most titles have none. */
const TITLE_NOTES = [
  ...Array<string>(12).fill(''),
  ' (like new)',
  ' - pick up today',
  ' (barely used)',
  ' for the quarter',
  ' - great for dorms',
  ' - weekends only',
  ' near campus',
  ' for finals week',
];

const WEEKDAYS = [1, 2, 3, 4, 5];
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
/** Friday to Sunday: trips, parties and tournaments. */
const WEEKENDS = [0, 5, 6];

/** Dollars to cents, on a 50-cent step as people price things. */
const halfDollars = (dollars: number) => Math.max(50, Math.round(dollars * 2) * 50);

export function titleOf(line: ProductLine, n: number): string {
  return baseTitle(line, n) + pick(TITLE_NOTES, n, 18);
}

function baseTitle(line: ProductLine, n: number): string {
  const brand = pick(Object.keys(line.makes), n, 2);
  const model = pick(line.makes[brand]!, n, 3);
  const variant = line.variants ? pick(line.variants, n, 4) : '';
  const size = line.sizes ? pick(line.sizes, n, 5) : '';
  const colour = line.colours ? pick(line.colours, n, 6) : '';
  const extra = line.extras ? pick(line.extras, n, 7) : '';
  if (line.shape === 'book') return `${model}, ${variant} (${brand})${extra}`;
  const name = [brand, model, line.noun].filter(Boolean).join(' ');
  if (line.shape === 'garment') {
    return `${name}${variant}${extra}, size ${size}${colour ? `, ${colour}` : ''}`;
  }
  return `${name}${variant}${extra}${colour ? `, ${colour}` : ''}`;
}

export function listingAt(n: number): Listing {
  const line = lineOf(n);
  const condition = pick(CONDITIONS_WEIGHTED, n, 8);
  const first = mix(n, 9) % line.details.length;
  const second = (first + 1 + (mix(n, 10) % Math.max(1, line.details.length - 1))) % line.details.length;
  const description = [
    pick(CONDITION_OPENINGS[condition]!, n, 11),
    pick(NOUN_SENTENCES, n, 12).replace('{noun}', line.noun),
    line.details[first],
    second === first ? '' : line.details[second],
    pick(HANDOVER_NOTES, n, 13),
  ]
    .filter(Boolean)
    .join(' ');
  const { price } = line;
  const free = unit(n, 14) < price.free;
  const priceCents = free ? null : halfDollars(price.min + unit(n, 15) * (price.max - price.min));
  // Lenders of costly things ask a deposit, most of the time; a few do even when lending for free.
  const asksDeposit = price.deposit !== undefined && unit(n, 16) < (free ? 0.2 : 0.7);
  const depositCents =
    asksDeposit && price.deposit
      ? Math.round((price.deposit[0] + unit(n, 17) * (price.deposit[1] - price.deposit[0])) / 5) * 500
      : null;
  const days =
    n % 9 === 0
      ? WEEKDAYS
      : line.days === 'weekends'
        ? WEEKENDS
        : line.days === 'weekdays'
          ? WEEKDAYS
          : EVERY_DAY;
  return {
    line,
    title: titleOf(line, n),
    description,
    category: line.category,
    condition,
    priceCents,
    period: priceCents === null ? null : price.period,
    depositCents,
    pickup: line.pickup ?? 'meetup',
    days,
  };
}
