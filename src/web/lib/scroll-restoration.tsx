import { useEffect, useLayoutEffect, useRef } from 'react';
import { type Location, useLocation } from 'react-router';

// The app's router is React Router's plain <BrowserRouter>, not its data router (createBrowserRouter):
// the app has no loaders or actions, and the data router was a third of React Router's code in the
// first script, run before anything hydrated (docs/performance.md, "The first script"). Its
// <ScrollRestoration> works only inside a data router, so this is the same behaviour for the plain
// one: every page opens at its top, or at the element its #hash names; Back and Forward, and a reload,
// come back to where the page was; a navigation that asks to keep the scroll keeps it.

/** Where React Router's own restoration kept the positions, so a reload across versions still finds them. */
const STORAGE_KEY = 'react-router-scroll-positions';

const KEEP_SCROLL = 'keepScroll';

/**
 * Navigation options that leave the page where it is (a dialog opened through the address, a
 * conversation picked): `setParams(next, { replace: true, ...keepScroll })`.
 */
export const keepScroll = { state: { [KEEP_SCROLL]: true } } as const;

function keepsScroll(location: Location): boolean {
  const state: unknown = location.state;
  return typeof state === 'object' && state !== null && KEEP_SCROLL in state;
}

function storedPositions(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

export function ScrollRestoration() {
  const location = useLocation();
  const positions = useRef<Record<string, number> | null>(null);
  // The history entry the page on screen belongs to: scrolling is recorded against it.
  const current = useRef(location.key);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    // Recorded as it happens, so the position is known before a navigation changes the page (and
    // the browser clamps it to the new page's height).
    const record = () => {
      positions.current ??= storedPositions();
      positions.current[current.current] = window.scrollY;
    };
    const keep = () => {
      record();
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current));
      } catch {
        // Storage full or refused: a reload opens at the top, nothing else is lost.
      }
      window.history.scrollRestoration = 'auto';
    };
    window.addEventListener('scroll', record, { passive: true });
    window.addEventListener('pagehide', keep);
    return () => {
      window.removeEventListener('scroll', record);
      window.removeEventListener('pagehide', keep);
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  // Before paint, so the new page never shows at the old one's position.
  useLayoutEffect(() => {
    current.current = location.key;
    positions.current ??= storedPositions();
    const saved = positions.current[location.key];
    if (typeof saved === 'number') {
      window.scrollTo(0, saved);
      return;
    }
    if (location.hash) {
      try {
        const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
        if (target) {
          target.scrollIntoView();
          return;
        }
      } catch {
        // A #hash that is not a decodable id: the page opens at its top.
      }
    }
    if (keepsScroll(location)) return;
    window.scrollTo(0, 0);
  }, [location]);

  return null;
}
