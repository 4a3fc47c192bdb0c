import ts from 'typescript';

// No user-facing string outside the message catalogues. English is written in the code
// only inside Lingui's macros (<Trans>, t`…`, msg`…`, plural), which put it in the catalogues; this
// finds English written anywhere else the product shows it. `npm run lint` runs it (check-strings.ts);
// tests/structure/hard-coded-strings.test.ts proves every rule on a fixture.
//
// What counts as user-facing:
//   - text between JSX tags, and string literals put into JSX;
//   - string values of the attributes people read or hear (aria-label, alt, title, placeholder, label…);
//   - the message of the server's errors (badRequest('…'), new AppError(…, '…')) and notifications
//     (title: '…', message: '…' given to notify);
//   - zod's messages in the shared schemas ({ message: '…' }, { error: '…' }, .min(1, '…')).
// A line may opt out with `// i18n-ignore: <why>` (a brand name, a code shown as is).

export interface Finding {
  file: string;
  line: number;
  text: string;
  rule: string;
}

const ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'aria-roledescription',
  'alt',
  'title',
  'placeholder',
  'label',
  'description',
  'hint',
  'emptyText',
  'confirmLabel',
  'cancelLabel',
]);

/** Keys of the web app's own tables of text (a menu's labels, a page's sections). */
const TEXT_KEYS = new Set([
  'label',
  'title',
  'description',
  'heading',
  'text',
  'hint',
  'placeholder',
  'message',
  'question',
  'answer',
  'summary',
  'body',
  'subtitle',
  'caption',
  'empty',
  'emptyTitle',
  'emptyText',
  'action',
  'cta',
  'alt',
]);

const MACRO_ELEMENTS = new Set(['Trans', 'Plural', 'Select', 'SelectOrdinal']);
const ERROR_HELPERS = new Set(['badRequest', 'unauthorized', 'forbidden', 'notFound', 'conflict']);
const ERROR_CLASSES = new Set(['AppError', 'RetryLaterError']);
const ZOD_CHECKS = new Set([
  'min',
  'max',
  'length',
  'regex',
  'email',
  'url',
  'uuid',
  'int',
  'positive',
  'nonnegative',
  'nonempty',
  'refine',
  'superRefine',
  'startsWith',
  'endsWith',
  'includes',
  'gte',
  'lte',
  'gt',
  'lt',
  'multipleOf',
  'datetime',
  'date',
]);
const CALLS_WITH_TEXT = new Set(['useDocumentTitle', 'errorMessage']);
const TOAST_METHODS = new Set(['success', 'error', 'info', 'warning', 'show']);

/** Words: at least one letter. Symbols, numbers and punctuation alone are not language. */
const hasWords = (text: string) => /\p{L}/u.test(text);

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
  }
  return undefined;
}

function tagName(node: ts.JsxOpeningLikeElement): string {
  return node.tagName.getText();
}

/** The file's user-facing strings written outside the catalogues. */
export function findHardCodedStrings(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const lines = source.split('\n');
  const findings: Finding[] = [];
  const isServer = /(^|\/)src\/server\//.test(file);
  const isSchema = /(^|\/)src\/shared\/schemas\//.test(file);
  const isWeb = /(^|\/)src\/web\//.test(file);

  const report = (node: ts.Node, text: string, rule: string) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
    if (/i18n-ignore/.test(lines[line] ?? '') || /i18n-ignore/.test(lines[line - 1] ?? '')) return;
    if (!hasWords(text)) return;
    findings.push({ file, line: line + 1, text: text.trim().slice(0, 80), rule });
  };

  const insideMacro = (node: ts.Node): boolean => {
    for (let p = node.parent; p; p = p.parent) {
      if (ts.isJsxElement(p) && MACRO_ELEMENTS.has(tagName(p.openingElement))) return true;
      if (ts.isTaggedTemplateExpression(p)) return true;
      if (
        ts.isCallExpression(p) &&
        ['t', 'msg', 'plural', 'select', 'defineMessage'].includes(p.expression.getText())
      ) {
        return true;
      }
    }
    return false;
  };

  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && !insideMacro(node) && node.text.trim()) {
      report(node, node.text, 'text between JSX tags');
    } else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      const text = literalText(node.expression);
      if (text !== undefined && !insideMacro(node)) report(node, text, 'string put into JSX');
      if (node.expression && ts.isConditionalExpression(node.expression)) {
        for (const branch of [node.expression.whenTrue, node.expression.whenFalse]) {
          const branchText = literalText(branch);
          if (branchText !== undefined) report(branch, branchText, 'string put into JSX');
        }
      }
    } else if (ts.isJsxAttribute(node) && ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      const value = ts.isJsxExpression(node.initializer) ? node.initializer.expression : node.initializer;
      const text = value && literalText(value);
      if (text !== undefined) report(node, text, `the ${node.name.getText()} attribute`);
    } else if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : '';
      const args = node.arguments ?? ts.factory.createNodeArray();
      const owner = ts.isPropertyAccessExpression(callee) ? callee.expression.getText() : '';
      const checkArgs = (rule: string) => {
        for (const arg of args) {
          const text = literalText(arg);
          if (text !== undefined) report(arg, text, rule);
        }
      };
      if (ts.isNewExpression(node) && ERROR_CLASSES.has(name)) {
        // new AppError(status, code, message): the code is for programs, the message for people.
        const message = args[2];
        const text = message && literalText(message);
        if (text !== undefined) report(message!, text, 'an error message');
      } else if (ts.isCallExpression(node) && ERROR_HELPERS.has(name) && isServer) {
        const text = args[0] && literalText(args[0]);
        if (text !== undefined) report(args[0]!, text, 'an error message');
      } else if (ts.isCallExpression(node) && CALLS_WITH_TEXT.has(name)) {
        checkArgs(`text given to ${name}`);
      } else if (ts.isCallExpression(node) && owner === 'toast' && TOAST_METHODS.has(name)) {
        checkArgs('a toast');
      } else if (ts.isCallExpression(node) && isSchema && ZOD_CHECKS.has(name)) {
        for (const arg of args) {
          const text = literalText(arg);
          // A pattern or a literal value ('https://') has no spaces; a message does.
          if (text !== undefined && /\s/.test(text)) report(arg, text, 'a validation message');
        }
      }
    } else if (ts.isPropertyAssignment(node) && node.name && ts.isIdentifier(node.name)) {
      const key = node.name.text;
      const text = literalText(node.initializer);
      if (text === undefined) {
        // nothing
      } else if (isSchema && (key === 'message' || key === 'error')) {
        report(node.initializer, text, 'a validation message');
      } else if (
        isServer &&
        (key === 'title' || key === 'message') &&
        /\s/.test(text) &&
        withinNotify(node)
      ) {
        report(node.initializer, text, 'a notification');
      } else if (isWeb && TEXT_KEYS.has(key) && !insideMacro(node)) {
        report(node.initializer, text, `a ${key} in a table of text`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}

function withinNotify(node: ts.Node): boolean {
  for (let p: ts.Node | undefined = node.parent; p; p = p.parent) {
    if (ts.isCallExpression(p) && /\bnotify$/.test(p.expression.getText())) return true;
  }
  return false;
}
