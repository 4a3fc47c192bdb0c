import { describe, expect, it } from 'vitest';
import {
  CLEARED,
  FILTERS_RESET,
  MOST_PAGES_IN_ADDRESS,
  readBrowseAddress,
  writeBrowseAddress,
} from './browse-address.ts';

const read = (query: string) => readBrowseAddress(new URLSearchParams(query));
const write = (query: string, change: Parameters<typeof writeBrowseAddress>[1]) =>
  writeBrowseAddress(new URLSearchParams(query), change).toString();

describe("Browse's address", () => {
  it('reads a plain /browse as the defaults: available now on, nothing else', () => {
    expect(read('')).toEqual({
      search: '',
      campus: undefined,
      category: undefined,
      freeOnly: false,
      availableNow: true,
      maxPrice: '',
      pickupMethod: '',
      sort: '',
      pages: 1,
    });
  });

  it('reads every filter a shared link carries', () => {
    expect(
      read(
        'q=drill&campus=Stanford.edu&category=tools&free=1&available=any&max=12.5&pickup=locker&sort=price-low&page=3',
      ),
    ).toEqual({
      search: 'drill',
      campus: 'stanford.edu',
      category: 'tools',
      freeOnly: true,
      availableNow: false,
      maxPrice: '12.5',
      pickupMethod: 'locker',
      sort: 'price-low',
      pages: 3,
    });
  });

  it('reads what it cannot use as the default, never as a broken list', () => {
    const choice = read('category=boats&pickup=drone&max=-4&page=lots&free=yes&available=soon&sort=random');
    expect(choice.sort).toBe('');
    expect(choice.category).toBeUndefined();
    expect(choice.pickupMethod).toBe('');
    expect(choice.maxPrice).toBe('');
    expect(choice.pages).toBe(1);
    expect(choice.freeOnly).toBe(false);
    expect(choice.availableNow).toBe(true);
    expect(read('max=abc').maxPrice).toBe('');
    expect(read('page=0').pages).toBe(1);
    expect(read(`page=${MOST_PAGES_IN_ADDRESS + 40}`).pages).toBe(MOST_PAGES_IN_ADDRESS);
  });

  it('writes only what differs from the defaults, and what it writes reads back the same', () => {
    const address = write('', {
      search: 'lamp',
      campus: 'berkeley.edu',
      category: 'furniture',
      freeOnly: true,
      availableNow: false,
      maxPrice: ' 20 ',
      pickupMethod: 'meetup',
      sort: 'newest',
    });
    expect(address).toBe(
      'q=lamp&campus=berkeley.edu&category=furniture&free=1&available=any&max=20&pickup=meetup&sort=newest',
    );
    expect(read(address)).toMatchObject({
      search: 'lamp',
      maxPrice: '20',
      freeOnly: true,
      availableNow: false,
    });
    expect(write(address, { freeOnly: false, availableNow: true, category: null, sort: '' })).toBe(
      'q=lamp&campus=berkeley.edu&max=20&pickup=meetup',
    );
  });

  it('starts the list again from its first page when anything but the pages changes', () => {
    expect(write('q=lamp&page=3', { pages: 4 })).toBe('q=lamp&page=4');
    expect(write('q=lamp&page=3', { category: 'books' })).toBe('q=lamp&category=books');
    expect(write('q=lamp&page=3', { search: 'desk lamp' })).toBe('q=desk+lamp');
    expect(write('q=lamp&page=2', { pages: 1 })).toBe('q=lamp');
    expect(write('', { pages: MOST_PAGES_IN_ADDRESS + 5 })).toBe(`page=${MOST_PAGES_IN_ADDRESS}`);
  });

  it("'Clear all filters' keeps the campus; 'Reset filters' keeps the search and category too", () => {
    const everything =
      'q=lamp&campus=berkeley.edu&category=furniture&free=1&available=any&max=20&pickup=meetup&sort=price-high&page=2';
    expect(write(everything, CLEARED)).toBe('campus=berkeley.edu');
    expect(write(everything, FILTERS_RESET)).toBe('q=lamp&campus=berkeley.edu&category=furniture');
  });
});
