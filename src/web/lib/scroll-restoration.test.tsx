import { act, cleanup, render } from '@testing-library/react';
import { MemoryRouter, type NavigateFunction, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepScroll, ScrollRestoration } from './scroll-restoration.tsx';

// What React Router's data router did for the app's scroll, kept with the plain router: a new page
// opens at its top or at its #hash, Back comes back to where the page was, and a navigation that asks
// to keep the scroll (a dialog opened through the address) keeps it.

let navigate: NavigateFunction;
function Navigator() {
  navigate = useNavigate();
  return null;
}

const scrollTo = vi.fn();

beforeEach(() => {
  scrollTo.mockClear();
  vi.stubGlobal('scrollTo', scrollTo);
  sessionStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The reader scrolls to `y`, as the browser reports it. */
function scrollBy(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  window.dispatchEvent(new Event('scroll'));
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Navigator />
      <ScrollRestoration />
    </MemoryRouter>,
  );
}

describe('the scroll across navigations', () => {
  it('opens a new page at its top, and Back where the page was', () => {
    renderAt('/browse');
    scrollBy(900);
    scrollTo.mockClear();

    act(() => navigate('/item/1'));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    scrollBy(0);

    act(() => navigate(-1));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 900);
  });

  it('keeps the scroll when the navigation asks to', () => {
    renderAt('/item/1');
    scrollBy(400);
    scrollTo.mockClear();
    act(() => navigate('/item/1?reserve=1', { replace: true, ...keepScroll }));
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('opens at the element a #hash names', () => {
    const target = document.createElement('section');
    target.id = 'reviews';
    target.scrollIntoView = vi.fn();
    document.body.append(target);
    renderAt('/about');
    act(() => navigate('/profile/1#reviews'));
    expect(target.scrollIntoView).toHaveBeenCalled();
    target.remove();
  });
});
