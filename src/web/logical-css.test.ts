import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Right-to-left ready: the web app lays out with logical utilities (ms-/me-, ps-/pe-, start-/end-,
// text-start/end, border-s/e, rounded-s/e), which follow the page's direction, so a right-to-left
// language would not need a redesign. A physical one (ml-4, right-2, text-left…) fails here with its
// file and line. `left-1/2` with `-translate-x-1/2` (centring) is symmetric and allowed.

const WEB = path.resolve(import.meta.dirname);
const PHYSICAL =
  /(?<![\w-])-?(?:ml|mr|pl|pr)-[\w[]|(?<![\w-])-?(?:left|right)-(?!1\/2)[\w[]|(?<![\w-])text-(?:left|right)(?![\w-])|(?<![\w-])(?:border|rounded)-(?:l|r|tl|tr|bl|br)(?![\w-]*(?:ine|g\b))(?=[-\s'"`]|$)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('logical CSS only (right-to-left ready)', () => {
  it('no physical left/right utility in any string of the web app', () => {
    const found: string[] = [];
    for (const file of sources(WEB)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // Only what is inside quotes: comments may say 'right-aligned'.
          for (const [, , text] of line.matchAll(/(["'`])((?:(?!\1)[^\\]|\\.)*)\1/g)) {
            if (text && PHYSICAL.test(text))
              found.push(`${path.relative(WEB, file)}:${i + 1}: ${text.trim()}`);
          }
        });
    }
    expect(found).toEqual([]);
  });

  it('catches a physical utility (the check itself)', () => {
    for (const bad of [
      'ml-4',
      'absolute right-2',
      'pl-10',
      '-mr-1',
      'text-left',
      'border-l-2',
      'rounded-br-sm',
      'md:left-auto',
    ]) {
      expect(PHYSICAL.test(bad), bad).toBe(true);
    }
    for (const good of [
      'ms-4',
      'absolute end-2',
      'border-line',
      'rounded-lg',
      'left-1/2 -translate-x-1/2',
      'text-start',
      'rounded-ee-sm',
    ]) {
      expect(PHYSICAL.test(good), good).toBe(false);
    }
  });
});
