import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { University, UniversityGroup } from '#shared/schemas/universities.ts';
import { serverDir } from '../../server-dir.ts';
import { STATE_NAMES } from './states.ts';

// The US university directory (data/us-universities.json, sources in its SOURCE.md): search for the
// register page's selector and e-mail-domain detection (spec §2 Register, §9).

interface Entry {
  name: string;
  state: string;
  city: string;
  aliases: string[];
  domains: string[];
}

interface Indexed extends University {
  /** Lower-cased, accent-free name, aliases, city, state code and state name, for matching. */
  nameKey: string;
  aliasKeys: string[];
  cityKey: string;
  stateKeys: string[];
}

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

const raw: Entry[] = JSON.parse(readFileSync(path.join(serverDir, 'data', 'us-universities.json'), 'utf8'));

/**
 * A university's campus domain: its website host, except that a web subdomain such as web.mit.edu gives
 * way to the parent (mit.edu) the entry also lists, unless that parent is another entry's own campus
 * (abington.psu.edu stays apart from psu.edu).
 */
const websiteHosts = new Set(raw.map((e) => e.domains[0]));

function primaryDomain(e: Entry): string {
  const first = e.domains[0]!;
  const parent = e.domains.find((d) => d !== first && first.endsWith(`.${d}`));
  return parent && !websiteHosts.has(parent) ? parent : first;
}

/** domain → entries that list it (any position), for detection from an e-mail address. */
const byDomain = new Map<string, Indexed[]>();

// Entries without a domain cannot be anyone's campus, so the selector does not offer them.
const entries: Indexed[] = raw
  .filter((e) => e.domains.length > 0)
  .map((e) => {
    const indexed: Indexed = {
      name: e.name,
      state: e.state,
      city: e.city,
      domain: primaryDomain(e),
      nameKey: fold(e.name),
      aliasKeys: e.aliases.map(fold),
      cityKey: fold(e.city),
      stateKeys: [e.state.toLowerCase(), fold(STATE_NAMES[e.state] ?? e.state)],
    };
    for (const d of e.domains) byDomain.set(d, [...(byDomain.get(d) ?? []), indexed]);
    return indexed;
  })
  .sort((a, b) => a.name.localeCompare(b.name));

/** primary domain → entries whose campus it is. */
const byPrimary = new Map<string, Indexed[]>();
for (const e of entries) {
  const list = byPrimary.get(e.domain) ?? [];
  list.push(e);
  byPrimary.set(e.domain, list);
}

const toUniversity = ({ name, state, city, domain }: Indexed): University => ({ name, state, city, domain });

/** Lower is better; undefined means no match. */
function rank(e: Indexed, q: string): number | undefined {
  if (e.nameKey === q || e.aliasKeys.includes(q)) return 0;
  if (e.nameKey.startsWith(q)) return 1;
  if (e.aliasKeys.some((a) => a.startsWith(q))) return 2;
  if (` ${e.nameKey}`.includes(` ${q}`)) return 3;
  if (e.stateKeys.includes(q) || e.cityKey === q) return 4;
  if (e.nameKey.includes(q) || e.aliasKeys.some((a) => a.includes(q))) return 5;
  if (e.cityKey.startsWith(q) || e.stateKeys[1]!.startsWith(q)) return 6;
  // Every word of a longer query somewhere in the entry ("stanford ca", "state university texas").
  const words = q.split(' ');
  if (words.length > 1) {
    const hay = `${e.nameKey} ${e.aliasKeys.join(' ')} ${e.cityKey} ${e.stateKeys.join(' ')}`;
    if (words.every((w) => ` ${hay}`.includes(` ${w}`))) return 7;
  }
  return undefined;
}

function group(list: Indexed[]): UniversityGroup[] {
  const groups = new Map<string, UniversityGroup>();
  for (const e of list) {
    let g = groups.get(e.state);
    if (!g) {
      g = { state: e.state, stateName: STATE_NAMES[e.state] ?? e.state, universities: [] };
      groups.set(e.state, g);
    }
    g.universities.push(toUniversity(e));
  }
  return [...groups.values()];
}

/**
 * Spec §9: 20 entries when the query is shorter than 2 characters, else at most 50 matches on name,
 * alias, state or city; grouped by state, groups in order of their best match.
 */
export function searchUniversities(query: string, limits = { default: 20, max: 50 }) {
  const q = fold(query);
  if (q.length < 2) {
    const first = entries.slice(0, limits.default);
    return { groups: group(first), total: first.length };
  }
  const matches: { e: Indexed; r: number }[] = [];
  for (const e of entries) {
    const r = rank(e, q);
    if (r !== undefined) matches.push({ e, r });
  }
  matches.sort((a, b) => a.r - b.r || a.e.name.localeCompare(b.e.name));
  const top = matches.slice(0, limits.max).map((m) => m.e);
  return { groups: group(top), total: top.length };
}

/**
 * Finds the university of an e-mail address by walking up the domain's labels
 * (cs.stanford.edu → stanford.edu), as the directory's notes advise.
 */
export function detectUniversity(email: string): { university: University | null; candidates: University[] } {
  const domain = email.trim().toLowerCase().split('@')[1];
  if (!domain) return { university: null, candidates: [] };
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const found = byDomain.get(labels.slice(i).join('.'));
    if (found?.length) {
      // Prefer the entry whose campus is exactly this domain (the main campus of a system).
      const candidates = [...found].sort(
        (a, b) =>
          Number(b.domain === labels.slice(i).join('.')) - Number(a.domain === labels.slice(i).join('.')),
      );
      return { university: toUniversity(candidates[0]!), candidates: candidates.map(toUniversity) };
    }
  }
  return { university: null, candidates: [] };
}

export function isKnownCampus(domain: string): boolean {
  return byPrimary.has(domain.toLowerCase());
}

/**
 * The name screens show for a campus domain. Where several campuses of one chain share a domain,
 * the words their names have in common ("Fortis College") stand for all of them.
 */
export function campusName(domain: string): string {
  const list = byPrimary.get(domain);
  if (!list?.length) return domain;
  const withoutMain = (name: string) => name.replace(/-\s*main campus$/i, '').trim();
  if (list.length === 1) return withoutMain(list[0]!.name);
  const main = list.find((e) => /-\s*main campus$/i.test(e.name));
  if (main) return withoutMain(main.name);
  const split = list.map((e) => e.name.split(/(?=[\s-])/));
  const common: string[] = [];
  for (let i = 0; i < split[0]!.length; i++) {
    const word = split[0]![i]!;
    if (split.every((w) => w[i] === word)) common.push(word);
    else break;
  }
  const prefix = common
    .join('')
    .replace(/[\s-]+$/, '')
    .trim();
  return prefix.length >= 4 ? prefix : list[0]!.name;
}
