import { mix } from './catalogue.ts';
import { PRODUCT_LINES } from './catalogue-words.ts';

// What students type into search on a campus day, built from the catalogue's own words: the things
// ("drill", "mini fridge"), brands, models, book titles and authors, two-word phrases ("bosch drill",
// "white shelf", "calculus 8th edition"), and typos of all of them (a dropped, swapped or mistyped
// letter). The list is ordered by popularity: generic things first, model numbers last, each typo
// not far behind what it misspells, so a Zipf draw over the ranks asks the popular ones most.

/** The least the campus-day scenarios ask. */
export const MIN_DISTINCT_SEARCHES = 3000;

/** As people type it: lower case, without the punctuation of titles. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[:,()+]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const STOPWORDS = new Set(
  'a an and the of to for in on with its his her their from by at as into set introduction principles'.split(
    ' ',
  ),
);

/** Keys next to each key on a QWERTY keyboard: the letter a slipping finger types instead. */
const NEIGHBOURS: Record<string, string> = {
  a: 'qwsz',
  b: 'vghn',
  c: 'xdfv',
  d: 'serfcx',
  e: 'wsdr',
  f: 'drtgvc',
  g: 'ftyhbv',
  h: 'gyujnb',
  i: 'ujko',
  j: 'huikmn',
  k: 'jiolm',
  l: 'kop',
  m: 'njk',
  n: 'bhjm',
  o: 'iklp',
  p: 'ol',
  q: 'wa',
  r: 'edft',
  s: 'awedxz',
  t: 'rfgy',
  u: 'yhji',
  v: 'cfgb',
  w: 'qase',
  x: 'zsdc',
  y: 'tghu',
  z: 'asx',
};

/**
 * One typo in the query's longest word (of 4 letters or more): a letter dropped, two swapped, or one
 * replaced by a neighbouring key, never the first letter (people rarely miss that one). Undefined
 * when the query has no such word.
 */
export function typo(query: string, seed: number): string | undefined {
  const words = query.split(' ');
  let at = -1;
  for (const [i, w] of words.entries()) {
    if (/^[a-z]{4,}$/.test(w) && (at < 0 || w.length > words[at]!.length)) at = i;
  }
  if (at < 0) return undefined;
  const word = words[at]!;
  const p = 1 + (mix(seed, 21) % (word.length - 1));
  let changed: string;
  switch (mix(seed, 22) % 3) {
    case 0:
      changed = word.slice(0, p) + word.slice(p + 1);
      break;
    case 1: {
      const q = Math.min(p, word.length - 2);
      changed = word.slice(0, q) + word[q + 1] + word[q] + word.slice(q + 2);
      break;
    }
    default: {
      const keys = NEIGHBOURS[word[p]!] ?? 'e';
      changed = word.slice(0, p) + keys[mix(seed, 23) % keys.length] + word.slice(p + 1);
    }
  }
  if (changed === word) return undefined;
  words[at] = changed;
  return words.join(' ');
}

const significantWords = (text: string) =>
  normalise(text)
    .split(' ')
    .filter((w) => w.length >= 4 && /^[a-z]+$/.test(w) && !STOPWORDS.has(w));

/**
 * The campus's searches, most popular first, at least MIN_DISTINCT_SEARCHES of them. `typoShare` of
 * them are misspellings.
 */
export function campusSearches(options: { typoShare?: number } = {}): string[] {
  const typoShare = options.typoShare ?? 0.25;
  // Each query keeps its best popularity score: the same words can come from several product lines.
  const score = new Map<string, number>();
  let n = 0;
  const add = (query: string, weight: number) => {
    const q = normalise(query);
    if (q.length < 2) return;
    // Jitter within a tier, so tiers overlap the way real interests do.
    const s = weight * (0.4 + 0.6 * (mix(n++, 20) / 2 ** 32));
    if ((score.get(q) ?? 0) < s) score.set(q, s);
  };

  for (const line of PRODUCT_LINES) {
    const head = line.noun.split(' ').at(-1)!;
    add(line.noun, 100);
    add(head, 80);
    for (const [brand, models] of Object.entries(line.makes)) {
      if (line.shape === 'book') {
        // Brand is the author, models are titles.
        add(brand, 12);
        for (const title of models) {
          const words = significantWords(title);
          const main = normalise(title.split(':')[0]!);
          add(main, 60);
          add(title, 20);
          for (const w of words) add(w, 25);
          add(`${brand} ${words[0] ?? main}`, 15);
          add(`${brand} ${main}`, 10);
          for (const edition of line.variants ?? []) add(`${main} ${edition}`, 3);
        }
        continue;
      }
      if (brand) {
        add(brand, 30);
        add(`${brand} ${head}`, 15);
        add(`${brand} ${line.noun}`, 8);
      }
      for (const model of models) {
        add(model, 10);
        if (brand) add(`${brand} ${model}`, 4);
        add(`${model} ${head}`, 5);
        const first = model.split(' ')[0]!;
        if (first !== model && /[a-z]{3,}/i.test(first)) add(`${first} ${head}`, 6);
      }
    }
    for (const colour of line.colours ?? []) if (colour) add(`${colour} ${line.noun}`, 3);
    for (const colour of line.colours ?? []) if (colour) add(`${colour} ${head}`, 4);
    if (line.shape !== 'book') {
      for (const extra of line.extras ?? []) {
        const word = significantWords(extra).find((w) => w !== head);
        if (word) add(`${head} ${word}`, 2);
      }
    }
  }

  const ranked = [...score.entries()].sort((a, b) => b[1] - a[1]).map(([q]) => q);
  const correct = new Set(ranked);
  // Typos interleaved behind what they misspell: after every few correct queries, a misspelling of
  // one of the last twenty, so popular searches are also the most often misspelled.
  const out: string[] = [];
  const seen = new Set<string>();
  const every = Math.max(1, Math.round(1 / typoShare) - 1);
  for (const [i, q] of ranked.entries()) {
    if (!seen.has(q)) {
      seen.add(q);
      out.push(q);
    }
    if (i % every === every - 1) {
      for (let attempt = 0; attempt < 4; attempt++) {
        const source = ranked[i - (mix(i, 24 + attempt) % Math.min(i + 1, 20))] ?? q;
        const t = typo(source, i * 7 + attempt);
        if (t && !correct.has(t) && !seen.has(t)) {
          seen.add(t);
          out.push(t);
          break;
        }
      }
    }
  }
  if (out.length < MIN_DISTINCT_SEARCHES) {
    throw new Error(
      `the catalogue's words make only ${out.length} searches, fewer than ${MIN_DISTINCT_SEARCHES}`,
    );
  }
  return out;
}
