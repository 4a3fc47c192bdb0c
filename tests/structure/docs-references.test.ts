import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The docs name files so that a reader can open them: a path that no longer exists sends them looking
// for something that moved or went away. Every backticked repository path and every relative link in
// README.md and docs/ must name a file or folder that is there. A path may be a pattern: `*` and `**`,
// `{a,b}`, an optional `(x)` and a placeholder such as `<domain>` each stand for what they say.

const root = path.resolve(import.meta.dirname, '../..');
const checkedRoots = ['src/', 'tests/', 'docs/', 'scripts/', 'bench/', 'lint/'];
const skipped = new Set(['node_modules', '.git']);
/** What a build or a run leaves at the root, never in git. */
const skippedAtRoot = new Set(['dist', 'data', 'test-results']);

/** Every file and folder of the repository, as paths from its root (folders end with '/'). */
async function repositoryPaths(): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string) => {
    for (const entry of await readdir(path.join(root, folder), { withFileTypes: true })) {
      if (skipped.has(entry.name) || (!folder && skippedAtRoot.has(entry.name))) continue;
      const relative = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        found.push(`${relative}/`);
        await walk(relative);
      } else found.push(relative);
    }
  };
  await walk('');
  return found;
}

/** The repository paths a Markdown text names: backticked ones, and relative link targets. */
function namedPaths(file: string, text: string): { path: string; line: number }[] {
  const named: { path: string; line: number }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, index) => {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    for (const [, span] of line.matchAll(/`([^`]+)`/g)) {
      const candidate = span!
        .trim()
        .split(/\s/)[0]!
        .replace(/[.,:;]+$/, '');
      if (checkedRoots.some((prefix) => candidate.startsWith(prefix)))
        named.push({ path: candidate, line: index + 1 });
    }
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:|^#|^\//i.test(target!)) continue;
      const relative = path.posix.normalize(
        path.posix.join(path.posix.dirname(file), target!.split('#')[0]!),
      );
      named.push({ path: relative, line: index + 1 });
    }
  });
  return named;
}

/** A named path as a test on repository paths: patterns and placeholders stand for any name. */
function matcher(named: string): RegExp {
  let pattern = '';
  for (let i = 0; i < named.length; i++) {
    const c = named[i]!;
    if (named.startsWith('**/', i)) {
      pattern += '(?:.*/)?';
      i += 2;
    } else if (named.startsWith('**', i)) {
      pattern += '.*';
      i += 1;
    } else if (c === '*') pattern += '[^/]*';
    else if (c === '<') {
      const end = named.indexOf('>', i);
      pattern += '[^/]+';
      i = end === -1 ? i : end;
    } else if (c === '{') {
      const end = named.indexOf('}', i);
      pattern += `(?:${named
        .slice(i + 1, end)
        .split(',')
        .map((part) => part.replace(/[.+?^$()[\]\\|]/g, '\\$&'))
        .join('|')})`;
      i = end;
    } else if (c === '(') {
      const end = named.indexOf(')', i);
      pattern += `(?:${named.slice(i + 1, end).replace(/[.+?^$()[\]\\|]/g, '\\$&')})?`;
      i = end;
    } else if (c === '…') pattern += '.*';
    else pattern += c.replace(/[.+?^$()[\]\\|]/g, '\\$&');
  }
  // A folder may be named with or without its trailing slash.
  return new RegExp(`^${pattern.replace(/\/$/, '')}/?$`);
}

/** The named paths of `text` that nothing in `paths` answers to, as `file:line path`. */
function missing(file: string, text: string, paths: string[]): string[] {
  return namedPaths(file, text)
    .filter((named) => {
      const test = matcher(named.path);
      return !paths.some((candidate) => test.test(candidate));
    })
    .map((named) => `${file}:${named.line} ${named.path}`);
}

describe('paths named in the docs', () => {
  it('are caught when missing, with patterns, placeholders, folders and links understood', () => {
    const paths = [
      'src/',
      'src/shared/',
      'src/shared/pricing.ts',
      'src/shared/locales/',
      'src/shared/locales/es/',
      'src/shared/locales/es/items.po',
      'src/web/',
      'src/web/pwa/',
      'src/web/pwa/offline-page.test.tsx',
      'docs/',
      'docs/decisions/',
      'docs/decisions/012-payment-outbox.md',
    ];
    const text = [
      'Prices: `src/shared/pricing.ts` `quote(item)`, and `src/shared/` itself, or `src/shared`.',
      'Catalogues: `src/shared/locales/{en,es}/<area>.po`; tests `src/web/pwa/*.test.ts(x)` and `src/**/*.test.tsx`.',
      'Not ours: `dist/web/sw.js`, `npm run build`, [Fastify](https://fastify.dev), [up](#layers).',
      'See [012](decisions/012-payment-outbox.md).',
      '```',
      'src/gone/    inside a fenced block, not a reference',
      '```',
      'Planted: `src/shared/pricing-rules.ts`, `tests/api/gone.test.ts`, [013](decisions/013-faults.md).',
    ].join('\n');
    expect(missing('docs/architecture.md', text, paths)).toEqual([
      'docs/architecture.md:8 src/shared/pricing-rules.ts',
      'docs/architecture.md:8 tests/api/gone.test.ts',
      'docs/architecture.md:8 docs/decisions/013-faults.md',
    ]);
  });

  it('all exist, in README.md and every Markdown file under docs/', async () => {
    const paths = await repositoryPaths();
    const docs = ['README.md', ...paths.filter((file) => file.startsWith('docs/') && file.endsWith('.md'))];
    expect(docs.length).toBeGreaterThan(40);
    const found: string[] = [];
    for (const file of docs)
      found.push(...missing(file, await readFile(path.join(root, file), 'utf8'), paths));
    expect(found).toEqual([]);
  }, 30_000);
});
