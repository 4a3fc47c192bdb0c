import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterLoadAndIdle } from './after-load.ts';

// Deferred work waits for the load event, then for an idle moment (with a deadline); the service worker's
// registration goes through it (main.tsx).

afterEach(() => {
  // The document's own readyState goes; its prototype's answers again.
  Reflect.deleteProperty(document, 'readyState');
  vi.unstubAllGlobals();
});

describe('afterLoadAndIdle', () => {
  it('waits for the load event, then for the browser to be idle, with a deadline', () => {
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'loading' });
    const idle: { run: () => void; timeout?: number }[] = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void, options?: { timeout?: number }) => {
      idle.push({ run, timeout: options?.timeout });
      return idle.length;
    });
    const work = vi.fn();
    afterLoadAndIdle(work, 3000);
    expect(idle).toHaveLength(0);
    window.dispatchEvent(new Event('load'));
    expect(idle).toHaveLength(1);
    expect(idle[0]!.timeout).toBe(3000);
    expect(work).not.toHaveBeenCalled();
    idle[0]!.run();
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('on a page already loaded, waits only for idle', () => {
    Object.defineProperty(document, 'readyState', { configurable: true, get: () => 'complete' });
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
    const work = vi.fn();
    afterLoadAndIdle(work);
    expect(idle).toHaveLength(1);
    idle[0]!();
    expect(work).toHaveBeenCalledTimes(1);
  });
});
