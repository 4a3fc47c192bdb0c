import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client.ts';
import { learnFromChanges, prefixDistance, SearchVocabulary, vocabularyOf } from './vocabulary.ts';

describe('prefixDistance', () => {
  it('counts the edits from a typed word to the nearest beginning of a word', () => {
    expect(prefixDistance('calc', 'calculator', 1)).toBe(0);
    expect(prefixDistance('uke', 'ukulele', 1)).toBe(1);
    expect(prefixDistance('ukelele', 'ukulele', 2)).toBe(1);
    expect(prefixDistance('drll', 'drill', 1)).toBe(1);
    // Two letters swapped are one edit.
    expect(prefixDistance('dirll', 'drill', 1)).toBe(1);
    expect(prefixDistance('calculater', 'calculator', 2)).toBe(1);
    // Past the limit: the limit plus one, whatever the true distance.
    expect(prefixDistance('zzz', 'drill', 1)).toBe(2);
    expect(prefixDistance('tent', 'telescope', 1)).toBe(2);
  });
});

describe('SearchVocabulary.nearest', () => {
  const vocabulary = new SearchVocabulary();
  vocabulary.add([
    'ukulele',
    'ikea',
    'used',
    'uk',
    'drill',
    'dryer',
    'calculator',
    'calculus',
    'kettle',
    'tent',
  ]);

  it('keeps what starts a word, and corrects the rest to the word most likely meant', () => {
    expect(vocabulary.hasPrefix('calc')).toBe(true);
    expect(vocabulary.hasPrefix('uke')).toBe(false);
    // One edit from "uku…", "ike…" and "use…" alike: the one typed right from the start wins.
    expect(vocabulary.nearest('uke')).toBe('ukulele');
    expect(vocabulary.nearest('ukelele')).toBe('ukulele');
    expect(vocabulary.nearest('drll')).toBe('drill');
    expect(vocabulary.nearest('calculater')).toBe('calculator');
    expect(vocabulary.nearest('ketle')).toBe('kettle');
    // A mistyped first letter is still found when nothing else is near.
    expect(vocabulary.nearest('rent')).toBe('tent');
  });

  it('corrects nothing too short or too far', () => {
    expect(vocabulary.nearest('dx')).toBeUndefined();
    expect(vocabulary.nearest('qqxxzz')).toBeUndefined();
  });

  it('learns words once, in any order', () => {
    const later = new SearchVocabulary();
    later.add(['zither', 'abacus']);
    later.add(['abacus', 'mandolin']);
    expect(later.size).toBe(3);
    expect(later.hasPrefix('mand')).toBe(true);
    expect(later.hasPrefix('abc')).toBe(false);
    expect(later.nearest('zithr')).toBe('zither');
  });

  it('corrects a word again once a nearer one is learnt, and as typed once it is', () => {
    const later = new SearchVocabulary();
    later.add(['telescope', 'tent']);
    expect(later.nearest('telscopes')).toBe('telescope');
    later.add(['telescopes']);
    expect(later.nearest('telscopes')).toBe('telescopes');
    expect(later.nearest('tnt')).toBe('tent');
    later.add(['tnt']);
    expect(later.hasPrefix('tnt')).toBe(true);
  });
});

describe('when the vocabulary reads the words learnt', () => {
  const counted = () => {
    const vocabulary = new SearchVocabulary();
    const reads = vi
      .spyOn(vocabulary as unknown as { readNew: () => Promise<void> }, 'readNew')
      .mockImplementation(async () => vocabulary.add(['kettle']));
    return { vocabulary, reads, db: {} as Db };
  };

  it('reads after an announced item change, not for every word it lacks', async () => {
    const { vocabulary, reads, db } = counted();
    await vocabulary.learn(db, ['ketle']);
    expect(reads).toHaveBeenCalledTimes(1);
    await vocabulary.learn(db, ['xylophon']);
    await vocabulary.learn(db, ['kettle']);
    expect(reads).toHaveBeenCalledTimes(1);
    vocabulary.markStale();
    await vocabulary.learn(db, ['kettle']);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('spells words that start catalogue words as typed without reading, stale or not, and reads for the others', async () => {
    const { vocabulary, reads, db } = counted();
    await vocabulary.learn(db, ['kettle']);
    vocabulary.markStale();
    expect(await vocabulary.spell(db, ['kett', 'kettle'])).toEqual(['kett', 'kettle']);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(await vocabulary.spell(db, ['ketle'])).toEqual(['kettle']);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('has a search for a word it lacks wait for a read under way, the first read too', async () => {
    const vocabulary = new SearchVocabulary();
    let finish = () => {};
    vi.spyOn(vocabulary as unknown as { readNew: () => Promise<void> }, 'readNew').mockImplementation(
      () =>
        new Promise<void>((resolve) => {
          finish = () => {
            vocabulary.add(['ukulele']);
            resolve();
          };
        }),
    );
    const db = {} as Db;
    const first = vocabulary.spell(db, ['ukulele']);
    const second = vocabulary.spell(db, ['uke']);
    // The second search would have gone on by now, had it not waited.
    await new Promise((resolve) => setTimeout(resolve, 0));
    finish();
    expect(await first).toEqual(['ukulele']);
    expect(await second).toEqual(['ukulele']);
  });

  it('reads for any word it lacks while announcements cannot be heard, and everything once they can', async () => {
    const { vocabulary, reads, db } = counted();
    await vocabulary.learn(db, []);
    vocabulary.announcementsLost();
    await vocabulary.learn(db, ['kettle']);
    expect(reads).toHaveBeenCalledTimes(1);
    await vocabulary.learn(db, ['xylophon']);
    await vocabulary.learn(db, ['xylophon']);
    expect(reads).toHaveBeenCalledTimes(3);
    vocabulary.forget();
    await vocabulary.learn(db, ['xylophon']);
    await vocabulary.learn(db, ['xylophon']);
    expect(reads).toHaveBeenCalledTimes(4);
  });
});

describe('what the announcements tell the vocabulary', () => {
  it('an item change, or a statement too big to name its items (`all`), has the next search read; a gap makes it read for any word it lacks', async () => {
    const db = {} as Db;
    let changed = (_tags: string[]) => {};
    let status = (_status: 'up' | 'down') => {};
    learnFromChanges(db, {
      observeChanges: (observer) => {
        changed = observer;
        return () => {};
      },
      observeStatus: (observer) => {
        status = observer;
        return () => {};
      },
    });
    const vocabulary = vocabularyOf(db);
    const reads = vi
      .spyOn(vocabulary as unknown as { readNew: () => Promise<void> }, 'readNew')
      .mockImplementation(async () => vocabulary.add(['kettle']));
    await vocabulary.learn(db, ['ketle']);
    expect(reads).toHaveBeenCalledTimes(1);
    changed(['profile:u1', 'session:u1']);
    await vocabulary.learn(db, ['ketle']);
    expect(reads).toHaveBeenCalledTimes(1);
    changed(['all']);
    await vocabulary.learn(db, ['ketle']);
    expect(reads).toHaveBeenCalledTimes(2);
    changed(['item:i1', 'list:mit.edu:kitchen']);
    await vocabulary.learn(db, ['kettle']);
    expect(reads).toHaveBeenCalledTimes(3);
    status('down');
    await vocabulary.learn(db, ['xylophon']);
    expect(reads).toHaveBeenCalledTimes(4);
  });
});
