import { describe, expect, it } from 'vitest';
import { findHardCodedStrings } from '../../scripts/i18n/hard-coded-strings.ts';

// The language check of `npm run lint` bites on each kind of hard-coded string, and
// lets through what the catalogues hold.

const web = (code: string) => findHardCodedStrings('src/web/routes/x.tsx', code).map((f) => f.rule);

describe('the hard-coded string check', () => {
  it('finds text between JSX tags, and lets <Trans> through', () => {
    expect(web('const A = () => <p>Hello there</p>;')).toEqual(['text between JSX tags']);
    expect(web('const A = () => <p><Trans>Hello there</Trans></p>;')).toEqual([]);
    expect(web('const A = () => <p>{count} · 42%</p>;')).toEqual([]);
  });

  it('finds strings put into JSX, also in a condition', () => {
    expect(web("const A = () => <p>{'Loading...'}</p>;")).toEqual(['string put into JSX']);
    expect(web("const A = () => <p>{busy ? 'Saving' : t`Save`}</p>;")).toEqual(['string put into JSX']);
  });

  it('finds the attributes people read or hear', () => {
    expect(web('const A = () => <img alt="A red bike" src={x} />;')).toEqual(['the alt attribute']);
    expect(web('const A = () => <button aria-label="Close">×</button>;')).toEqual([
      'the aria-label attribute',
    ]);
    expect(web('const A = () => <button aria-label={t`Close`}>×</button>;')).toEqual([]);
    expect(web('const A = () => <div className="flex gap-2" data-state="open" />;')).toEqual([]);
  });

  it('finds tables of text, titles and toasts', () => {
    expect(web("const links = [{ to: '/a', label: 'About us' }];")).toEqual(['a label in a table of text']);
    expect(web("const links = [{ to: '/a', label: msg`About us` }];")).toEqual([]);
    expect(web("useDocumentTitle('Browse Items');")).toEqual(['text given to useDocumentTitle']);
    expect(web("toast.success('Saved');")).toEqual(['a toast']);
  });

  it("finds the server's error messages and notifications", () => {
    const server = (code: string) =>
      findHardCodedStrings('src/server/features/x/service.ts', code).map((f) => f.rule);
    expect(server("throw badRequest('That date is taken.');")).toEqual(['an error message']);
    expect(server("throw new AppError(400, 'X', 'Nope, not now.');")).toEqual(['an error message']);
    expect(server('throw badRequest(msg`That date is taken.`);')).toEqual([]);
    expect(
      server("await notificationService.notify(tx, { type: 'x', title: 'Request approved', message: m });"),
    ).toEqual(['a notification']);
  });

  it("finds zod's messages in the shared schemas", () => {
    const schema = (code: string) => findHardCodedStrings('src/shared/schemas/x.ts', code).map((f) => f.rule);
    expect(schema("z.string().min(1, 'Title is required')")).toEqual(['a validation message']);
    expect(schema("z.string().min(1, { message: 'Title is required' })")).toEqual(['a validation message']);
    expect(schema("z.string().regex(/^[a-z]+$/).startsWith('https')")).toEqual([]);
  });

  it('lets a line opt out with a reason', () => {
    expect(web('const A = () => <p>CampusLoop</p>; // i18n-ignore: the brand')).toEqual([]);
  });
});
