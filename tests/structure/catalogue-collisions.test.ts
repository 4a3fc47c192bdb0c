import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Lingui merges the Spanish catalogues into one table at run time, keyed by message and context: the
// same English in two catalogues with two different translations is one entry, and which Spanish shows
// depends on the order they were loaded. So one (context, message) has one translation everywhere; where
// the meaning differs by place, the message gets a context of its own.

const ES = path.join(import.meta.dirname, '../../src/shared/locales/es');

interface Entry {
  msgctxt: string;
  msgid: string;
  msgstr: string;
}

/** The live entries of a PO file (obsolete `#~` ones and the header left out). */
function entriesOf(po: string): Entry[] {
  const entries: Entry[] = [];
  let entry: Partial<Record<keyof Entry, string>> = {};
  let field: keyof Entry | undefined;
  const flush = () => {
    if (entry.msgid) entries.push({ msgctxt: '', msgstr: '', ...entry } as Entry);
    entry = {};
    field = undefined;
  };
  for (const line of po.split('\n')) {
    const start = /^(msgctxt|msgid|msgstr) (".*")$/.exec(line);
    if (start) {
      if (start[1] === 'msgctxt' || (start[1] === 'msgid' && entry.msgid !== undefined)) flush();
      field = start[1] as keyof Entry;
      entry[field] = JSON.parse(start[2]!) as string;
    } else if (field && line.startsWith('"')) {
      entry[field] += JSON.parse(line) as string;
    } else if (line.trim() === '') {
      flush();
    }
  }
  flush();
  return entries;
}

/** Each (context, message) translated differently in two catalogues, with the translations by catalogue. */
function collisions(catalogues: Record<string, string>) {
  const seen = new Map<string, Map<string, string[]>>();
  for (const [name, po] of Object.entries(catalogues)) {
    for (const { msgctxt, msgid, msgstr } of entriesOf(po)) {
      if (!msgstr) continue;
      const key = msgctxt ? `${msgctxt}\u0004${msgid}` : msgid;
      const byTranslation = seen.get(key) ?? new Map<string, string[]>();
      byTranslation.set(msgstr, [...(byTranslation.get(msgstr) ?? []), name]);
      seen.set(key, byTranslation);
    }
  }
  return [...seen]
    .filter(([, byTranslation]) => byTranslation.size > 1)
    .map(([key, byTranslation]) => ({
      message: key.replace('\u0004', ' | '),
      translations: Object.fromEntries(
        [...byTranslation].map(([msgstr, names]) => [names.join(', '), msgstr]),
      ),
    }));
}

describe('the Spanish catalogues', () => {
  it('give each message, in its context, one translation across catalogues', () => {
    const catalogues = Object.fromEntries(
      readdirSync(ES)
        .filter((file) => file.endsWith('.po'))
        .map((file) => [file, readFileSync(path.join(ES, file), 'utf8')]),
    );
    expect(Object.keys(catalogues).length).toBeGreaterThan(1);
    expect(collisions(catalogues)).toEqual([]);
  });

  it('catch one message translated two ways, and let contexts and agreeing catalogues through', () => {
    const a = [
      'msgid ""',
      'msgstr ""',
      '"Language: es\\n"',
      '',
      'msgid "Delete"',
      'msgstr "Eliminar"',
      '',
      'msgctxt "report reason"',
      'msgid "Other"',
      'msgstr "Otro"',
      '',
      'msgid ""',
      '"A long "',
      '"message"',
      'msgstr "Un mensaje "',
      '"largo"',
      '',
    ].join('\n');
    const b = [
      'msgid "Delete"',
      'msgstr "Borrar"',
      '',
      'msgctxt "category"',
      'msgid "Other"',
      'msgstr "Otros"',
      '',
      'msgid "A long message"',
      'msgstr "Un mensaje largo"',
      '',
      '#~ msgid "Gone"',
      '#~ msgstr "Ido"',
    ].join('\n');
    expect(collisions({ 'a.po': a, 'b.po': b })).toEqual([
      { message: 'Delete', translations: { 'a.po': 'Eliminar', 'b.po': 'Borrar' } },
    ]);
  });
});
