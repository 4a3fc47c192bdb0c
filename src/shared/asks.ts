import type { Category } from './constants.ts';

// "Ask your campus": the rules both sides share. An ask is what a student needs, for which days, and the
// most they would pay; a listing matches it when a neighbour could lend exactly that.

export const ASK_STATUSES = ['open', 'closed'] as const;
export type AskStatus = (typeof ASK_STATUSES)[number];

/** Why an ask closed: its author closed it, or a reservation made from one of its offers was approved. */
export const ASK_CLOSE_REASONS = ['author', 'reserved'] as const;
export type AskCloseReason = (typeof ASK_CLOSE_REASONS)[number];

export const ASK_LIMITS = {
  /** Open asks a person may have at once: enough for a move-in, too few to flood the board. */
  openPerPerson: 5,
  titleMax: 120,
  noteMax: 1000,
  /** Asks a person may post in an hour. */
  perHour: 10,
  /** How far ahead an ask may start: the board is for what people need soon. */
  daysAhead: 180,
  /** The longest stretch an ask may cover. */
  longestDays: 90,
} as const;

const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'from',
  'need',
  'needs',
  'some',
  'one',
  'any',
  'who',
  'has',
  'have',
  'can',
  'borrow',
  'lend',
  'anyone',
  'tonight',
  'today',
  'tomorrow',
  'please',
  'would',
  'like',
  'que',
  'una',
  'uno',
  'para',
  'con',
  'los',
  'las',
  'del',
  'por',
  'alguien',
  'necesito',
]);

/**
 * The words that say what a text is about: lower case, accents dropped, at least three letters, small
 * words left out, and a plural's "s" taken off so "drills" meets "drill".
 */
export function meaningfulWords(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3 && !STOP_WORDS.has(word))
    .map((word) =>
      word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );
  return [...new Set(words)];
}

export interface AskToMatch {
  campus: string;
  category: Category;
  title: string;
  startDate: string;
  endDate: string;
  /** 0: free only. */
  maxPriceCents: number;
}

export interface ListingToMatch {
  campus: string;
  category: string;
  title: string;
  description: string;
  /** Null or 0: free. */
  rentalPriceCents: number | null;
  availableFrom: string;
  availableUntil: string | null;
  isAvailable: boolean;
}

/**
 * Whether a listing answers an ask: same campus and category, a word of the ask's title in the
 * listing's title or description, a price within what the asker would pay (a listing's price is
 * compared as written, whatever its period, as Browse's max-price filter does), and offered for the
 * whole of the ask's days.
 */
export function listingMatchesAsk(ask: AskToMatch, listing: ListingToMatch): boolean {
  if (ask.campus !== listing.campus || ask.category !== listing.category || !listing.isAvailable)
    return false;
  if ((listing.rentalPriceCents ?? 0) > ask.maxPriceCents) return false;
  if (listing.availableFrom > ask.startDate) return false;
  if (listing.availableUntil !== null && listing.availableUntil < ask.endDate) return false;
  const offered = new Set(meaningfulWords(`${listing.title} ${listing.description}`));
  return meaningfulWords(ask.title).some((word) => offered.has(word));
}

/**
 * Words that name what may never be lent or borrowed on CampusLoop (the Safety Guidelines' prohibited
 * items: weapons, illegal substances, hazardous materials, fake documents). Whole words only, so a
 * "gunmetal lamp" or a "pot" for the kitchen stays allowed.
 */
const PROHIBITED_WORDS = new Set([
  'gun',
  'guns',
  'firearm',
  'firearms',
  'pistol',
  'pistols',
  'rifle',
  'rifles',
  'shotgun',
  'revolver',
  'ammo',
  'ammunition',
  'bullets',
  'explosive',
  'explosives',
  'fireworks',
  'grenade',
  'taser',
  'tasers',
  'cocaine',
  'heroin',
  'meth',
  'methamphetamine',
  'lsd',
  'mdma',
  'ecstasy',
  'marijuana',
  'cannabis',
  'weed',
  'edibles',
  'fentanyl',
  'counterfeit',
  'stolen',
  'pistola',
  'rifle',
  'municion',
  'explosivos',
  'droga',
  'drogas',
  'marihuana',
]);

/** Whether a text names a prohibited item (for asks; `fake id` is two words, so it is looked for apart). */
export function namesProhibitedItem(text: string): boolean {
  const plain = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  if (/\bfake\s+ids?\b/.test(plain)) return true;
  return plain.split(/[^\p{L}\p{N}]+/u).some((word) => PROHIBITED_WORDS.has(word));
}
