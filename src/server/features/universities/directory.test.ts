import { describe, expect, it } from 'vitest';
import { campusName, detectUniversity, isKnownCampus, searchUniversities } from './directory.ts';

describe('university directory', () => {
  it('walks up an e-mail domain’s labels to find the university', () => {
    expect(detectUniversity('a@cs.stanford.edu').university?.name).toBe('Stanford University');
    expect(detectUniversity('a@eecs.berkeley.edu').university?.domain).toBe('berkeley.edu');
    expect(detectUniversity('a@gmail.com').university).toBeNull();
    expect(detectUniversity('no-at-sign').university).toBeNull();
  });

  it('keeps a branch campus apart from its system’s main domain', () => {
    expect(detectUniversity('a@psu.edu').university?.name).toBe('Pennsylvania State University-Main Campus');
    expect(detectUniversity('a@abington.psu.edu').university?.domain).toBe('abington.psu.edu');
  });

  it('names a campus domain, including one shared by a chain', () => {
    expect(campusName('stanford.edu')).toBe('Stanford University');
    expect(campusName('psu.edu')).toBe('Pennsylvania State University');
    expect(campusName('strayer.edu')).toBe('Strayer University');
    expect(campusName('unknown.edu')).toBe('unknown.edu');
    expect(isKnownCampus('stanford.edu')).toBe(true);
    expect(isKnownCampus('unknown.edu')).toBe(false);
  });

  it('ranks exact names and aliases first, and ignores accents and case', () => {
    const first = (q: string) => searchUniversities(q).groups[0]?.universities[0]?.name;
    expect(first('UCLA')).toBe('University of California-Los Angeles');
    expect(first('stanford university')).toBe('Stanford University');
    expect(first('STANFORD')).toBe('Stanford University');
    expect(searchUniversities('san jose').total).toBeGreaterThan(0);
  });
});
