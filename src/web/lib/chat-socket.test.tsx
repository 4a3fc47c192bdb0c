import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../../../tests/helpers/fake-socket.ts';
import { RECONNECT_DELAY_MS, useChatSocket } from './chat-socket.ts';

describe('useChatSocket (spec §4 live chat connection)', () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeSocket);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('authenticates on open and reconnects 3 s after the server drops the socket', () => {
    const { result, unmount } = renderHook(() => useChatSocket({ id: 'user-1' }));
    const first = FakeSocket.instances[0]!;
    expect(first.url).toMatch(/\/ws$/);
    act(() => first.open());
    expect(JSON.parse(first.sent[0]!)).toEqual({ type: 'auth', userId: 'user-1' });
    expect(result.current.connected).toBe(true);

    act(() => first.drop(1006));
    expect(result.current.connected).toBe(false);
    act(() => vi.advanceTimersByTime(RECONNECT_DELAY_MS - 1));
    expect(FakeSocket.instances).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeSocket.instances).toHaveLength(2);
    const second = FakeSocket.instances[1]!;
    act(() => second.open());
    expect(JSON.parse(second.sent[0]!)).toEqual({ type: 'auth', userId: 'user-1' });
    expect(result.current.connected).toBe(true);
    unmount();
  });

  it('does not reconnect after a normal close, and opens nothing while signed out', () => {
    const { unmount } = renderHook(() => useChatSocket({ id: 'user-1' }));
    act(() => FakeSocket.instances[0]!.open());
    act(() => FakeSocket.instances[0]!.drop(1000));
    act(() => vi.advanceTimersByTime(10 * RECONNECT_DELAY_MS));
    expect(FakeSocket.instances).toHaveLength(1);
    unmount();

    FakeSocket.instances = [];
    renderHook(() => useChatSocket(null));
    expect(FakeSocket.instances).toHaveLength(0);
  });
});
