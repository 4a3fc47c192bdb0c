import { describe, expect, it } from 'vitest';
import { RETURN_PATH_MAX, safeReturnPath, withReturnTo } from './return-path.ts';

describe('safeReturnPath', () => {
  it('keeps a path of this site with its query and hash', () => {
    expect(safeReturnPath('/item/3f1c?reserve=1')).toBe('/item/3f1c?reserve=1');
    expect(safeReturnPath('/browse?q=rice%20cooker#results')).toBe('/browse?q=rice%20cooker#results');
    expect(safeReturnPath('/')).toBe('/');
    expect(safeReturnPath('/chat?conversation=abc')).toBe('/chat?conversation=abc');
  });

  it('normalises dot segments without leaving the site', () => {
    expect(safeReturnPath('/a/../item/1')).toBe('/item/1');
    expect(safeReturnPath('/../../etc')).toBe('/etc');
  });

  it.each([
    ['protocol-relative', '//evil.com'],
    ['protocol-relative with path', '//evil.com/item/1'],
    ['absolute https', 'https://evil.com/'],
    ['absolute http to this app', 'http://localhost:5000/item/1'],
    ['backslash host', '/\\evil.com'],
    ['backslashes', '\\\\evil.com'],
    ['mixed slashes', '/\\/evil.com'],
    ['javascript:', 'javascript:alert(1)'],
    ['JavaScript: mixed case', 'JaVaScRiPt:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a tab a browser drops', '/\t/evil.com'],
    ['a newline a browser drops', '/\n/evil.com'],
    ['a NUL', '/item\u0000'],
    ['relative path', 'item/1'],
    ['empty', ''],
    ['leading space', ' /item/1'],
  ])('refuses %s', (_name, value) => {
    expect(safeReturnPath(value)).toBeNull();
  });

  it('refuses what is not a string, and overlong paths', () => {
    expect(safeReturnPath(undefined)).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
    expect(safeReturnPath(['/item/1'])).toBeNull();
    expect(safeReturnPath(`/${'a'.repeat(RETURN_PATH_MAX)}`)).toBeNull();
  });

  it('never returns to the sign-in, sign-up or verification pages (a loop)', () => {
    expect(safeReturnPath('/login')).toBeNull();
    expect(safeReturnPath('/LOGIN/')).toBeNull();
    expect(safeReturnPath('/register?returnTo=/x')).toBeNull();
    expect(safeReturnPath('/verify-email?token=abc')).toBeNull();
    expect(safeReturnPath('/reset-password')).toBeNull();
  });
});

describe('withReturnTo', () => {
  it('adds the encoded page to come back to', () => {
    expect(withReturnTo('/login', '/item/1?reserve=1')).toBe('/login?returnTo=%2Fitem%2F1%3Freserve%3D1');
    expect(withReturnTo('/verify-email?token=t', '/chat')).toBe('/verify-email?token=t&returnTo=%2Fchat');
  });

  it('leaves the path alone when there is nowhere safe to come back to, or only Home', () => {
    expect(withReturnTo('/login', '//evil.com')).toBe('/login');
    expect(withReturnTo('/login', null)).toBe('/login');
    expect(withReturnTo('/login', '/')).toBe('/login');
  });
});
