import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The messages of a language's PO catalogues that have no translation: the language check of
// `npm run lint` (check-strings.ts) and the Spanish route walk's list of what must not show.

export interface CatalogueEntry {
  catalogue: string;
  msgid: string;
  msgstr: string;
}

/** PO strings: "…" pieces on following lines are one string; \" and \n are escapes. */
function poString(lines: string[], start: number, keyword: string): { value: string; next: number } {
  let i = start;
  let value = JSON.parse(lines[i]!.slice(keyword.length + 1)) as string;
  while (lines[i + 1]?.startsWith('"')) {
    i += 1;
    value += JSON.parse(lines[i]!) as string;
  }
  return { value, next: i + 1 };
}

/** Every live entry (obsolete `#~` ones left out) of the PO files in `dir/locale`. */
export function catalogueEntries(dir: string, locale: string): CatalogueEntry[] {
  const entries: CatalogueEntry[] = [];
  const folder = path.join(dir, locale);
  for (const name of readdirSync(folder).filter((f) => f.endsWith('.po'))) {
    const lines = readFileSync(path.join(folder, name), 'utf8').split('\n');
    let i = 0;
    while (i < lines.length) {
      const line = lines[i]!;
      if (line.startsWith('msgid ')) {
        const id = poString(lines, i, 'msgid');
        if (!lines[id.next]?.startsWith('msgstr ')) {
          i = id.next;
          continue;
        }
        const str = poString(lines, id.next, 'msgstr');
        if (id.value) entries.push({ catalogue: `${locale}/${name}`, msgid: id.value, msgstr: str.value });
        i = str.next;
      } else {
        i += 1;
      }
    }
  }
  return entries;
}

export function untranslated(dir: string, locale: string): CatalogueEntry[] {
  return catalogueEntries(dir, locale).filter((entry) => !entry.msgstr.trim());
}
