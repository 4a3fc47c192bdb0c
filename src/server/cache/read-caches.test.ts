import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { RealtimeEvent, RealtimeHub } from '../db/realtime-hub.ts';
import {
  answerTags,
  type CachedAnswer,
  createReadCaches,
  dropAfterWrite,
  dropWhenDone,
  invalidateOnChanges,
  type ListFilters,
  listTags,
  type NewListingReviser,
  rememberedUnread,
  textBytes,
  unreadNotificationsKey,
} from './read-caches.ts';

const jsonOf = (answer: CachedAnswer) => ('json' in answer ? answer.json : undefined);
/** A listing's id, as a new listing's announcement names it. */
const LAMP = '0b9d8c52-4a4e-4f55-9f0b-6c2f1e7a3d10';

// The writer's instance answers a write only once it has heard what the write changed; if it cannot
// know that, its writer reads around the caches until it can, and nothing is emptied (decision 049:
// emptying every cache on a late mark made a miss storm under load).

describe('dropAfterWrite', () => {
  const fill = async (caches: ReturnType<typeof createReadCaches>) => {
    await caches.catalogue.get('list', async () => ({ json: '[]', tags: ['list:*'] }));
    await caches.chatUnread.get('ana', async () => ({ json: '{"count":1}' }));
  };

  it('keeps the catalogue and the writer’s own unread answers when the hub has caught up: it heard their live events too', async () => {
    const caches = createReadCaches(60_000);
    await fill(caches);
    await dropAfterWrite(caches, { caughtUp: async () => true }, { userId: 'ana' });
    expect(caches.catalogue.size).toBe(1);
    expect(caches.chatUnread.size).toBe(1);
  });

  it('drops the writer’s own unread answers when the hub cannot say it has caught up, or was not asked', async () => {
    const late = createReadCaches(60_000);
    await fill(late);
    await dropAfterWrite(late, { caughtUp: async () => false }, { userId: 'ana' });
    expect(late.chatUnread.size).toBe(0);
    // A read mark waits for no announcement: its live event may still be on its way.
    const unasked = createReadCaches(60_000);
    await fill(unasked);
    const caughtUp = vi.fn(async () => true);
    await dropAfterWrite(unasked, { caughtUp }, { userId: 'ana' }, { waitForAnnouncement: false });
    expect(unasked.chatUnread.size).toBe(0);
    expect(caughtUp).not.toHaveBeenCalled();
  });

  it('keeps the writer’s own unread answers after a write that never moves them (a chat message)', async () => {
    const caches = createReadCaches(60_000);
    await fill(caches);
    await dropAfterWrite(
      caches,
      { caughtUp: async () => false },
      { userId: 'ana' },
      { waitForAnnouncement: false, writersUnread: false },
    );
    expect(caches.chatUnread.size).toBe(1);
  });

  it('empties nothing when the hub cannot say it has heard the change: the writer alone reads around it', async () => {
    const caches = createReadCaches(60_000);
    await fill(caches);
    await dropAfterWrite(caches, { caughtUp: async () => false }, { userId: 'bo' });
    expect(caches.catalogue.size).toBe(1);
    expect(caches.chatUnread.size).toBe(1);
    // Everyone else is answered from memory; the writer gets the list computed afresh.
    expect(jsonOf(await caches.catalogue.get('list', async () => ({ json: 'fresh', tags: [] })))).toBe('[]');
    const forBo = await caches.catalogue.get('list', async () => ({ json: 'fresh', tags: [] }), undefined, {
      reader: 'bo',
    });
    expect(jsonOf(forBo)).toBe('fresh');
    // A later write's mark, once heard, proves bo's was heard too: bo is answered from memory again.
    await dropAfterWrite(caches, { caughtUp: async () => true }, { userId: 'cy' });
    const later = await caches.catalogue.get('list', async () => ({ json: 'again', tags: [] }), undefined, {
      reader: 'bo',
    });
    expect(jsonOf(later)).toBe('[]');
  });
});

describe('dropAfterWrite, with drops under way', () => {
  it('answers at once, and has the writer read around the caches until the drops their write set off end', async () => {
    const caches = createReadCaches(60_000);
    await caches.catalogue.get('search', async () => ({ json: 'old', tags: [] }));
    let finish = () => {};
    dropWhenDone(caches, new Promise<void>((resolve) => (finish = resolve)));
    await dropAfterWrite(caches, { caughtUp: async () => true }, { userId: 'ana' });
    const forAna = () =>
      caches.catalogue.get('search', async () => ({ json: 'fresh', tags: [] }), undefined, { reader: 'ana' });
    // Not known yet whether the search is stale: ana gets it computed afresh, everyone else from memory.
    expect(jsonOf(await forAna())).toBe('fresh');
    expect(jsonOf(await caches.catalogue.get('search', async () => ({ json: 'x', tags: [] })))).toBe('old');
    finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // A later write heard with nothing under way proves ana's drops have ended.
    await dropAfterWrite(caches, { caughtUp: async () => true }, { userId: 'bo' });
    expect(jsonOf(await forAna())).toBe('old');
  });
});

describe('createReadCaches', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts an answer’s text at two bytes a character when any is beyond Latin-1, as V8 keeps it', async () => {
    expect(textBytes('{"title":"Café table"}')).toBe(22);
    expect(textBytes('{"title":"Ana’s desk"}')).toBe(44);
    const held = async (title: string) => {
      const caches = createReadCaches(30_000);
      const json = JSON.stringify({ items: [{ title, description: 'x'.repeat(4000) }] });
      await caches.catalogue.get('browse', async () => ({ json, tags: [] }));
      return caches.catalogue.bytes;
    };
    const plain = await held("Ana's desk");
    const typed = await held('Ana’s desk');
    // The same answer typed on a phone (’ for ') takes about twice the memory, and is counted so.
    expect(typed - plain).toBeGreaterThan(4000);
  });

  it('keeps the unread polls the announced time: every change to them is announced', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const caches = createReadCaches(30_000, undefined, 600_000);
    const count = z.object({ count: z.number() });
    let computed = 0;
    const poll = () => rememberedUnread(caches.chatUnread, 'ana', count, async () => ({ count: ++computed }));
    expect((await poll()).json).toBe('{"count":1}');
    vi.advanceTimersByTime(300_000);
    expect((await poll()).json).toBe('{"count":1}');
    vi.advanceTimersByTime(300_001);
    expect((await poll()).json).toBe('{"count":2}');
  });
});

/** Caches that hear the announcements and live events handed to them, as from the database. */
const listening = (newListing?: NewListingReviser) => {
  const caches = createReadCaches(30_000);
  let announce: (tags: string[]) => void = () => {};
  let publish: (userIds: string[], event: RealtimeEvent) => void = () => {};
  const hub = {
    observeChanges: (observer: typeof announce) => {
      announce = observer;
      return () => {};
    },
    observeEvents: (observer: typeof publish) => {
      publish = observer;
      return () => {};
    },
    observeStatus: () => () => {},
  } as unknown as RealtimeHub;
  invalidateOnChanges(caches, hub, newListing);
  return {
    caches,
    announce: (...tags: string[]) => announce(tags),
    publish: (userIds: string[], type: string) => publish(userIds, { type }),
  };
};

describe('invalidateOnChanges, for live events', () => {
  /** Whose polls are still remembered after one event of `type` for ana, of ana's and ben's. */
  const keptAfter = async (type: string) => {
    const { caches, publish } = listening();
    const poll = async () => ({ json: '{"count":1}' });
    for (const person of ['ana', 'ben']) {
      await caches.notificationsUnread.get(unreadNotificationsKey(person, 'en'), poll);
      await caches.notificationsUnread.get(unreadNotificationsKey(person, 'es'), poll);
      await caches.chatUnread.get(person, poll);
    }
    publish(['ana'], type);
    return [
      ...['ana', 'ben'].flatMap((person) =>
        ['en', 'es']
          .filter((locale) =>
            caches.notificationsUnread.holds(unreadNotificationsKey(person, locale as 'en' | 'es')),
          )
          .map((locale) => `${person} notifications ${locale}`),
      ),
      ...['ana', 'ben'].filter((person) => caches.chatUnread.holds(person)).map((person) => `${person} chat`),
    ];
  };

  it('drops only the poll an event moves, of only the people it names', async () => {
    const ben = ['ben notifications en', 'ben notifications es', 'ben chat'];
    expect(await keptAfter('notification')).toEqual([...ben.slice(0, 2), 'ana chat', 'ben chat']);
    expect(await keptAfter('notificationCount')).toEqual([...ben.slice(0, 2), 'ana chat', 'ben chat']);
    expect(await keptAfter('chatUnreadCount')).toEqual([
      'ana notifications en',
      'ana notifications es',
      ...ben,
    ]);
    // The message itself, to both people: the recipient's count comes with its chatUnreadCount.
    expect(await keptAfter('newMessage')).toHaveLength(6);
    expect(await keptAfter('sessionEnded')).toHaveLength(6);
    // An event this version does not know: both of the person's polls go.
    expect(await keptAfter('somethingNew')).toEqual(ben);
  });
});

describe('invalidateOnChanges, for a new listing', () => {
  const lists: Record<string, ListFilters> = {
    stanfordTools: { campus: 'stanford.edu', category: 'tools' },
    everyCampus: { campus: 'all' },
    freeOnly: { campus: 'stanford.edu', freeOnly: true },
    underFive: { campus: 'stanford.edu', category: 'tools', maxPrice: 5 },
    underTen: { campus: 'all', maxPrice: 10 },
    locker: { campus: 'stanford.edu', pickupMethod: 'locker' },
    meetup: { campus: 'stanford.edu', pickupMethod: 'meetup', maxPrice: 7.5 },
    otherCategory: { campus: 'stanford.edu', category: 'books' },
    otherCampus: { campus: 'mit.edu' },
  };
  /** Which of `lists` are still remembered, in the catalogue and with their counts, after `tags`. */
  const keptAfter = async (...tags: string[]) => {
    const { caches, announce } = listening();
    for (const [name, filters] of Object.entries(lists)) {
      await caches.catalogue.get(name, async () => ({ json: '[]', tags: listTags(filters) }), answerTags);
      await caches.counts.get(name, async () => ({ json: '{}', tags: listTags(filters) }), answerTags);
    }
    announce(...tags);
    const kept = Object.keys(lists).filter((name) => caches.catalogue.holds(name));
    expect(Object.keys(lists).filter((name) => caches.counts.holds(name))).toEqual(kept);
    return kept;
  };

  it('drops the lists of its campus and category whose price and pickup filters it meets, and no other', async () => {
    // $7.50, handed over at a meetup.
    expect(await keptAfter('item:1', 'list:stanford.edu', 'list:stanford.edu:tools:new:750:meetup')).toEqual([
      'freeOnly',
      'underFive',
      'locker',
      'otherCategory',
      'otherCampus',
    ]);
    // Free, in a locker: under every price cap.
    expect(await keptAfter('list:stanford.edu:tools:new::locker')).toEqual([
      'meetup',
      'otherCategory',
      'otherCampus',
    ]);
  });

  it('drops every list of its campus and category for a change, and every list for a shape it does not know', async () => {
    expect(await keptAfter('list:stanford.edu:tools')).toEqual(['otherCategory', 'otherCampus']);
    for (const unknown of [
      'list:stanford.edu:tools:new:7.5:meetup',
      'list:stanford.edu:tools:new:750',
      'list:stanford.edu:tools:new:750:meetup:more',
      `list:stanford.edu:tools:new:750:meetup:${LAMP}:more`,
      'list:stanford.edu:tools:old:750:meetup',
    ]) {
      expect(await keptAfter(unknown)).toEqual([]);
    }
  });
  it('has the first pages it names revised in place, reading each listing once: the others are recomputed', async () => {
    const asked: unknown[] = [];
    const revisions: string[] = [];
    const { caches, announce } = listening((listing) => {
      asked.push(listing);
      return (answer) =>
        'json' in answer && answer.newestFirst
          ? async () => {
              revisions.push(answer.json);
              return { ...answer, json: `${answer.json}+lamp` };
            }
          : undefined;
    });
    const page = {
      today: { date: '2026-11-30', weekday: 1 },
      availableNow: false,
      limit: 12,
      counted: true,
      items: { starts: [], end: 0, createdMs: [] },
    };
    for (const [name, filters] of Object.entries(lists)) {
      await caches.catalogue.get(
        name,
        async () => ({
          json: name,
          tags: listTags(filters),
          ...(name === 'locker' ? {} : { newestFirst: page }),
        }),
        answerTags,
      );
    }
    // Free, in a locker, with its id: every list of its campus and category but the meetup one.
    announce('item:1', `list:stanford.edu:tools:new::locker:${LAMP}`);
    expect(asked).toEqual([{ id: LAMP, priceCents: null, pickupMethod: 'locker' }]);
    expect(revisions.sort()).toEqual([]); // revised after the announcement, not during it
    const read = async (name: string) => {
      const answer = await caches.catalogue.get(
        name,
        async () => ({ json: `${name} recomputed`, tags: [] }),
        answerTags,
        {
          fresh: true,
        },
      );
      return jsonOf(answer);
    };
    expect(await read('stanfordTools')).toBe('stanfordTools+lamp');
    expect(await read('everyCampus')).toBe('everyCampus+lamp');
    expect(await read('freeOnly')).toBe('freeOnly+lamp');
    expect(await read('underFive')).toBe('underFive+lamp');
    expect(await read('locker')).toBe('locker recomputed'); // no first page to revise
    expect(await read('meetup')).toBe('meetup'); // another pickup: kept as it was
    expect(revisions.sort()).toEqual(['everyCampus', 'freeOnly', 'stanfordTools', 'underFive', 'underTen']);
    // Without its id (an instance of the previous version wrote it), nothing is revised.
    asked.length = 0;
    announce('list:stanford.edu:tools:new::locker');
    expect(asked).toEqual([]);
  });
});
