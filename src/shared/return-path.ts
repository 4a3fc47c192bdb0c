// "Back where I was": signing in, signing up and verifying an e-mail return the
// student to the page they came from, named by a `returnTo` query parameter (and carried in the
// verification e-mail's link). Only a path on this site is ever followed: anything that could
// leave it (`//evil.com`, `https://…`, `/\evil`, `javascript:`, control characters a browser drops)
// is refused, and the caller falls back to its usual page.

/** The query parameter that names the page to return to. */
export const RETURN_PARAM = 'returnTo';

/** Longer than any page of the app's address with its query. */
export const RETURN_PATH_MAX = 1000;

/** Any origin will do: it only tells whether the parsed path stayed on it. */
const BASE = 'https://campusloop.invalid';

/** The pages a student is sent to, never back to: returning there would only loop. */
const NOT_RETURNED_TO = ['/login', '/register', '/verify-email', '/forgot-password', '/reset-password'];

/**
 * The same-origin path (with its query and hash) to return to, or null when `value` is missing or
 * could lead anywhere else.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > RETURN_PATH_MAX) return null;
  // A path of this site, and nothing a browser reads as another host: '//host', '/\host'
  // (browsers take '\' for '/'), or tabs and newlines, which URL parsing silently drops.
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!path.startsWith('/') || path.startsWith('//')) return null;
  const lower = url.pathname.toLowerCase().replace(/\/+$/, '');
  if (NOT_RETURNED_TO.includes(lower)) return null;
  return path;
}

/** `path` with `?returnTo=` the page to come back to (left out when that page is not a safe one). */
export function withReturnTo(path: string, returnTo: string | null | undefined): string {
  const safe = safeReturnPath(returnTo);
  if (!safe || safe === '/') return path;
  const [base, hash = ''] = path.split('#', 2) as [string, string?];
  const join = base.includes('?') ? '&' : '?';
  return `${base}${join}${RETURN_PARAM}=${encodeURIComponent(safe)}${hash ? `#${hash}` : ''}`;
}
