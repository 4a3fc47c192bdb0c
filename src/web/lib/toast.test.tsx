import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dismiss, TOAST_REMOVE_DELAY, toast, update, useToasts } from './toast.ts';

describe('toast store (spec §4 Toast area)', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps at most one toast, newest wins; update and dismiss; removal after 1,000,000 ms', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useToasts());
    act(() => {
      toast({ title: 'First' });
    });
    let second!: ReturnType<typeof toast>;
    act(() => {
      second = toast({ title: 'Second' });
    });
    expect(result.current.map((t) => t.title)).toEqual(['Second']);
    act(() => update(second.id, { description: 'Changed' }));
    expect(result.current[0]).toMatchObject({ title: 'Second', description: 'Changed', open: true });
    act(() => dismiss(second.id));
    expect(result.current[0]?.open).toBe(false);
    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1));
    expect(result.current).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toHaveLength(0);
  });
});
