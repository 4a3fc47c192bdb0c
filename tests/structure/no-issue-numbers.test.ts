import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Comments and test titles say why, not which issue a change came from: an issue's number (and its
// item) means nothing to a reader who was not there, and the reason it stood for is what they need.
// Decision records ("decision 042") may be named: they are files a reader can open.

const root = path.resolve(import.meta.dirname, '../..');
const folders = ['src', 'tests', 'scripts', 'bench', 'lint'];
const scripts = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const lineComments = /\.(sql|grit)$/;

/** An issue's number in words or after a hash sign, with or without its item (see the fixture below). */
const issueNumber = /\bissues?\s+#?\d+|(?:^|[\s([,;])#\d+\b/i;

const titleCalls = new Set(['describe', 'it', 'test', 'bench']);

/** The name a call is made through: `it`, `describe.skip`, `it.each([...])` all count as a test. */
function calleeRoot(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return calleeRoot(expression.expression);
  if (ts.isCallExpression(expression)) return calleeRoot(expression.expression);
  return undefined;
}

/** The comments and test titles of one file that name an issue, as `file:line: text`. */
function issueMentions(file: string, text: string): string[] {
  const found: string[] = [];
  // Most files name no issue anywhere: they need no parsing.
  if (!issueNumber.test(text)) return found;
  if (lineComments.test(file)) {
    text.split('\n').forEach((line, index) => {
      const comment = /(?:--|\/\/)(.*)$/.exec(line)?.[1];
      if (comment !== undefined && issueNumber.test(comment))
        found.push(`${file}:${index + 1}: ${line.trim()}`);
    });
    return found;
  }
  const kind = file.endsWith('x')
    ? ts.ScriptKind.TSX
    : file.endsWith('.ts')
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const report = (at: number, what: string) => {
    const line = source.getLineAndCharacterOfPosition(at).line + 1;
    found.push(`${file}:${line}: ${what.trim().split('\n')[0]}`);
  };
  const seen = new Set<number>();
  const visit = (node: ts.Node) => {
    // Every comment is trivia before some token, the end of the file included: on the line of the
    // token before (trailing) or on lines of its own (leading).
    const ranges = [
      ...(ts.getTrailingCommentRanges(text, node.pos) ?? []),
      ...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
    ];
    for (const range of ranges) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const comment = text.slice(range.pos, range.end);
      if (issueNumber.test(comment)) {
        const lines = comment.split('\n');
        const index = lines.findIndex((line) => issueNumber.test(line));
        report(range.pos + lines.slice(0, index).join('\n').length + (index > 0 ? 1 : 0), lines[index]!);
      }
    }
    if (ts.isCallExpression(node) && titleCalls.has(calleeRoot(node.expression) ?? '')) {
      const title = node.arguments[0];
      if (title && (ts.isStringLiteral(title) || ts.isNoSubstitutionTemplateLiteral(title))) {
        if (issueNumber.test(title.text)) report(title.getStart(source), title.getText(source));
      }
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return found;
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(path.join(root, folder), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && (scripts.test(entry.name) || lineComments.test(entry.name)))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).includes('node_modules'));
}

// Written so that this file's own code names no issue.
const issue = (words: string) => `${'Issue'} ${words}`;
const hash = (n: number) => `${'#'}${n}`;

describe('naming an issue in a comment or a test title', () => {
  it('is caught in line and block comments, test titles, SQL comments, and not in code or decisions', () => {
    const code = [
      `// ${issue('17')}: the lender's window.`,
      'const a = 1;',
      '/**',
      ' * What a booking pays.',
      ` * Its refund (${issue('17 item 3').toLowerCase()}).`,
      ' */',
      `const b = 'see ${hash(12)}'; // fixed in ${hash(12)}`,
      `describe('late returns (${issue('17 item 5').toLowerCase()})', () => {`,
      `  it.each([1])('refunds %s (${issue('4').toLowerCase()})', () => {});`,
      `  it('keeps ${issue('19')} out of strings that are not titles', () => {`,
      `    expect(notice('${issue('19')}')).toBe(1);`,
      '  });',
      '});',
      "// The one transaction helper (decision 042), the colour '#000', and the issues we had.",
      `const c = <p>{/* ${issue('16')} */}</p>;`,
    ].join('\n');
    expect(issueMentions('src/fixture.tsx', code).map((found) => found.split(': ')[0])).toEqual([
      'src/fixture.tsx:1',
      'src/fixture.tsx:5',
      'src/fixture.tsx:7',
      'src/fixture.tsx:8',
      'src/fixture.tsx:9',
      'src/fixture.tsx:10',
      'src/fixture.tsx:15',
    ]);
    expect(issueMentions('src/db/0001.sql', `-- ${issue('15')}: links.\nSELECT '${issue('15')}';`)).toEqual([
      `src/db/0001.sql:1: -- ${issue('15')}: links.`,
    ]);
  });

  it('is nowhere in src, tests, scripts, bench or lint', async () => {
    const files = (await Promise.all(folders.map(filesUnder))).flat();
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const file of files)
      found.push(...issueMentions(file, await readFile(path.join(root, file), 'utf8')));
    expect(found).toEqual([]);
  }, 60_000);
});
