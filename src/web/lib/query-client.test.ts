import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './query-client.ts';

// The 3-D Secure return raced My Reservations' first load: the list read before the request was made
// answered after it, and the invalidation that followed the request kept that answer.

/** A list on a "server" whose answers the test lets through one by one, each read when it was asked. */
function slowServer() {
  let rows: string[] = [];
  const waiting: (() => void)[] = [];
  return {
    write(row: string) {
      rows = [...rows, row];
    },
    read() {
      const seen = rows;
      return new Promise<string[]>((resolve) => waiting.push(() => resolve(seen)));
    },
    answerAll() {
      for (const answer of waiting.splice(0)) answer();
    },
    get asked() {
      return waiting.length;
    },
  };
}

describe('invalidating after a change', () => {
  it('does not keep a first load that was read before the change', async () => {
    const server = slowServer();
    const client = createQueryClient();
    const observer = new QueryObserver(client, { queryKey: ['reservations'], queryFn: () => server.read() });
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(server.asked).toBe(1)); // the first load, read before the request exists

    server.write('Sewing machine'); // the request is made
    const invalidated = client.invalidateQueries({ queryKey: ['reservations'] });
    // The first load answers after the change: its answer is the list from before it.
    server.answerAll();
    await vi.waitFor(() => expect(server.asked).toBe(1)); // asked again
    server.answerAll();
    await invalidated;

    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(['Sewing machine']));
    unsubscribe();
  });

  it('still refetches a list that has data, once', async () => {
    const server = slowServer();
    const client = createQueryClient();
    const observer = new QueryObserver(client, { queryKey: ['reservations'], queryFn: () => server.read() });
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(server.asked).toBe(1));
    server.answerAll();
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual([]));

    server.write('Sewing machine');
    const invalidated = client.invalidateQueries({ queryKey: ['reservations'] });
    await vi.waitFor(() => expect(server.asked).toBe(1));
    server.answerAll();
    await invalidated;
    expect(observer.getCurrentResult().data).toEqual(['Sewing machine']);
    unsubscribe();
  });
});
