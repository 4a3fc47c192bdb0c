import { describe, expect, it } from 'vitest';
import { createReadCaches, dropAfterWrite } from './read-caches.ts';

// The writer's instance answers a write only once it has heard what the write changed;
// if it cannot know that, it empties what anyone could read stale rather than wait forever.

describe('dropAfterWrite', () => {
  const fill = async (caches: ReturnType<typeof createReadCaches>) => {
    await caches.catalogue.get('list', async () => ({ json: '[]', tags: ['list:*'] }));
    await caches.chatUnread.get('ana', async () => '{"count":1}');
  };

  it('keeps the catalogue when the hub has caught up, and drops the writer’s own unread answers', async () => {
    const caches = createReadCaches(60_000);
    await fill(caches);
    await dropAfterWrite(caches, { caughtUp: async () => true }, { userId: 'ana' });
    expect(caches.catalogue.size).toBe(1);
    expect(caches.chatUnread.size).toBe(0);
  });

  it('empties the catalogue when the hub cannot say it has heard the change', async () => {
    const caches = createReadCaches(60_000);
    await fill(caches);
    await dropAfterWrite(caches, { caughtUp: async () => false }, { userId: 'bo' });
    expect(caches.catalogue.size).toBe(0);
    expect(caches.chatUnread.size).toBe(1);
  });
});
