import { useLocation, useSearchParams } from 'react-router';
import { RETURN_PARAM, safeReturnPath } from '#shared/return-path.ts';

// The page to go back to after signing in, signing up or verifying.

/** The safe `?returnTo=` of the current address, or null. */
export function useReturnTo(): string | null {
  const [params] = useSearchParams();
  return safeReturnPath(params.get(RETURN_PARAM));
}

/** The current page as a return path (its address and query). */
export function useHere(): string {
  const { pathname, search } = useLocation();
  return `${pathname}${search}`;
}
